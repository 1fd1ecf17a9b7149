//! One connection's loop. Each turn: the phase's work (`Phase::Wait`: handshake and learning;
//! `Load`; `Drain`), the timers every phase shares (keep-alive and request loss, the switch's
//! own echo), the links and the network, one write, then one sleep until the socket, a timer,
//! the worker or a neighbour wakes it.

use super::stats_mut;
use super::{End, Phase, Session};
use crate::tls::Conn;
use tokio::io::Interest;
use tokio::sync::watch;
use tokio::time::sleep_until;

impl Session {
    pub(super) async fn serve(&mut self, s: &Conn) -> Result<(), End> {
        let started = self.sh.now_ns();
        let first = self.established == 0;
        self.start(started).await;
        let mut phase_rx = self.sh.phase_rx.clone();
        let handshake_deadline = started + self.handshake_timeout_ns;
        loop {
            self.sh.trace.turn();
            self.compact();
            let now = self.sh.now_ns();
            let phase = self.phase(now);
            if self.sh.stopped() {
                self.network(now); // the network's last look at this switch (its flow entries now)
                return Ok(());
            }
            if !self.sw.is_up() && now > handshake_deadline {
                return Err(End::new("timeout", "no handshake from the controller in time"));
            }
            let mut deadline = if self.sw.is_up() { u64::MAX } else { handshake_deadline };
            let (paused, pause_edge) = if phase == Phase::Wait { (false, u64::MAX) } else { self.loop_pause(s, now)? };
            deadline = deadline.min(match phase {
                Phase::Wait => self.wait_turn(now),
                Phase::Load => self.load_turn(s, now, paused, pause_edge, first)?,
                Phase::Drain => match self.drain_turn(now) {
                    Some(t) => t,
                    None => return Ok(()),
                },
            });
            deadline = deadline.min(self.timers(now)?);
            if !paused && self.frames_waiting() {
                // as Open vSwitch: what the controller already sent is read before the frames a
                // link or host delivered (`frames_waiting`)
                self.read_all(s)?;
            }
            self.links(now);
            self.network(now);
            if !paused {
                self.flush(s)?;
            }
            if self.sh.cfg.busy_poll && !paused {
                // cbench's poll() always asks for POLLOUT, so it returns at once: cbench spins,
                // reading as soon as an answer is there; so does this switch (`Config::busy_poll`)
                tokio::task::yield_now().await;
                self.read_all(s)?;
                continue;
            }
            self.sleep(s, deadline, phase, paused, &mut phase_rx).await?;
        }
    }

    /// The timers of every phase: echoes of the keep-alive and requests that timed out (lost),
    /// and the switch's own echo and handshake. Returns when the next is due.
    fn timers(&mut self, now: u64) -> Result<u64, End> {
        let mut deadline = u64::MAX;
        if self.ka.pending() > 0 {
            let t = self.ka.expire(now, self.sh.timeout_ns(), &mut stats_mut(&self.sh, &self.stats, self.pos).ka);
            deadline = deadline.min(t);
        }
        if self.out.pending() > 0 {
            let timeout = self.timeout_ns();
            // late answers are still matched for 10 × timeout_ms (at least 10 s), or the last
            // KEEP_LATE timed-out requests, whichever is less
            let horizon = (10 * self.sh.timeout_ns()).max(10_000_000_000);
            let lost = self.out.expire(now.saturating_sub(timeout), now.saturating_sub(horizon));
            if lost > 0 {
                stats_mut(&self.sh, &self.stats, self.pos).requests.lost += lost as u64;
                // a window's slots they held are free: its pacer (which ran before this) sends
                // into them on the next turn, at once. A fixed rate's schedule does not wait for
                // slots (its next send is already in the deadline): a turn at once would only
                // find nothing due, one more wake-up per lost request while answers are late,
                // the metastable cost of issue 50's collapse at 1,000,000 switches
                if self.pacer.waits_for_answers() {
                    deadline = now;
                }
            }
            // the next loss timer: when the oldest request left times out, not a tick every
            // timeout / 4 (a turn each that found nothing due, while a queue stood: issue 50)
            if let Some(t) = self.out.oldest_pending() {
                deadline = deadline.min(t + timeout + 1);
            }
        }
        match self.sw.poll(now, &mut self.wbuf) {
            Ok(next) => Ok(deadline.min(next)),
            Err(e) => Err(End::new("timeout", e.to_string())),
        }
    }

