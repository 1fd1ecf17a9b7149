//! The listening edge: accept one switch on a TCP port, run the handshake, then carry requests
//! out and messages in, each stamped with `clock::now_ns` when it was written or fully read.
//!
//! A reader thread frames and decodes the byte stream (peek the 8-byte header, wait for
//! `length` bytes, parse) and hands `(arrival, Message)` to the session over a channel; the
//! session owns the write half and the `ofcontroller` core. This is the shape of a listening
//! session for the tokio engine too: only the reader and the writer change.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use ofcontroller::{Action, Controller, Event, Kind};
use ofwire::{Body, FeaturesReply, Message, Version};

use crate::clock::now_ns;

pub struct Session {
    ctl: Controller,
    writer: TcpStream,
    rx: Receiver<Result<(u64, Message), String>>,
    pub version: Version,
    pub features: FeaturesReply,
    /// Events not yet taken by a test (packet-ins, errors, replies nobody waited for).
    pub backlog: VecDeque<Event>,
}

/// Accepts one switch within `timeout` on `listener` and completes the handshake.
pub fn accept(listener: &TcpListener, versions: &[u8], timeout: Duration) -> Result<Session, String> {
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let deadline = Instant::now() + timeout;
    let stream = loop {
        match listener.accept() {
            Ok((s, _)) => break s,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    return Err(format!(
                        "no switch connected to {addr} within {}s; tell the switch its controller is tcp:{addr} \
                         (Open vSwitch: `ovs-vsctl set-controller BRIDGE tcp:{addr}`)",
                        timeout.as_secs()
                    ));
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(format!("accept on {addr}: {e}")),
        }
    };
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    Session::handshake(stream, versions, Duration::from_secs(10))
}

fn reader(mut stream: TcpStream, tx: mpsc::Sender<Result<(u64, Message), String>>) {
    let mut buf = vec![0u8; 1 << 16];
    let mut have = 0usize;
    loop {
        // Decode every whole message in the buffer, then read more.
        let mut start = 0;
        while let Ok(Some(len)) = ofwire::frame_len(&buf[start..have]) {
            if have - start < len {
                if len > buf.len() {
                    buf.resize(len, 0);
                }
                break;
            }
            let at = now_ns();
            let msg = Message::parse(&buf[start..start + len]).map_err(|e| format!("undecodable message from the switch: {e}"));
            if tx.send(msg.map(|m| (at, m))).is_err() {
                return;
            }
            start += len;
        }
        if let Err(e) = ofwire::frame_len(&buf[start..have]) {
            let _ = tx.send(Err(format!("bad message header from the switch: {e}")));
            return;
        }
        buf.copy_within(start..have, 0);
        have -= start;
        if have == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
        match stream.read(&mut buf[have..]) {
            Ok(0) => {
                let _ = tx.send(Err("the switch closed the connection".into()));
                return;
            }
            Ok(n) => have += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = tx.send(Err(format!("connection to the switch: {e}")));
                return;
            }
        }
    }
}

impl Session {
    fn handshake(stream: TcpStream, versions: &[u8], timeout: Duration) -> Result<Session, String> {
        let (tx, rx) = mpsc::channel();
        let read_half = stream.try_clone().map_err(|e| e.to_string())?;
        std::thread::spawn(move || reader(read_half, tx));
        let mut ctl = Controller::new(versions);
        let mut writer = stream;
        for a in ctl.start(now_ns()) {
            if let Action::Send(m) = a {
                writer.write_all(&m.to_vec()).map_err(|e| format!("sending hello: {e}"))?;
            }
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (at, msg) = match rx.recv_timeout(left) {
                Ok(r) => r?,
                Err(_) => return Err(format!("the switch connected but did not finish the handshake within {}s", timeout.as_secs())),
            };
            for a in ctl.on_message(at, msg) {
                match a {
                    Action::Send(m) => writer.write_all(&m.to_vec()).map_err(|e| format!("handshake: {e}"))?,
                    Action::Event(Event::Connected { version, features, .. }) => {
                        return Ok(Session { ctl, writer, rx, version, features, backlog: VecDeque::new() });
                    }
                    Action::Event(Event::Failed { reason, .. }) => return Err(format!("handshake failed: {reason}")),
                    Action::Event(_) => {}
                }
            }
        }
    }

