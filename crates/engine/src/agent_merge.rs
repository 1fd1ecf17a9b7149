//! Merging the raw results of engine agents (issue 20, step 1): each agent runs a slice of the
//! switches and returns its counters and its HDR latency histogram (base64, HdrHistogram V2, as
//! `hist.rs` writes it). The merged result sums every counter and adds the histograms, so its
//! percentiles are those of all samples together (not an average of percentiles). An agent that
//! did not return a result is named in `missing` and the merge is `partial`.
//! Pure: no I/O; the coordinator that gathers the results is not written yet (see docs/scale-out.md).

use crate::hist::Hist;
use std::collections::BTreeMap;

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
    pub agents: Vec<String>,
    pub missing: Vec<String>,
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
    Ok(Merged { partial: !missing.is_empty(), counters, hist, agents, missing })
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
