//! Frames between worker processes: a full mesh of Unix stream sockets in the abstract
//! namespace (nothing on disk to clean up; gone when the processes are).
//!
//! Worker `w` of run `run_id` listens on `\0sdnbench-net-{run_id}-{w}` and connects once to every
//! other worker: it writes on the connections it made and reads on the ones it accepted, so each
//! direction between two workers is one ordered stream. `Outbox::send` only appends a `wire`
//! record to the peer's buffer and wakes the writer task; the writer writes each whole buffer at
//! once (one syscall per peer per turn, however many frames). Readers decode records and hand
//! each frame to `deliver` on the worker's thread.
//!
//! Across agents (machines; `agent.rs`) the same mesh runs over TCP (`start_tcp`): worker `w`
//! is agent `w`, it listens on the address it announced (`listen_tcp`, before its Ready: the mesh
//! is up before any switch connects) and connects to every other agent's, one connection per
//! direction, same records. Frame timestamps are CLOCK_MONOTONIC, shared by namespaces of one
//! machine; across machines the cross-worker transport delay figure would include the clocks'
//! difference (the frames themselves are unaffected: timestamps only feed that figure).
//!
//! Stop without losing count: `Outbox::close` flushes and shuts the write side; a reader ends at
//! EOF. Once every worker has closed and `Inbound::finished` resolved, nothing is on the wire, so
//! the routers' `in_transit` is exactly what their delay lines held.

use super::router::Frame;
use super::wire::{encode, Decoder};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Mutex;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UnixListener, UnixStream};

type Writer = Box<dyn AsyncWrite + Unpin>;

/// The TCP listener an agent bound (and announced) before its worker started.
static TCP_LISTENER: Mutex<Option<std::net::TcpListener>> = Mutex::new(None);

/// Agents: listen for the other agents' frames on `ip` (port chosen here); returns HOST:PORT.
pub fn listen_tcp(ip: &str) -> Result<String, String> {
    let l = std::net::TcpListener::bind((ip, 0)).map_err(|e| format!("network transport: cannot listen on {ip}: {e}"))?;
    let a = l.local_addr().map_err(|e| e.to_string())?;
    *TCP_LISTENER.lock().expect("lock") = Some(l);
    Ok(a.to_string())
}
use tokio::sync::Notify;

pub fn socket_name(run_id: &str, worker: u32) -> String {
    format!("\0sdnbench-net-{run_id}-{worker}")
}

/// What a worker writes to the others.
pub struct Outbox {
    bufs: RefCell<Vec<Vec<u8>>>,
    wake: Notify,
    closing: std::cell::Cell<bool>,
    done: Notify,
    pub frames_sent: std::cell::Cell<u64>,
}

impl Outbox {
    /// Queue `f` for worker `to` (written on the writer task's next turn).
    pub fn send(&self, to: u32, f: &Frame) {
        encode(f, &mut self.bufs.borrow_mut()[to as usize]);
        self.frames_sent.set(self.frames_sent.get() + 1);
        self.wake.notify_one();
    }

    /// Flush what is queued, then end every outgoing stream.
    pub async fn close(&self) {
        self.closing.set(true);
        self.wake.notify_one();
        self.done.notified().await;
    }
}

/// What a worker reads from the others.
pub struct Inbound {
    open: std::cell::Cell<u32>,
    ended: Notify,
    pub error: RefCell<Option<String>>,
}

impl Inbound {
    /// Resolves when every other worker has closed its stream to us.
    pub async fn finished(&self) {
        while self.open.get() > 0 {
            self.ended.notified().await;
        }
    }
}

/// Bind this worker's socket (before telling the coordinator it is ready).
pub fn bind(run_id: &str, me: u32) -> Result<UnixListener, String> {
    UnixListener::bind(socket_name(run_id, me)).map_err(|e| format!("network transport: cannot listen as worker {me}: {e}"))
}