    /// Sleep until the socket is readable (or writable, with bytes left to write), `deadline`,
    /// a phase change, this session's group of a staggered go, or a frame from a neighbour, the
    /// network or another controller; read what came.
    ///
    /// A held session spends its life in this await, so its task holds this state for as long
    /// as it lives (issue 50): the wakes of a scale run (socket, timer, phase, a staggered go)
    /// are awaited here, inline; those of small runs only (linked switches, the network, extra
    /// controllers) in `sleep_all`, boxed, whose state is held only while it runs. (Not the go:
    /// boxed, its state was held from the handshake to the go, ~1 KB per session, and its
    /// freed blocks stayed in the workers' RSS under load: +0.54 KB per session at 200,000.)
    async fn sleep(&mut self, s: &Conn, deadline: u64, phase: Phase, paused: bool, phase_rx: &mut watch::Receiver<u8>) -> Result<(), End> {
        if self.inbox.is_some() || self.net.is_some() || self.chans.as_ref().is_some_and(|c| !c.is_empty()) {
            return Box::pin(self.sleep_all(s, deadline, phase, paused, phase_rx)).await;
        }
        let interest = self.interest(s);
        let until = self.sh.instant_of(deadline);
        // a staggered go wakes this session with its group, not with the others (`stagger.rs`)
        let staggered = self.sh.stagger.as_ref().filter(|_| phase == Phase::Wait);
        let ready = tokio::select! {
            _ = async { staggered.unwrap().wait(self.pos).await }, if staggered.is_some() => None,
            r = s.tcp().ready(interest), if !paused => Some(r.map_err(End::io)?),
            _ = sleep_until(until) => {
                self.sh.trace.timer_turn(self.sh.now_ns().saturating_sub(deadline));
                None
            }
            _ = phase_rx.changed() => None,
        };
        self.woke(s, ready)
    }

    /// `sleep` with every wake a session may have.
    async fn sleep_all(
        &mut self,
        s: &Conn,
        deadline: u64,
        phase: Phase,
        paused: bool,
        phase_rx: &mut watch::Receiver<u8>,
    ) -> Result<(), End> {
        let interest = self.interest(s);
        let until = self.sh.instant_of(deadline);
        // a staggered go wakes this session with its group, not with the others (`stagger.rs`)
        let staggered = self.sh.stagger.as_ref().filter(|_| phase == Phase::Wait);
        let ready = tokio::select! {
            _ = async { staggered.unwrap().wait(self.pos).await }, if staggered.is_some() => None,
            r = s.tcp().ready(interest), if !paused => Some(r.map_err(End::io)?),
            _ = sleep_until(until) => {
                self.sh.trace.timer_turn(self.sh.now_ns().saturating_sub(deadline));
                None
            }
            _ = phase_rx.changed() => None,
            _ = async { self.inbox.as_ref().unwrap().notify.notified().await }, if self.inbox.is_some() => None,
            _ = async { self.net.as_ref().unwrap().1.notify.notified().await }, if self.net.is_some() => None,
            _ = async { self.chans.as_ref().unwrap().notify.notified().await }, if self.chans.as_ref().is_some_and(|c| !c.is_empty()) => None,
        };
        self.woke(s, ready)
    }

    /// What the socket is waited for: readable, and writable while bytes are left to write.
    fn interest(&self, s: &Conn) -> Interest {
        if self.wpos == self.wbuf.len() && !s.wants_write() {
            Interest::READABLE
        } else {
            Interest::READABLE | Interest::WRITABLE
        }
    }

    /// After a sleep: read what came, if the socket woke it.
    fn woke(&mut self, s: &Conn, ready: Option<tokio::io::Ready>) -> Result<(), End> {
        if ready.is_some_and(|r| r.is_readable() || r.is_read_closed()) {
            self.read_all(s)?;
        }
        Ok(())
    }
}
