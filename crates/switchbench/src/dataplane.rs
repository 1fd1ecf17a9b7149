//! Data-plane threads: a capture that timestamps every probe coming out of a port, and a
//! blaster that sends probes into a port as fast as it can (or at a given rate).
//!
//! Raw samples first: a capture with `keep` set hands every probe with its kernel receive time
//! to the test; without it, it only counts (throughput runs would otherwise hold millions).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::clock::now_ns;
use crate::packet::PacketSocket;
use crate::probe::{self, Probe};

/// A data-plane port of the switch under test, as the harness reaches it: the packet socket on
/// the interface wired to it.
#[derive(Clone)]
pub struct DataPort {
    pub sock: Arc<PacketSocket>,
    pub port_no: u32,
    /// The probe source-MAC tag of this port (its position on the command line).
    pub tag: u8,
    /// Bytes per probe frame sent from this port (--frame-size).
    pub frame_size: usize,
}

static SEQ: AtomicU64 = AtomicU64::new(1);

/// A sequence number never used before in this process, so a probe still queued from an
/// earlier phase can never be taken for the one a test waits for.
pub fn next_seq() -> u64 {
    SEQ.fetch_add(1, Ordering::Relaxed)
}

/// A probe that came out of the switch, with its kernel receive time.
#[derive(Debug, Clone, Copy)]
pub struct Rx {
    pub probe: Probe,
    pub at: u64,
}

pub struct Capture {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<Result<(), String>>>,
    pub rx: Receiver<Rx>,
    pub count: Arc<AtomicU64>,
}

impl Capture {
    /// Captures probes on `sock`; `seen[flow]` is set for every flow that came out. Probes
    /// sent before `since` (ns; stragglers of an earlier phase with the same flow ids) are
    /// ignored.
    pub fn start(sock: Arc<PacketSocket>, keep: bool, seen: Option<Arc<Vec<AtomicBool>>>, since: u64) -> Capture {
        let stop = Arc::new(AtomicBool::new(false));
        let count = Arc::new(AtomicU64::new(0));
        let (tx, rx) = mpsc::channel();
        let (s, c) = (stop.clone(), count.clone());
        let handle = std::thread::spawn(move || {
            let mut buf = [0u8; 2048];
            while !s.load(Ordering::Relaxed) {
                let Some((n, at)) = sock.recv(&mut buf).map_err(|e| format!("capture on {}: {e}", sock.spec))? else {
                    continue;
                };
                let Some(p) = Probe::parse(&buf[..n]).filter(|p| p.tx >= since) else { continue };
                c.fetch_add(1, Ordering::Relaxed);
                if let Some(seen) = &seen {
                    if let Some(f) = seen.get(p.flow as usize) {
                        f.store(true, Ordering::Release);
                    }
                }
                if keep && tx.send(Rx { probe: p, at }).is_err() {
                    break;
                }
            }
            Ok(())
        });
        Capture { stop, handle: Some(handle), rx, count }
    }

    /// Waits up to `timeout` for the probe with `seq`; other probes are dropped.
    pub fn wait_seq(&self, seq: u64, timeout: Duration) -> Option<Rx> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(r) if r.probe.seq == seq => return Some(r),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }

    /// Waits up to `timeout` for the probes with `seqs`; returns those that came.
    pub fn collect(&self, seqs: &HashSet<u64>, timeout: Duration) -> HashSet<u64> {
        let deadline = Instant::now() + timeout;
        let mut got = HashSet::new();
        while got.len() < seqs.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(r) if seqs.contains(&r.probe.seq) => {
                    got.insert(r.probe.seq);
                }
                Ok(_) => continue,
                Err(_) => break,
            }
        }
        got
    }

    pub fn stop(mut self) -> Result<Vec<Rx>, String> {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            h.join().map_err(|_| "capture thread panicked".to_string())??;
        }
        Ok(self.rx.try_iter().collect())
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Sends one probe now on `port`; returns its kernel transmit time (see
/// `PacketSocket::send_stamped`).
pub fn send_probe(port: &DataPort, flow: u32, seq: u64) -> Result<u64, String> {
    let p = Probe { flow, seq, tx: now_ns(), prev_tx: 0 };
    let sock = &port.sock;
    sock.send_stamped(&p.to_vec(port.tag, port.frame_size)).map_err(|e| format!("sending on {}: {e}", sock.spec))
}

/// What a blast sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sent {
    pub frames: u64,
    pub errors: u64,
    pub elapsed_ns: u64,
}

/// Sends probes cycling over flows `0..flows` for `duration` (or until `stop`), at most `pps`
/// frames per second (0: as fast as possible). Send errors (a full queue) are counted.
pub fn blast(port: &DataPort, flows: u32, duration: Duration, pps: u64, stop: &AtomicBool) -> Sent {
    let (sock, src_port) = (&port.sock, port.tag);
    let start = Instant::now();
    let t0 = now_ns();
    let mut sent = Sent::default();
    let mut frame = vec![0u8; port.frame_size.max(probe::LEN)];
    let interval_ns = 1_000_000_000u64.checked_div(pps).unwrap_or(0);
    let mut flow = 0u32;
    while start.elapsed() < duration && !stop.load(Ordering::Relaxed) {
        if pps > 0 {
            let due = Duration::from_nanos(interval_ns * sent.frames);
            let now = start.elapsed();
            if due > now {
                std::thread::sleep((due - now).min(Duration::from_millis(1)));
                continue;
            }
        }
        Probe { flow, seq: next_seq(), tx: now_ns(), prev_tx: 0 }.emit(src_port, &mut frame);
        match sock.send(&frame) {
            Ok(()) => sent.frames += 1,
            Err(_) => {
                sent.errors += 1;
                std::thread::yield_now();
            }
        }
        flow = if flow + 1 >= flows.max(1) { 0 } else { flow + 1 };
    }
    sent.elapsed_ns = now_ns() - t0;
    sent
}
