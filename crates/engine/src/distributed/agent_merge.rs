//! Merging the raw results of engine agents (issue 20, step 1): each agent runs a slice of the
//! switches and returns its counters and its HDR latency histogram (base64, HdrHistogram V2, as
//! `hist.rs` writes it). The merged result sums every counter and adds the histograms, so its
//! percentiles are those of all samples together (not an average of percentiles). An agent that
//! did not return a result is named in `missing` and the merge is `partial`.
//! Pure: no I/O. An agent (`agent.rs`) merges its own workers into one Ready, one Interval per
//! loop and one report (`ready`, `interval`, `report` below), so to the coordinator it is one
//! worker; the coordinator's export then sums the agents' reports as it sums workers'.

use crate::coordinator::{LoopTotal, Outcome};
use crate::hist::Hist;
use crate::result::{AgentFacts, Capacity, SwitchReport};
use crate::switch::protocol::{Interval, Ready, WorkerReport, PROTOCOL};
use std::collections::BTreeMap;

/// The agent's Ready: its workers' sessions summed, the slowest handshake, failures merged.
pub fn ready(worker: u32, rs: &[Ready]) -> Ready {
    let mut r = Ready { worker, protocol: PROTOCOL.into(), pid: std::process::id(), ..Default::default() };
    for x in rs {
        r.up += x.up;
        r.failed += x.failed;
        r.handshake_s = r.handshake_s.max(x.handshake_s);
        for (k, v) in &x.failures {
            *r.failures.entry(k.clone()).or_insert(0) += v;
        }
        r.learning.sent += x.learning.sent;
        r.learning.replies += x.learning.replies;
        r.learning.duration_s = r.learning.duration_s.max(x.learning.duration_s);
        if r.learning.ended.is_empty() {
            r.learning.ended = x.learning.ended.clone();
        }
    }
    r
}

/// The agent's interval of loop `l.k`: its workers' totals (per switch in switch order).
pub fn interval(worker: u32, l: &LoopTotal) -> Interval {
    Interval {
        worker,
        k: l.k,
        answered: l.answered,
        sent: l.sent,
        lost: l.lost,
        up: l.up,
        per_switch: l.per_switch.clone(),
        responses: l.responses,
        per_switch_responses: l.per_switch_responses.clone(),
        net_connected: l.net_connected,
        net_dirs_seen: l.net_dirs_seen,
        net_links: l.net_links,
        latency_us: l.latency_us.clone(),
        load: l.load.clone(),
    }
}

/// The agent's report: its workers' switches, histograms added, capacity summed, its own facts.
pub fn report(worker: u32, o: &Outcome) -> Result<WorkerReport, String> {
    let mut hist = Hist::with_sigfig(3);
    for r in &o.reports {
        hist.merge(&Hist::from_base64(&r.hist_b64).map_err(|e| format!("worker {}: {e}", r.worker))?);
    }
    let capacity = Capacity::sum(o.reports.iter().filter_map(|r| r.capacity.as_ref()));
    let mut coalesce = crate::switch::coalesce::Report::default();
    for r in &o.reports {
        coalesce.waits += r.coalesce.waits;
        coalesce.waited_ns += r.coalesce.waited_ns;
        coalesce.max_quantum_ns = coalesce.max_quantum_ns.max(r.coalesce.max_quantum_ns);
    }
    let rss_bytes_peak = o.sampler.series.iter().map(|s| s.rss_bytes.iter().copied().max().unwrap_or(0)).sum();
    Ok(WorkerReport {
        worker,
        pid: std::process::id(),
        switches: o.reports.iter().flat_map(|r| r.switches.iter().cloned()).map(|s| SwitchReport { worker, ..s }).collect(),
        hist_b64: hist.to_base64(),
        hist_clamped: o.reports.iter().map(|r| r.hist_clamped).sum(),
        stopped_early: o.reports.iter().any(|r| r.stopped_early),
        capacity,
        // network mode: one worker per agent, so its report is the agent's
        network: if o.reports.len() == 1 { o.reports[0].network.clone() } else { None },
        coalesce,
        agent: Some(AgentFacts {
            workers: o.plan.workers,
            nofile_hard: o.nofile.1,
            source_addrs: o.cfg.source_addrs.clone(),
            rss_bytes_peak,
            status: o.status.into(),
            error: o.error.clone(),
        }),
    })
}