/// Connect to every other worker, accept theirs, and start the reader and writer tasks (on the
/// current `LocalSet`). `deliver` gets every frame another worker sent here.
pub async fn start(
    run_id: &str,
    me: u32,
    workers: u32,
    listener: UnixListener,
    deliver: Rc<dyn Fn(Frame)>,
) -> Result<(Rc<Outbox>, Rc<Inbound>), String> {
    let mut writers: Vec<Option<Writer>> = (0..workers).map(|_| None).collect();
    for w in (0..workers).filter(|&w| w != me) {
        let s = connect_retry(&socket_name(run_id, w), Duration::from_secs(30))
            .await
            .map_err(|e| format!("network transport: worker {me} cannot reach worker {w}: {e}"))?;
        writers[w as usize] = Some(Box::new(s.into_split().1));
    }
    let inbound = Rc::new(Inbound { open: (workers - 1).into(), ended: Notify::new(), error: RefCell::new(None) });
    for _ in 1..workers {
        let (s, _) = listener.accept().await.map_err(|e| format!("network transport: worker {me} accept: {e}"))?;
        tokio::task::spawn_local(read_loop(s, deliver.clone(), inbound.clone()));
    }
    Ok(finish_start(writers, inbound))
}

/// The TCP mesh between agents: `peers[w]` is agent `w`'s HOST:PORT (this one's included, bound
/// by `listen_tcp`, or bound here if not).
pub async fn start_tcp(me: u32, peers: &[String], deliver: Rc<dyn Fn(Frame)>) -> Result<(Rc<Outbox>, Rc<Inbound>), String> {
    let workers = peers.len() as u32;
    let std_listener = match TCP_LISTENER.lock().expect("lock").take() {
        Some(l) => l,
        None => std::net::TcpListener::bind(&peers[me as usize])
            .map_err(|e| format!("network transport: cannot listen on {}: {e}", peers[me as usize]))?,
    };
    std_listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let listener = TcpListener::from_std(std_listener).map_err(|e| e.to_string())?;
    let mut writers: Vec<Option<Writer>> = (0..workers).map(|_| None).collect();
    for w in (0..workers).filter(|&w| w != me) {
        let s = connect_tcp_retry(&peers[w as usize], Duration::from_secs(30))
            .await
            .map_err(|e| format!("network transport: agent {me} cannot reach agent {w} at {}: {e}", peers[w as usize]))?;
        let _ = s.set_nodelay(true);
        writers[w as usize] = Some(Box::new(s.into_split().1));
    }
    let inbound = Rc::new(Inbound { open: (workers - 1).into(), ended: Notify::new(), error: RefCell::new(None) });
    for _ in 1..workers {
        let (s, _) = listener.accept().await.map_err(|e| format!("network transport: agent {me} accept: {e}"))?;
        let _ = s.set_nodelay(true);
        tokio::task::spawn_local(read_loop(s, deliver.clone(), inbound.clone()));
    }
    Ok(finish_start(writers, inbound))
}

