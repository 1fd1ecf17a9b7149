//! The load section of a fixed-rate or keep-alive run (`result/load.rs`, issue 42), from the
//! loops' accounts the workers sent (`switch/load.rs`) and the switches' keep-alive counters;
//! and the warning a sender that fell behind gives.

use crate::config::Mode;
use crate::coordinator::outcome::Outcome;
use crate::hist::Hist;
use crate::result::load::{AfterLoops, KeepaliveLoad, Load, LoadLoops};

/// The section, when the run had one (no loop carried an account: `None`).
pub fn section(o: &Outcome) -> Option<Load> {
    if !o.loops.iter().any(|l| l.load.is_some()) {
        return None;
    }
    let mut ls = LoadLoops::default();
    let (mut echo_h, mut prev_lost) = (Hist::with_sigfig(3), 0);
    let (mut offered, mut sent, mut not_sent, mut backlog) = (0, 0, 0, 0);
    for l in &o.loops {
        let a = l.load.clone().unwrap_or_default();
        let s = a.hist().summary();
        echo_h.merge(&a.echo_hist());
        ls.k.push(l.k);
        ls.offered.push(a.offered);
        ls.sent.push(l.sent);
        ls.answered.push(l.answered);
        ls.late.push(a.late);
        // the switches' `lost` is net of the late answers (a late answer takes its request off
        // it): those that timed out in the loop are its change plus the loop's late answers
        ls.lost.push((l.lost + a.late).saturating_sub(prev_lost));
        prev_lost = l.lost;
        ls.not_sent_disconnected.push(a.not_sent_disconnected);
        ls.backlog.push(a.backlog);
        ls.p50_us.push(s.p50_us);
        ls.p99_us.push(s.p99_us);
        ls.p99_9_us.push(s.p99_9_us);
        ls.echo_sent.push(a.echo_sent);
        ls.echo_answered.push(a.echo_answered);
        ls.echo_lost.push(a.echo_lost);
        let (t, c) = (&a.trace, &mut ls.trace);
        c.turns.push(t.turns);
        c.timer_turns.push(t.timer_turns);
        c.timer_lag_max_us.push(t.timer_lag_max_us);
        c.write_blocked.push(t.write_blocked);
        c.read_capped.push(t.read_capped);
        if l.k > o.cfg.warmup {
            (offered, sent, not_sent) = (offered + a.offered, sent + l.sent, not_sent + a.not_sent_disconnected);
        }
        backlog = a.backlog;
    }
    let fixed = o.cfg.mode == Mode::FixedRate;
    // behind: more than 1% of the offered requests never sent, or more than 50 ms of the schedule
    // still due at the end (never "one per switch": at a million switches that is seconds)
    let lag = (o.cfg.rate * 0.05) as u64 + 10;
    let kept_up = !fixed || (sent + not_sent + offered / 100 + 10 >= offered && backlog <= lag);
    let after_loops = after_loops(o, &ls);
    Some(Load {
        offered_per_s: if fixed { o.cfg.rate } else { 0.0 },
        loops: ls,
        offered,
        sent,
        sender_kept_up: kept_up,
        keepalive: keepalive(o, &echo_h),
        after_loops,
    })
}

/// The switches' totals less the loops' columns (`AfterLoops`).
fn after_loops(o: &Outcome, ls: &LoadLoops) -> AfterLoops {
    let sum = |c: &[u64]| c.iter().sum::<u64>();
    let (s, k) = (&o.digest.sums, &o.digest.sums.keepalive);
    let t = AfterLoops {
        sent: s.requests.sent,
        answered: s.requests.answered,
        late: s.requests.late,
        lost: s.requests.lost + s.requests.late, // every request that timed out, answered late or not
        in_flight_at_stop: s.requests.in_flight_at_stop,
        echo_sent: k.sent,
        echo_answered: k.answered,
        echo_lost: k.lost,
    };
    AfterLoops {
        sent: t.sent.saturating_sub(sum(&ls.sent)),
        answered: t.answered.saturating_sub(sum(&ls.answered)),
        late: t.late.saturating_sub(sum(&ls.late)),
        lost: t.lost.saturating_sub(sum(&ls.lost)),
        in_flight_at_stop: t.in_flight_at_stop,
        echo_sent: t.echo_sent.saturating_sub(sum(&ls.echo_sent)),
        echo_answered: t.echo_answered.saturating_sub(sum(&ls.echo_answered)),
        echo_lost: t.echo_lost.saturating_sub(sum(&ls.echo_lost)),
    }
}

fn keepalive(o: &Outcome, h: &Hist) -> KeepaliveLoad {
    let s = &o.digest.sums.keepalive;
    let mut k = KeepaliveLoad {
        every_ms: o.cfg.echo_every_ms,
        sent: s.sent,
        answered: s.answered,
        lost: s.lost,
        late: s.late,
        in_flight_at_stop: s.in_flight_at_stop,
        ..Default::default()
    };
    k.loss_ratio = if k.sent == 0 { 0.0 } else { k.lost as f64 / k.sent as f64 };
    let s = h.summary();
    (k.p50_us, k.p99_us, k.p99_9_us) = (s.p50_us, s.p99_us, s.p99_9_us);
    k
}

/// One line when the switches did not send what the schedule offered.
pub fn warning(l: &Load) -> Option<String> {
    (!l.sender_kept_up).then(|| {
        let last = l.loops.backlog.last().copied().unwrap_or(0);
        format!(
            "the engine fell behind its schedule: offered {} requests in the measured loops, sent {} ({} still due at the end): \
             the rates are the engine's, not the controller's (fewer switches per worker, more cores, or a lower --rate)",
            l.offered, l.sent, last
        )
    })
}