/// What one agent returns.
#[derive(Clone, Debug)]
pub struct AgentResult {
    pub agent: String,
    pub counters: BTreeMap<String, u64>,
    pub hist_b64: String,
}

#[derive(Debug)]
pub struct Merged {
    pub counters: BTreeMap<String, u64>,
    pub hist: Hist,
    /// Agents of `expected` absent from the results, and whether there are any (only the tests
    /// read these today).
    #[cfg_attr(not(test), allow(dead_code))]
    pub missing: Vec<String>,
    #[cfg_attr(not(test), allow(dead_code))]
    pub partial: bool,
}

/// Sum the counters and merge the histograms of the agents that answered; `expected` names every
/// agent started, so those absent from `results` are reported missing. A histogram that does not
/// decode is an error naming its agent.
pub fn merge(expected: &[String], results: &[AgentResult]) -> Result<Merged, String> {
    let mut counters = BTreeMap::new();
    let mut hist = Hist::with_sigfig(3);
    let mut agents = Vec::new();
    for r in results {
        for (k, v) in &r.counters {
            *counters.entry(k.clone()).or_insert(0u64) += v;
        }
        let h = Hist::from_base64(&r.hist_b64).map_err(|e| format!("agent {}: {e}", r.agent))?;
        hist.merge(&h);
        agents.push(r.agent.clone());
    }
    let missing: Vec<String> = expected.iter().filter(|a| !agents.contains(a)).cloned().collect();
    Ok(Merged { partial: !missing.is_empty(), counters, hist, missing })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(name: &str, sent: u64, answered: u64, lat_us: &[u64]) -> (AgentResult, Vec<u64>) {
        let mut h = Hist::with_sigfig(3);
        for &us in lat_us {
            h.record_ns(us * 1000);
        }
        let counters = [("sent".to_string(), sent), ("answered".to_string(), answered)].into();
        (AgentResult { agent: name.into(), counters, hist_b64: h.to_base64() }, lat_us.to_vec())
    }

    #[test]
    fn merge_equals_one_engine_recording_every_sample() {
        let (a, la) = agent("a", 100, 90, &[100, 200, 300]);
        let (b, lb) = agent("b", 50, 50, &[1000, 2000]);
        let m = merge(&["a".into(), "b".into()], &[a, b]).unwrap();
        assert_eq!(m.counters["sent"], 150);
        assert_eq!(m.counters["answered"], 140);
        assert!(!m.partial);
        let mut single = Hist::with_sigfig(3);
        for us in la.iter().chain(lb.iter()) {
            single.record_ns(us * 1000);
        }
        assert_eq!(m.hist.summary(), single.summary(), "merged percentiles = one histogram of all samples");
        assert_eq!(m.hist.count(), 5);
        let max = m.hist.summary().max_us;
        assert!((max - 2000.0).abs() <= 2.0, "max {max} µs within the 3-digit HDR resolution of 2000");
    }

    #[test]
    fn an_agent_that_did_not_answer_makes_the_result_partial_and_is_named() {
        let (a, _) = agent("a", 10, 10, &[50]);
        let m = merge(&["a".into(), "b".into(), "c".into()], &[a]).unwrap();
        assert!(m.partial);
        assert_eq!(m.missing, vec!["b".to_string(), "c".to_string()]);
        assert_eq!(m.counters["sent"], 10, "the others' results are kept");
    }

    #[test]
    fn a_histogram_that_does_not_decode_names_its_agent() {
        let (mut a, _) = agent("host7", 1, 1, &[5]);
        a.hist_b64 = "!!".into();
        let e = merge(&["host7".into()], &[a]).unwrap_err();
        assert!(e.starts_with("agent host7:"), "{e}");
    }
}
