//! How the coordinator talks to a worker or an agent: a `Handle` takes its commands (a channel
//! to a thread, a child's stdin, or the socket of a pod that dialled in), and a reader thread
//! forwards its events, tagged with the handle's index, as JSON lines of the protocol
//! (`switch/protocol.rs`). A stream that ends without a report becomes one `Lost` line.

use crate::config::{Config, Slice};
use crate::switch::protocol::{encode, Cmd, WorkerEvent, PROTOCOL};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Events read and parsed but not yet taken by the coordinator, at most. Past it a reader waits,
/// its worker's pipe fills, and the worker waits to write: what is queued is bounded by this plus
/// one event per reader, each event at most [`crate::switch::protocol::SWITCHES_PER_EVENT`]
/// records. Unbounded, the readers parsed a million switches' records faster than the coordinator
/// encoded them, and the queue held them (docs/million.md, "The coordinator's queue").
pub(crate) const EVENTS_QUEUED: usize = 4;

/// Where every reader sends its events, tagged with its handle's index.
pub(crate) type EventTx = mpsc::SyncSender<(u32, WorkerEvent)>;

/// The coordinator's queue of events (bounded: [`EVENTS_QUEUED`]).
pub(crate) fn events() -> (EventTx, mpsc::Receiver<(u32, WorkerEvent)>) {
    mpsc::sync_channel(EVENTS_QUEUED)
}

/// A worker or an agent, as the coordinator sends to it.
pub(crate) enum Handle {
    Thread(tokio::sync::mpsc::UnboundedSender<Cmd>, std::thread::JoinHandle<()>),
    /// A child process (a local worker, or an agent behind `ip netns exec`/`ssh`) and the bytes
    /// of protocol written to it.
    Child(Child, Option<ChildStdin>, Arc<AtomicU64>),
    /// An agent that dialled in (`distributed/pod_link.rs`): the connection (None once it failed or for a
    /// pod that never came) and the bytes of protocol written to it.
    Socket(Option<std::net::TcpStream>, Arc<AtomicU64>),
}

/// Write one protocol line; a stream that fails is dropped (its reader reports the loss).
fn send_line<W: Write>(w: &mut Option<W>, bytes: &AtomicU64, cmd: &Cmd) {
    if let Some(s) = w {
        let line = encode(cmd);
        bytes.fetch_add(line.len() as u64 + 1, Ordering::Relaxed);
        if writeln!(s, "{line}").and_then(|_| s.flush()).is_err() {
            *w = None;
        }
    }
}

