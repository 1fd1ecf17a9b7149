//! The load section (issue 42): a fixed-rate run's account per loop (offered, sent, answered,
//! late, lost, the sender's backlog, latency percentiles) and the periodic keep-alive's echoes,
//! so a sender that fell behind reads as offered > sent, never as a lower rate of the controller.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Fixed-rate and keep-alive runs (`params.mode` fixed-rate, or `params.echo_every_ms` > 0).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Load {
    /// The offered rate over all switches (`params.rate`; 0 outside fixed-rate mode), requests/s.
    pub offered_per_s: f64,
    /// Per loop (warm-up first), one column per figure; counts are the loop's own.
    pub loops: LoadLoops,
    /// Over the measured loops: requests the schedule had due, and those the switches sent.
    pub offered: u64,
    pub sent: u64,
    /// Whether the switches sent what the schedule offered (sent + not sent while disconnected
    /// within 1% (+10) of offered, and a backlog at the last loop's end of at most 50 ms of the
    /// schedule (+10)). False: the rates are the engine's, not the controller's.
    pub sender_kept_up: bool,
    pub keepalive: KeepaliveLoad,
    /// What happened after the last loop's end (the drain), so that the loops' columns close
    /// (absent in results written before it: all 0).
    #[serde(default)]
    pub after_loops: AfterLoops,
}

/// After the last loop's end, from the switches' totals less the loops' columns (warm-up
/// included). Invariants, over all loops (Σ) and this:
/// `Σ sent + sent = Σ answered + answered + Σ lost + lost + in_flight_at_stop` (fixed-rate runs
/// discard nothing), and every late answer is of a request counted lost before it
/// (`Σ late + late ≤ Σ lost + lost`); the same for the echoes
/// (`Σ echo_sent + echo_sent = Σ echo_answered + echo_answered + Σ echo_lost + echo_lost +
/// keepalive.in_flight_at_stop`). At 5,000 requests/s and a 4 ms median, about 20 requests are
/// in flight at the last loop's end: their answers are here, in no loop.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AfterLoops {
    pub sent: u64,
    pub answered: u64,
    pub late: u64,
    pub lost: u64,
    /// Requests still unanswered, and within their timeout, when the run stopped.
    pub in_flight_at_stop: u64,
    pub echo_sent: u64,
    pub echo_answered: u64,
    pub echo_lost: u64,
}

/// Per loop, one column per figure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LoadLoops {
    pub k: Vec<u32>,
    /// Requests due in the loop by the schedule.
    pub offered: Vec<u64>,
    pub sent: Vec<u64>,
    pub answered: Vec<u64>,
    /// Answers that came in the loop after their request's loss timeout.
    pub late: Vec<u64>,
    /// Requests that timed out in the loop (or were in flight when their session ended),
    /// whether an answer came later (then also `late`, in its own loop) or never.
    pub lost: Vec<u64>,
    /// Due in the loop while the switch had no session (never sent).
    pub not_sent_disconnected: Vec<u64>,
    /// At the loop's end: requests due and not yet sent (the sender's lag).
    pub backlog: Vec<u64>,
    /// Latency of the requests answered in the loop, µs (from the scheduled send time); 0: none.
    pub p50_us: Vec<f64>,
    pub p99_us: Vec<f64>,
    pub p99_9_us: Vec<f64>,
    pub echo_sent: Vec<u64>,
    pub echo_answered: Vec<u64>,
    pub echo_lost: Vec<u64>,
    /// Where a backlog sat, per loop (`src/switch/trace.rs`; absent in results written before
    /// it: empty columns).
    #[serde(default)]
    pub trace: TraceLoops,
}

/// Per loop, over all workers: the sessions' turns (wake-ups), those a timer woke, how late the
/// latest timer turn ran after its deadline (µs: the worker's queue of sessions due), the writes
/// a full socket left unfinished (the send queue) and the turns that read their bound of reads
/// with more waiting (the socket's queue of answers).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TraceLoops {
    pub turns: Vec<u64>,
    pub timer_turns: Vec<u64>,
    pub timer_lag_max_us: Vec<u64>,
    pub write_blocked: Vec<u64>,
    pub read_capped: Vec<u64>,
}

/// The periodic keep-alive (`params.echo_every_ms`): totals from the switches' counters;
/// invariant `sent = answered + lost + in_flight_at_stop`, `late ≤ lost`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct KeepaliveLoad {
    pub every_ms: u64,
    pub sent: u64,
    pub answered: u64,
    pub lost: u64,
    pub late: u64,
    pub in_flight_at_stop: u64,
    /// `lost / sent` (0 when none was sent).
    pub loss_ratio: f64,
    /// Round trips of the echoes answered within the loops, µs.
    pub p50_us: f64,
    pub p99_us: f64,
    pub p99_9_us: f64,
}