    /// Sends one request now; returns its xid and send time.
    pub fn send(&mut self, body: Body) -> Result<(u32, u64), String> {
        let now = now_ns();
        let m = self.ctl.request(now, body);
        self.writer.write_all(&m.to_vec()).map_err(|e| format!("sending to the switch: {e}"))?;
        Ok((m.xid, now))
    }

    /// Sends many requests in large writes; returns (xid, time its write began) per request.
    pub fn send_many(&mut self, bodies: impl IntoIterator<Item = Body>) -> Result<Vec<(u32, u64)>, String> {
        const CHUNK: usize = 32 * 1024;
        let mut out = Vec::new();
        let mut buf = Vec::with_capacity(CHUNK + 4096);
        let mut chunk_xids = Vec::new();
        let mut bodies = bodies.into_iter().peekable();
        while bodies.peek().is_some() {
            while buf.len() < CHUNK {
                let Some(b) = bodies.next() else { break };
                let m = self.ctl.request(0, b);
                m.emit_append(&mut buf);
                chunk_xids.push(m.xid);
            }
            let now = now_ns();
            for &x in &chunk_xids {
                self.ctl.set_sent_at(x, now);
                out.push((x, now));
            }
            self.writer.write_all(&buf).map_err(|e| format!("sending to the switch: {e}"))?;
            buf.clear();
            chunk_xids.clear();
            self.pump(Duration::ZERO)?;
        }
        Ok(out)
    }

    /// Handles what arrived within `wait` (at least one message if any arrives); events go to
    /// the backlog. Returns whether anything arrived.
    pub fn pump(&mut self, wait: Duration) -> Result<bool, String> {
        let first = match self.rx.recv_timeout(wait) {
            Ok(r) => r?,
            Err(RecvTimeoutError::Timeout) => return Ok(false),
            Err(RecvTimeoutError::Disconnected) => return Err("the switch connection reader stopped".into()),
        };
        self.handle(first.0, first.1)?;
        while let Ok(r) = self.rx.try_recv() {
            let (at, m) = r?;
            self.handle(at, m)?;
        }
        Ok(true)
    }

    fn handle(&mut self, at: u64, msg: Message) -> Result<(), String> {
        for a in self.ctl.on_message(at, msg) {
            match a {
                Action::Send(m) => self.writer.write_all(&m.to_vec()).map_err(|e| format!("sending to the switch: {e}"))?,
                Action::Event(e) => self.backlog.push_back(e),
            }
        }
        Ok(())
    }

    /// Waits for the first backlog event that `want` accepts (removing it), up to `timeout`.
    pub fn wait_for<T>(&mut self, timeout: Duration, mut want: impl FnMut(&Event) -> Option<T>) -> Result<Option<T>, String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(i) = self.backlog.iter().position(|e| want(e).is_some()) {
                let e = self.backlog.remove(i).expect("index from position");
                return Ok(want(&e));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            self.pump(left.min(Duration::from_millis(50)))?;
        }
    }

    /// Waits for the reply (or error) to request `xid`.
    pub fn reply(&mut self, xid: u32, timeout: Duration) -> Result<Event, String> {
        let got = self.wait_for(timeout, |e| match e {
            Event::Reply { xid: x, .. } | Event::Error { xid: x, .. } if *x == xid => Some(e.clone()),
            _ => None,
        })?;
        got.ok_or_else(|| format!("the switch did not answer request xid {xid} within {}s", timeout.as_secs_f64()))
    }

    /// Sends a barrier and waits for its reply: returns (sent, replied) times.
    pub fn barrier(&mut self, timeout: Duration) -> Result<(u64, u64), String> {
        let (xid, _) = self.send(Body::BarrierRequest)?;
        match self.reply(xid, timeout)? {
            Event::Reply { sent_at, replied_at, .. } => Ok((sent_at, replied_at)),
            e => Err(format!("barrier failed: {e:?}")),
        }
    }

    /// Errors the switch sent for flow-mods so far (removed from the backlog).
    pub fn take_flow_mod_errors(&mut self) -> Vec<Event> {
        let (errs, rest): (Vec<Event>, Vec<Event>) =
            self.backlog.drain(..).partition(|e| matches!(e, Event::Error { kind: Some(Kind::FlowMod), .. }));
        self.backlog = rest.into();
        errs
    }

    /// Drops packet-ins and other chatter a test does not care about.
    pub fn clear_backlog(&mut self) {
        self.backlog.retain(|e| matches!(e, Event::Error { .. }));
    }
}