impl Handle {
    pub(crate) fn send(&mut self, cmd: &Cmd) {
        match self {
            Handle::Thread(tx, _) => {
                let _ = tx.send(cmd.clone());
            }
            Handle::Child(_, stdin, bytes) => send_line(stdin, bytes, cmd),
            Handle::Socket(sock, bytes) => send_line(sock, bytes, cmd),
        }
    }
    pub(crate) fn pid(&self) -> u32 {
        match self {
            Handle::Thread(..) | Handle::Socket(..) => std::process::id(),
            Handle::Child(c, ..) => c.id(),
        }
    }
    /// Let it end: a thread is joined; a child, its stdin closed, gets 5 s to exit before it is
    /// killed (a worker or agent ends at the close, `children.rs`); a socket is closed.
    pub(crate) fn finish(self) {
        match self {
            Handle::Thread(tx, j) => {
                drop(tx);
                let _ = j.join();
            }
            Handle::Child(mut c, stdin, _) => {
                drop(stdin);
                let deadline = Instant::now() + Duration::from_secs(5);
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = c.try_wait() {
                        crate::children::reaped(c.id());
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                let _ = c.kill();
                let _ = c.wait();
                crate::children::reaped(c.id());
            }
            // its end of the stream closes: the agent stops, as an agent whose stdin closed
            Handle::Socket(s, _) => drop(s),
        }
    }
}

/// Start the worker of `slice`; its events are tagged with `w`, its handle's index.
pub(crate) fn spawn_worker(cfg: &Config, slice: Slice, w: u32, in_thread: bool, tx: EventTx) -> Result<Handle, String> {
    if in_thread {
        let (ctx, crx) = tokio::sync::mpsc::unbounded_channel();
        let cfg = cfg.clone();
        let j = std::thread::Builder::new()
            .name(format!("worker-{}", slice.worker))
            .spawn(move || crate::switch::worker::run(cfg, slice, crx, &mut |e| drop(tx.send((w, e)))))
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        return Ok(Handle::Thread(ctx, j));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find my own binary: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.arg("worker");
    let child =
        Spawned::spawn(cmd, w, &format!("worker {}", slice.worker), false, tx).map_err(|e| format!("cannot start worker process: {e}"))?;
    let mut h = child.handle;
    h.send(&Cmd::Start { config: Box::new(cfg.clone()), slice });
    Ok(h)
}

/// A child speaking the protocol, its reader thread started. `keep_stderr`: read the child's
/// stderr (echoed with `label`), its last line kept for the line that says why it was lost.
pub(crate) struct Spawned {
    pub handle: Handle,
    pub bytes_in: Arc<AtomicU64>,
    pub bytes_out: Arc<AtomicU64>,
}

impl Spawned {
    pub(crate) fn spawn(mut cmd: Command, w: u32, label: &str, keep_stderr: bool, tx: EventTx) -> std::io::Result<Spawned> {
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        cmd.stderr(if keep_stderr { Stdio::piped() } else { Stdio::inherit() });
        crate::children::die_with_us(&mut cmd);
        let mut child = cmd.spawn()?;
        let leads_group = unsafe { libc::getpgid(child.id() as libc::pid_t) } == child.id() as libc::pid_t;
        crate::children::started(child.id(), leads_group);
        let threads = Self::readers(&mut child, w, label, tx);
        let bytes_in = match threads {
            Ok(b) => b,
            Err(e) => {
                // no reader, no report: the child is ended here, not left behind
                let _ = child.kill();
                let _ = child.wait();
                crate::children::reaped(child.id());
                return Err(e);
            }
        };
        let bytes_out = Arc::new(AtomicU64::new(0));
        let stdin = child.stdin.take();
        Ok(Spawned { handle: Handle::Child(child, stdin, bytes_out.clone()), bytes_in, bytes_out })
    }

    /// The threads that read the child's stdout (its events) and, when piped, its stderr;
    /// returns the count of bytes read from it. A thread the system refuses is an error.
    fn readers(child: &mut Child, w: u32, label: &str, tx: EventTx) -> std::io::Result<Arc<AtomicU64>> {
        let stdout = child.stdout.take().expect("piped");
        let stderr = match child.stderr.take() {
            None => None,
            Some(e) => {
                let label = label.to_string();
                Some(std::thread::Builder::new().spawn(move || {
                    let mut last = String::new();
                    for line in BufReader::new(e).lines().map_while(Result::ok) {
                        eprintln!("{label}: {line}");
                        if !line.trim().is_empty() {
                            last = line;
                        }
                    }
                    last
                })?)
            }
        };
        let bytes_in = Arc::new(AtomicU64::new(0));
        let counted = bytes_in.clone();
        let label = label.to_string();
        std::thread::Builder::new().spawn(move || read_events(BufReader::new(stdout), w, &label, stderr, &counted, &tx))?;
        Ok(bytes_in)
    }
}

impl Spawned {
    /// An agent that dialled in (`distributed/pod_link.rs`): `reader` (past its hello line) carries its
    /// events, `stream` takes the commands.
    pub(crate) fn socket(stream: std::net::TcpStream, reader: BufReader<std::net::TcpStream>, w: u32, label: &str, tx: EventTx) -> Spawned {
        let bytes_in = Arc::new(AtomicU64::new(0));
        let counted = bytes_in.clone();
        let label = label.to_string();
        std::thread::spawn(move || read_events(reader, w, &label, None, &counted, &tx));
        let bytes_out = Arc::new(AtomicU64::new(0));
        Spawned { handle: Handle::Socket(Some(stream), bytes_out.clone()), bytes_in, bytes_out }
    }
}

/// Forward a child's events; at the end without a report, one `Lost` line saying why.
fn read_events(r: impl BufRead, w: u32, label: &str, stderr: Option<std::thread::JoinHandle<String>>, bytes_in: &AtomicU64, tx: &EventTx) {
    let mut done = false;
    for line in r.lines() {
        let Ok(line) = line else { break };
        bytes_in.fetch_add(line.len() as u64 + 1, Ordering::Relaxed);
        match serde_json::from_str::<WorkerEvent>(&line) {
            Ok(WorkerEvent::Ready(r)) if r.protocol != PROTOCOL => {
                let msg =
                    format!("{label} speaks {}, this engine {PROTOCOL}: run the same sdnbench-engine build on every agent", r.protocol);
                let _ = tx.send((w, WorkerEvent::Fatal(msg)));
            }
            Ok(e) => {
                done |= matches!(e, WorkerEvent::Done(_));
                let _ = tx.send((w, e));
            }
            Err(e) => {
                let _ = tx.send((w, WorkerEvent::Fatal(format!("{label} sent a bad line: {e}"))));
            }
        }
    }
    if !done {
        let why = stderr.and_then(|j| j.join().ok()).filter(|s| !s.is_empty());
        let msg = match why {
            Some(why) => format!("{label} exited without a report ({why})"),
            None => format!("{label} exited without a report"),
        };
        let _ = tx.send((w, WorkerEvent::Lost(msg)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch::protocol::Ready;

    fn events(lines: &[String]) -> Vec<WorkerEvent> {
        let (tx, rx) = mpsc::sync_channel(lines.len() + 1);
        read_events(lines.join("\n").as_bytes(), 0, "agent a", None, &AtomicU64::new(0), &tx);
        drop(tx);
        rx.into_iter().map(|(_, e)| e).collect()
    }

    /// A reader past the queue's bound waits (its worker's pipe then fills); once the coordinator
    /// drops its end (`drive`, before it lets the workers end), the reader goes on to its end.
    #[test]
    fn a_reader_waits_at_the_queues_bound_and_goes_on_once_it_is_closed() {
        let (tx, rx) = super::events();
        let lines: Vec<String> = (0..EVENTS_QUEUED + 3).map(|_| serde_json::to_string(&WorkerEvent::Fatal("x".into())).unwrap()).collect();
        let reader = std::thread::spawn(move || {
            read_events(lines.join("\n").as_bytes(), 0, "worker 0", None, &AtomicU64::new(0), &tx);
        });
        std::thread::sleep(Duration::from_millis(300));
        assert!(!reader.is_finished(), "the reader waits: {} events, a bound of {EVENTS_QUEUED}", EVENTS_QUEUED + 4);
        assert!(rx.recv().is_ok());
        std::thread::sleep(Duration::from_millis(100));
        assert!(!reader.is_finished(), "one taken, one more queued: it still waits");
        drop(rx);
        let t0 = Instant::now();
        while !reader.is_finished() && t0.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(reader.is_finished(), "the queue closed, the reader ends");
    }

    #[test]
    fn a_peer_of_another_protocol_is_refused_by_name() {
        let old = Ready { protocol: "sdnbench.engine.worker/1".into(), ..Default::default() };
        let got = events(&[serde_json::to_string(&WorkerEvent::Ready(old)).unwrap()]);
        match &got[0] {
            WorkerEvent::Fatal(m) => assert!(m.starts_with("agent a speaks sdnbench.engine.worker/1, this engine"), "{m}"),
            e => panic!("{e:?}"),
        }
        let same = Ready { protocol: PROTOCOL.into(), ..Default::default() };
        let got = events(&[serde_json::to_string(&WorkerEvent::Ready(same)).unwrap()]);
        assert!(matches!(got[0], WorkerEvent::Ready(_)), "{got:?}");
    }
}