async fn connect_tcp_retry(addr: &str, patience: Duration) -> std::io::Result<TcpStream> {
    let until = tokio::time::Instant::now() + patience;
    loop {
        match TcpStream::connect(addr).await {
            Ok(s) => return Ok(s),
            Err(e) if tokio::time::Instant::now() >= until => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

fn finish_start(writers: Vec<Option<Writer>>, inbound: Rc<Inbound>) -> (Rc<Outbox>, Rc<Inbound>) {
    let workers = writers.len();
    let outbox = Rc::new(Outbox {
        bufs: RefCell::new(vec![Vec::new(); workers]),
        wake: Notify::new(),
        closing: false.into(),
        done: Notify::new(),
        frames_sent: 0.into(),
    });
    tokio::task::spawn_local(write_loop(writers, outbox.clone()));
    (outbox, inbound)
}

async fn connect_retry(name: &str, patience: Duration) -> std::io::Result<UnixStream> {
    let until = tokio::time::Instant::now() + patience;
    loop {
        match UnixStream::connect(name).await {
            Ok(s) => return Ok(s),
            Err(e) if tokio::time::Instant::now() >= until => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(5)).await,
        }
    }
}

async fn write_loop(mut writers: Vec<Option<Writer>>, ob: Rc<Outbox>) {
    let mut spare: Vec<u8> = Vec::new();
    loop {
        let closing = ob.closing.get();
        for (w, slot) in writers.iter_mut().enumerate() {
            let Some(s) = slot else { continue };
            std::mem::swap(&mut spare, &mut ob.bufs.borrow_mut()[w]);
            if !spare.is_empty() && s.write_all(&spare).await.is_err() {
                *slot = None; // the peer is gone: what it would have got is lost with it
            }
            spare.clear();
        }
        if closing {
            for s in writers.iter_mut().flatten() {
                let _ = s.shutdown().await;
            }
            ob.done.notify_one();
            return;
        }
        if ob.bufs.borrow().iter().all(Vec::is_empty) {
            ob.wake.notified().await;
        }
    }
}

async fn read_loop(mut s: impl AsyncRead + Unpin, deliver: Rc<dyn Fn(Frame)>, inbound: Rc<Inbound>) {
    let mut d = Decoder::default();
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = match s.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                *inbound.error.borrow_mut() = Some(format!("network transport: {e}"));
                break;
            }
        };
        d.feed(&buf[..n]);
        loop {
            match d.next_frame() {
                Ok(Some(f)) => deliver(f),
                Ok(None) => break,
                Err(e) => {
                    *inbound.error.borrow_mut() = Some(e.to_string());
                    return end(&inbound);
                }
            }
        }
    }
    end(&inbound)
}

fn end(inbound: &Inbound) {
    inbound.open.set(inbound.open.get() - 1);
    inbound.ended.notify_waiters();
    inbound.ended.notify_one();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(to: u32, seq: u32) -> Frame {
        Frame { to, port: 1, link: seq, dir: 0, sent_ns: super::super::clock::mono_ns(), data: seq.to_be_bytes().repeat(16) }
    }

    /// Three workers on three threads (as three processes would be): every frame each sends to
    /// the others arrives, in order per direction, and nothing is left after close.
    #[test]
    fn a_mesh_of_three_carries_every_frame_in_order() {
        let run_id = format!("test-{}", std::process::id());
        let n = 3u32;
        let per_peer = 5_000u32;
        let threads: Vec<_> = (0..n)
            .map(|me| {
                let run_id = run_id.clone();
                std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
                    let local = tokio::task::LocalSet::new();
                    local.block_on(&rt, async move {
                        let listener = bind(&run_id, me).unwrap();
                        let got: Rc<RefCell<Vec<Frame>>> = Rc::default();
                        let g = got.clone();
                        let (ob, ib) = start(&run_id, me, n, listener, Rc::new(move |f| g.borrow_mut().push(f))).await.unwrap();
                        for seq in 0..per_peer {
                            for to in (0..n).filter(|&t| t != me) {
                                ob.send(to, &frame(to, seq * n + me));
                            }
                            if seq % 100 == 0 {
                                tokio::task::yield_now().await;
                            }
                        }
                        ob.close().await;
                        ib.finished().await;
                        assert!(ib.error.borrow().is_none());
                        let got = got.borrow();
                        assert_eq!(got.len() as u32, per_peer * (n - 1));
                        for from in (0..n).filter(|&f| f != me) {
                            let seqs: Vec<u32> = got.iter().map(|f| f.link).filter(|l| l % n == from).collect();
                            assert_eq!(seqs, (0..per_peer).map(|s| s * n + from).collect::<Vec<_>>());
                        }
                        assert!(got.iter().all(|f| f.to == me && f.data.len() == 64));
                    })
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    #[test]
    fn a_worker_that_never_listens_is_one_line_after_the_patience() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let e = rt.block_on(connect_retry(&socket_name("nobody-here", 9), Duration::from_millis(20))).unwrap_err();
        assert!(!e.to_string().contains('\n'));
    }
}
