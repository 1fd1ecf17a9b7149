//! More than one controller per switch (issue 12.6): in a network run every emulated switch
//! connects to every address of `controllers`. Channel 0 is the session's own connection; this
//! file keeps the others (1..): their sockets, bytes received, replies to write.
//!
//! Each extra connection has a reader task that only moves bytes into `rx` and wakes the
//! session; the session, on its turn, runs whole messages through the switch core
//! (`Switch::on_message_from`, which handles OF1.3 roles and async configs, and OF1.0 where
//! every channel is equal), and writes what the core put in each channel's buffer. Asynchronous
//! messages (packet-ins of frames, PORT_STATUS) go to the channels the core chooses, through
//! `with_outs`.

use crate::tls::Conn;
use ofswitch::{frame_len, Switch};
use std::cell::{Cell, RefCell};
use std::io;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::Duration;
use tokio::sync::Notify;

struct Extra {
    stream: Rc<Conn>,
    rx: Rc<RefCell<Vec<u8>>>,
    closed: Rc<Cell<bool>>,
    out: Vec<u8>,
    pos: usize,
}

#[derive(Default)]
pub struct Channels {
    extra: Vec<Extra>,
    pub notify: Rc<Notify>,
    outs: Vec<Vec<u8>>,
    /// Messages from the extra channels the core refused or could not parse.
    pub errors: u64,
    /// Each channel's role as last seen (0 = the session's own connection).
    seen_roles: Vec<u32>,
}

impl Channels {
    /// Connect to `addrs` (the controllers after the first, each over TLS with its client
    /// when the run is over TLS, the handshake within `limit`) and start their reader tasks.
    pub async fn connect(addrs: &[(SocketAddr, Option<crate::tls::Tls>)], limit: Duration) -> io::Result<Channels> {
        let mut c = Channels::default();
        for (a, tls) in addrs {
            let s = crate::tls::connect(*a, None, tls.as_ref(), limit).await?;
            let e = Extra { stream: Rc::new(s), rx: Rc::default(), closed: Rc::default(), out: Vec::new(), pos: 0 };
            tokio::task::spawn_local(read_loop(e.stream.clone(), e.rx.clone(), e.closed.clone(), c.notify.clone()));
            c.extra.push(e);
        }
        Ok(c)
    }

    pub fn is_empty(&self) -> bool {
        self.extra.is_empty()
    }

    /// Add the channels to the switch and say hello on each.
    pub fn start(&mut self, sw: &mut Switch, now: u64) {
        for e in &mut self.extra {
            let ch = sw.add_channel();
            sw.start_channel(now, ch, &mut e.out);
        }
    }

    /// Run `f` with every channel's output buffer, channel 0 being `wbuf`.
    pub fn with_outs<R>(&mut self, wbuf: &mut Vec<u8>, f: impl FnOnce(&mut [Vec<u8>]) -> R) -> R {
        self.outs.clear();
        self.outs.push(std::mem::take(wbuf));
        for e in &mut self.extra {
            self.outs.push(std::mem::take(&mut e.out));
        }
        let r = f(&mut self.outs);
        let mut it = self.outs.drain(..);
        *wbuf = it.next().unwrap_or_default();
        for (e, b) in self.extra.iter_mut().zip(it) {
            e.out = b;
        }
        r
    }

    /// One turn: what the extra controllers sent goes through the switch, keep-alives are due,
    /// replies are written. Returns when a keep-alive is next due.
    pub fn turn(&mut self, sw: &mut Switch, now: u64, wbuf: &mut Vec<u8>) -> u64 {
        let mut next = u64::MAX;
        for k in 0..self.extra.len() {
            let bytes = std::mem::take(&mut *self.extra[k].rx.borrow_mut());
            let mut at = 0;
            while let Some(n) = frame_len(&bytes[at..]) {
                let Ok(n) = n else {
                    self.errors += 1;
                    at = bytes.len();
                    break;
                };
                if bytes.len() - at < n {
                    break; // the rest of this message has not arrived yet
                }
                let msg = &bytes[at..at + n];
                if self.with_outs(wbuf, |outs| sw.on_message_from(now, k + 1, msg, outs)).is_err() {
                    self.errors += 1;
                }
                at += n;
            }
            if at < bytes.len() {
                let mut rx = self.extra[k].rx.borrow_mut();
                let rest: Vec<u8> = bytes[at..].iter().chain(rx.iter()).copied().collect();
                *rx = rest;
            }
            let e = &mut self.extra[k];
            if !e.closed.get() {
                if let Ok(t) = sw.poll_channel(now, k + 1, &mut e.out) {
                    next = next.min(t);
                }
            }
        }
        self.flush();
        self.observe_roles(sw);
        next
    }

    /// Record every channel whose role differs from what was last seen (OF1.3 role requests,
    /// from any channel: a new MASTER demotes the old one) in this worker's node, at the time
    /// it is seen (the turn after the session read the request).
    fn observe_roles(&mut self, sw: &Switch) {
        let now = super::clock::mono_ns();
        let mut changes = vec![];
        for (i, c) in sw.channels.iter().enumerate() {
            if self.seen_roles.len() <= i {
                self.seen_roles.push(c.role);
            } else if self.seen_roles[i] != c.role {
                self.seen_roles[i] = c.role;
                changes.push((now, i as u32, c.role));
            }
        }
        if !changes.is_empty() {
            super::node::with_current(|n| n.role_changes(sw.cfg.dpid, changes));
        }
    }

    /// Write what each socket takes now (the rest waits for the next turn).
    pub fn flush(&mut self) {
        for e in &mut self.extra {
            while e.pos < e.out.len() && !e.closed.get() {
                match e.stream.write(&e.out[e.pos..]) {
                    Ok(n) => e.pos += n,
                    Err(err) if err.kind() == io::ErrorKind::WouldBlock => break,
                    Err(_) => e.closed.set(true),
                }
            }
            if !e.closed.get() && e.stream.flush_tls().is_err() {
                e.closed.set(true);
            }
            if e.pos >= e.out.len() || e.closed.get() {
                e.out.clear();
                e.pos = 0;
            }
        }
    }
}

async fn read_loop(s: Rc<Conn>, rx: Rc<RefCell<Vec<u8>>>, closed: Rc<Cell<bool>>, notify: Rc<Notify>) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        if s.tcp().readable().await.is_err() {
            break;
        }
        match s.read(&mut buf) {
            Ok((0, _)) => break,
            Ok((n, _)) => {
                rx.borrow_mut().extend_from_slice(&buf[..n]);
                notify.notify_one();
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(_) => break,
        }
    }
    closed.set(true);
    notify.notify_one();
}
