//! `sdnbench-engine merge FILE... [--json OUT]`: one result from the results of the parts of one
//! run, collected by hand (Kubernetes pods without a coordinator, `--agents k8s:N@none`; or any
//! results of disjoint slices of the same run). docs/scale-out.md.
//!
//! Each file is rebuilt into what its agent would have reported (its Ready, its loops, one
//! report: switches and HDR histogram) and the coordinator's own export (`export::build`) makes
//! the merged result, so it is merged exactly as a live run over agents: counters summed per
//! switch, histograms added (merged percentiles are those of all samples). Checked before:
//! every file is an engine result of the same run (params equal but for machine-local fields;
//! otherwise one line naming the field), no switch is in two files. Checked after, against
//! `agent_merge::merge` of the files' own totals and histograms: every merged total is the sum
//! of the parts' and the merged histogram is the parts' added. Switches of the run in no file
//! make the result `partial`, named.
//!
//! The `load` section (fixed-rate and keep-alive runs, issue 42) is rebuilt from the parts'
//! per-loop columns: every count is summed per loop (offered, sent, answered, late, lost, not
//! sent, backlog, echoes), so those are exact. A result keeps per-loop latency only as
//! percentiles, not histograms, and percentiles do not add: merged from several parts, the
//! per-loop p50/p99/p99.9 and the keep-alive's are 0 and a warning says so (each part's own
//! are in its file); from one part they are its own.

use crate::config::{Config, Slice};
use crate::coordinator::{LoopTotal, Outcome};
use crate::distributed::agent_merge::{merge as merge_counters, AgentResult};
use crate::distributed::agent_state::{self, AgentState};
use crate::export::EngineResult;
use crate::result::load::LoadLoops;
use crate::result::{AgentFacts, SwitchReport, SCHEMA};
use crate::switch::load::LoopLoad;
use crate::switch::protocol::{Ready, WorkerReport};
use serde_json::Value;
use std::collections::BTreeMap;

/// Params that may differ between the parts of one run (each machine's own).
const LOCAL: [&str; 4] = ["source_addrs", "workers", "controller_pid", "net_peers"];

/// sdnbench-engine merge: one result from the results of the parts of one run
#[derive(clap::Parser, Debug)]
#[command(name = "sdnbench-engine merge", version)]
pub struct Flags {
    /// The parts' results (engine result JSON files of disjoint slices of one run)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Write the merged result to this file (default: one line on stdout)
    #[arg(long, value_name = "OUT")]
    pub json: Option<std::path::PathBuf>,
}

/// `merge FILE... [--json OUT]` (`--json` checked writable by the caller): 0 merged `ok`, 2
/// merged but not `ok`, 1 refused (one line).
pub fn main(flags: Flags) -> i32 {
    let run = || -> Result<EngineResult, String> {
        let docs = flags.files.iter().map(|f| Ok((f.clone(), read(f)?))).collect::<Result<Vec<_>, String>>()?;
        merge(&docs)
    };
    let mut doc = match run() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("sdnbench-engine {e}");
            return 1;
        }
    };
    match &flags.json {
        Some(p) => {
            if let Err(e) = crate::export::write(p, &mut doc) {
                eprintln!("sdnbench-engine merge: --json {}: cannot write ({e})", p.display());
                return 1;
            }
        }
        None => crate::exit::line(crate::export::line(&doc)),
    }
    if let Some(e) = &doc.error {
        eprintln!("sdnbench-engine merge: {e}");
    }
    if doc.status == "ok" {
        0
    } else {
        2
    }
}

/// One file as a result: JSON, of this schema, of these types (one line otherwise).
fn read(f: &str) -> Result<EngineResult, String> {
    let text = std::fs::read_to_string(f).map_err(|e| format!("merge: cannot read {f}: {e}"))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("merge: {f}: not JSON: {e}"))?;
    if v["schema"] != SCHEMA {
        return Err(format!("merge: {f}: not an engine result (schema {SCHEMA} expected)"));
    }
    let mut r: EngineResult = serde_json::from_value(v).map_err(|e| format!("merge: {f}: not a well-formed engine result: {e}"))?;
    // the records beside it (`export/columnar.rs`), back in the result
    if let Some(sf) = r.switches_file.take() {
        let p = std::path::Path::new(f).with_file_name(&sf.name);
        r.switches = crate::export::read_switches(&p).map_err(|e| format!("merge: {f}: its per-switch records: {e}"))?;
    }
    Ok(r)
}

/// Merge the named results; errors are one line.
pub(crate) fn merge(docs: &[(String, EngineResult)]) -> Result<EngineResult, String> {
    let cfg = same_run(docs)?;
    let mut o = outcome(cfg.clone(), docs.len() as u32);
    let mut owner: BTreeMap<u32, &str> = BTreeMap::new();
    let mut agents = Vec::new();
    for (i, (f, d)) in docs.iter().enumerate() {
        let part = Part::read(f, d, i as u32);
        for s in &part.report.switches {
            if let Some(other) = owner.insert(s.index, f) {
                return Err(format!("merge: switch {} is in both {other} and {f}: the files are not disjoint parts of one run", s.index));
            }
        }
        agents.push(part.add_to(&mut o));
    }
    o.part_switches = owner.len() as u32;
    let went = !o.loops.is_empty();
    o.reports.sort_by_key(|r| r.worker);
    o.agents = agent_state::section(&agents, &o.reports, &o.digest);
    crate::coordinator::judge(&mut o, went);
    let missing = cfg.switches.saturating_sub(owner.len() as u32);
    if missing > 0 {
        let first = (0..cfg.switches).find(|i| !owner.contains_key(i)).unwrap_or(0);
        let line = format!("{missing} of the run's {} switches are in no file (the first: switch {first})", cfg.switches);
        o.error = Some(o.error.take().map_or(line.clone(), |e| format!("{line}; {e}")));
        if o.status == "ok" {
            o.status = "partial";
        }
    }
    o.warnings = crate::coordinator::figures::warnings(&o);
    o.finished_unix = docs.iter().map(|(_, d)| d.finished_unix).fold(0.0, f64::max);
    let mut doc = crate::export::build(o);
    check_sums(docs, &doc)?;
    load_latency(docs, &mut doc);
    Ok(EngineResult { merged_from: Some(docs.iter().map(|(f, _)| f.clone()).collect()), ..doc })
}

/// Every file an engine result of the same run: the run's params (machine-local fields aside).
fn same_run(docs: &[(String, EngineResult)]) -> Result<Config, String> {
    let mut first: Option<(&str, serde_json::Map<String, Value>)> = None;
    for (f, d) in docs {
        let Ok(Value::Object(mut p)) = serde_json::to_value(&d.params) else { return Err(format!("merge: {f}: no params")) };
        LOCAL.iter().for_each(|k| drop(p.remove(*k)));
        p.remove("agents");
        if d.network.is_some() || d.robustness.is_some() {
            return Err(format!("merge: {f}: network and robustness results are not merged (their parts are not independent)"));
        }
        match &first {
            None => first = Some((f, p)),
            Some((f0, p0)) => {
                if let Some(k) = p0.keys().chain(p.keys()).find(|k| p0.get(*k) != p.get(*k)) {
                    let show = |v: Option<&Value>| v.map_or("absent".into(), |v| v.to_string());
                    return Err(format!(
                        "merge: {f}: params.{k} is {} but {} in {f0}: not parts of one run",
                        show(p.get(k)),
                        show(p0.get(k))
                    ));
                }
            }
        }
    }
    let (_, p) = first.ok_or("merge: no files")?;
    serde_json::from_value(Value::Object(p)).map_err(|e| format!("merge: params: {e}"))
}

fn outcome(cfg: Config, parts: u32) -> Outcome {
    Outcome::new(cfg, crate::config::limits::Plan { workers: parts, source_addrs: vec![], notes: vec![] }, 0.0, (0, 0), 0)
}

/// One file as its agent would have reported it.
struct Part {
    name: String,
    ready: Ready,
    loops: Vec<LoopTotal>,
    report: WorkerReport,
    started_unix: f64,
}

impl Part {
    fn read(f: &str, d: &EngineResult, i: u32) -> Part {
        let switches: Vec<SwitchReport> = d.switches.iter().map(|s| SwitchReport { worker: i, ..s.clone() }).collect();
        let hs = &d.handshake;
        let ln = &d.learning;
        let learning =
            crate::switch::learning::Drain { sent: ln.requests, replies: ln.replies, duration_s: ln.duration_s, ended: ln.ended.clone() };
        let ready = Ready {
            worker: i,
            up: hs.sessions_up,
            failed: (switches.len() as u32).saturating_sub(hs.sessions_up),
            handshake_s: hs.duration_s,
            failures: hs.failures.iter().map(|x| (x.reason.clone(), x.count)).collect(),
            learning,
            ..Default::default()
        };
        let l = &d.loops;
        let loops = (0..l.k.len())
            .map(|j| {
                let mut t = LoopTotal::default();
                let at = |c: &[u64]| c.get(j).copied().unwrap_or(0);
                (t.k, t.t_s) = (l.k[j], l.t_s.get(j).copied().unwrap_or(0.0));
                (t.answered, t.sent, t.lost) = (at(&l.answered), at(&l.sent), at(&l.lost_cumulative));
                t.up = l.sessions_up.get(j).copied().unwrap_or(0);
                t.load = d.load.as_ref().map(|ld| loop_load(&ld.loops, j));
                t
            })
            .collect();
        let e = &d.engine;
        let agent = AgentFacts {
            workers: e.workers,
            nofile_hard: e.nofile_hard,
            source_addrs: e.source_addrs.clone(),
            rss_bytes_peak: d.resources.processes.iter().map(|p| p.rss_bytes.iter().copied().max().unwrap_or(0)).sum(),
            status: d.status.clone(),
            error: d.error.clone(),
        };
        let report = WorkerReport {
            worker: i,
            pid: e.pid,
            switches,
            hist_b64: d.latency.hdr_v2_base64.clone(),
            hist_clamped: d.latency.clamped,
            capacity: d.capacity.clone(),
            agent: Some(agent),
            ..Default::default()
        };
        let name = d.agent_index.map_or_else(|| f.to_string(), |x| format!("pod:{x}"));
        Part { name, ready, loops, report, started_unix: d.started_unix }
    }

    /// Add this part to the merged outcome; its agent's state (its name and slice) back.
    fn add_to(self, o: &mut Outcome) -> AgentState {
        let (lo, hi) = self.report.switches.iter().fold((u32::MAX, 0), |(lo, hi), s| (lo.min(s.index), hi.max(s.index + 1)));
        let slice = Slice { worker: self.report.worker, lo: lo.min(hi), hi };
        let mut a = AgentState::default();
        (a.name, a.slice) = (self.name, slice);
        for l in self.loops {
            match o.loops.iter_mut().find(|m| m.k == l.k) {
                Some(m) => {
                    m.answered += l.answered;
                    m.sent += l.sent;
                    m.lost += l.lost;
                    m.up += l.up;
                    m.t_s = m.t_s.max(l.t_s);
                    if let Some(b) = l.load {
                        match m.load.as_mut() {
                            Some(a) => a.add(&b),
                            None => m.load = Some(b),
                        }
                    }
                }
                None => o.loops.push(l),
            }
        }
        o.loops.sort_by_key(|l| l.k);
        o.started_unix = if o.started_unix == 0.0 { self.started_unix } else { o.started_unix.min(self.started_unix) };
        o.ready.push(self.ready);
        o.add_report(self.report, &mut crate::coordinator::Keep);
        a
    }
}

/// Loop `j` of a part's load columns as its agent would have sent it: the counts, and no
/// histogram (a result keeps percentiles only).
fn loop_load(l: &LoadLoops, j: usize) -> LoopLoad {
    let at = |c: &[u64]| c.get(j).copied().unwrap_or(0);
    LoopLoad {
        offered: at(&l.offered),
        late: at(&l.late),
        not_sent_disconnected: at(&l.not_sent_disconnected),
        backlog: at(&l.backlog),
        echo_sent: at(&l.echo_sent),
        echo_answered: at(&l.echo_answered),
        echo_lost: at(&l.echo_lost),
        hist_b64: String::new(),
        echo_hist_b64: String::new(),
        trace: crate::switch::trace::LoopTrace {
            turns: at(&l.trace.turns),
            timer_turns: at(&l.trace.timer_turns),
            timer_lag_max_us: at(&l.trace.timer_lag_max_us),
            write_blocked: at(&l.trace.write_blocked),
            read_capped: at(&l.trace.read_capped),
        },
    }
}

/// The load section's latency percentiles: one part's are its own; of several parts they do not
/// add (0, and a warning naming them).
fn load_latency(docs: &[(String, EngineResult)], doc: &mut EngineResult) {
    let parts: Vec<&crate::result::load::Load> = docs.iter().filter_map(|(_, d)| d.load.as_ref()).collect();
    let Some(load) = doc.load.as_mut() else { return };
    if let [one] = parts[..] {
        (load.loops.p50_us, load.loops.p99_us, load.loops.p99_9_us) =
            (one.loops.p50_us.clone(), one.loops.p99_us.clone(), one.loops.p99_9_us.clone());
        let k = &one.keepalive;
        (load.keepalive.p50_us, load.keepalive.p99_us, load.keepalive.p99_9_us) = (k.p50_us, k.p99_us, k.p99_9_us);
        return;
    }
    doc.warnings.push(format!(
        "load: the per-loop latency percentiles and the keep-alive's are not merged (0 here): the {} parts' results keep \
         percentiles, not histograms, and percentiles do not add; each part's own are in its file (the counts are exact)",
        parts.len()
    ));
}

/// The integer counters of `totals` by name (what `agent_merge::merge` sums).
fn counters(d: &EngineResult) -> BTreeMap<String, u64> {
    let Ok(Value::Object(t)) = serde_json::to_value(&d.totals) else { return BTreeMap::new() };
    t.into_iter().filter_map(|(k, v)| v.as_u64().map(|n| (k, n))).collect()
}

/// The merged totals and histogram against `agent_merge::merge` of the files' own: equal, or an
/// internal error (a broken invariant, not bad input).
fn check_sums(docs: &[(String, EngineResult)], merged: &EngineResult) -> Result<(), String> {
    let parts: Vec<AgentResult> = docs
        .iter()
        .map(|(f, d)| AgentResult { agent: f.clone(), counters: counters(d), hist_b64: d.latency.hdr_v2_base64.clone() })
        .collect();
    let names: Vec<String> = docs.iter().map(|(f, _)| f.clone()).collect();
    let sum = merge_counters(&names, &parts)?;
    let got = counters(merged);
    for (k, v) in &sum.counters {
        if got.get(k) != Some(v) {
            return Err(format!("merge: invariant broken: merged totals.{k} = {:?}, the files' sum = {v}", got.get(k)));
        }
    }
    if merged.latency.count != sum.hist.count() {
        return Err(format!(
            "merge: invariant broken: merged latency count {}, the files' histograms hold {}",
            merged.latency.count,
            sum.hist.count()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hist::Hist;

    fn doc(loop_ms: u64) -> EngineResult {
        EngineResult { schema: SCHEMA.into(), params: Config { loop_ms, ..Config::default() }, ..Default::default() }
    }

    #[test]
    fn parts_of_another_run_are_refused_naming_the_field() {
        let e = same_run(&[("a.json".into(), doc(500)), ("b.json".into(), doc(1000))]).unwrap_err();
        assert_eq!(e, "merge: b.json: params.loop_ms is 1000 but 500 in a.json: not parts of one run");
        let mut local = doc(500);
        local.params.source_addrs = vec!["10.0.0.2".into()];
        local.params.workers = Some(3);
        assert_eq!(same_run(&[("a".into(), doc(500)), ("b".into(), local)]).unwrap().loop_ms, 500, "machine-local fields may differ");
        let net = EngineResult { network: Some(Default::default()), ..doc(500) };
        assert!(same_run(&[("n.json".into(), net)]).unwrap_err().contains("network and robustness results are not merged"));
    }

    /// The pods' own results of `tests/golden/` merged as the engine merged them at 825aa58,
    /// byte for byte but for the merging process's pid.
    #[test]
    fn golden_pods_merge_into_the_golden_merge() {
        let dir = crate::export::tests::golden("");
        let docs: Vec<(String, EngineResult)> = (0..3)
            .map(|i| {
                let f = format!("pod{i}.json");
                (f.clone(), read(dir.join(&f).to_str().unwrap()).unwrap())
            })
            .collect();
        let mut merged = merge(&docs).unwrap();
        let old = std::fs::read_to_string(dir.join("merged.json")).unwrap();
        let old_pid: serde_json::Value = serde_json::from_str::<Value>(&old).unwrap()["engine"]["pid"].clone();
        merged.engine.pid = old_pid.as_u64().unwrap() as u32;
        let new = serde_json::to_string_pretty(&crate::export::to_value(&merged)).unwrap();
        assert_eq!(new, old.trim_end());
        assert_eq!(merged.merged_from.as_deref(), Some(&["pod0.json".to_string(), "pod1.json".into(), "pod2.json".into()][..]));
    }

    /// One agent's result of a 2-switch fixed-rate run of 2 loops, made by hand: its switch, its
    /// loops (`answered`, `sent`, `lost_cumulative`) and the load columns they go with.
    fn fixed_rate_part(switch: u32, cols: [[u64; 2]; 9], p50: [f64; 2]) -> EngineResult {
        let [offered, sent, answered, late, lost_cumulative, backlog, echo_sent, echo_answered, echo_lost] = cols.map(|c| c.to_vec());
        let mut d = doc(500);
        (d.params.mode, d.params.switches, d.params.loops, d.params.warmup, d.params.rate) =
            (crate::config::Mode::FixedRate, 2, 2, 0, 60.0);
        d.latency.hdr_v2_base64 = Hist::with_sigfig(3).to_base64();
        d.switches = vec![SwitchReport { index: switch, dpid: switch as u64 + 1, ..Default::default() }];
        let lost = vec![lost_cumulative[0], lost_cumulative[1] - lost_cumulative[0]];
        d.loops = crate::result::Loops {
            k: vec![1, 2],
            t_s: vec![0.5, 1.0],
            answered: answered.clone(),
            sent: sent.clone(),
            lost_cumulative,
            sessions_up: vec![1, 1],
            ..Default::default()
        };
        let loops = LoadLoops {
            k: vec![1, 2],
            offered,
            sent: sent.clone(),
            answered,
            late,
            lost,
            not_sent_disconnected: vec![0, 0],
            backlog,
            p50_us: p50.to_vec(),
            p99_us: p50.map(|p| p * 2.0).to_vec(),
            p99_9_us: p50.map(|p| p * 3.0).to_vec(),
            echo_sent,
            echo_answered,
            echo_lost,
            // turns as many as sent; the timer lag 10 µs × (switch + 1) in the first loop
            trace: crate::result::load::TraceLoops {
                turns: sent,
                timer_lag_max_us: vec![10 * (u64::from(switch) + 1), 5],
                ..Default::default()
            },
        };
        d.load = Some(crate::result::load::Load { offered_per_s: 60.0, loops, ..Default::default() });
        d
    }

    /// Issue 42: `merge` rebuilds the load section from the parts' per-loop columns, each count
    /// the parts' sum per loop; percentiles, which do not add, are said not merged (and one
    /// part's kept as they are).
    #[test]
    fn the_load_section_is_rebuilt_from_two_parts_loops() {
        //                          offered   sent     answered late    lost_cum backlog  echo_sent echo_ans echo_lost
        let a = fixed_rate_part(0, [[10, 10], [10, 9], [9, 8], [0, 1], [1, 2], [0, 1], [2, 2], [2, 1], [0, 1]], [100.0, 200.0]);
        let b = fixed_rate_part(1, [[20, 20], [20, 20], [20, 19], [0, 0], [0, 1], [0, 0], [3, 3], [3, 3], [0, 0]], [50.0, 60.0]);
        let m = merge(&[("a.json".into(), a.clone()), ("b.json".into(), b)]).unwrap();
        let l = m.load.as_ref().expect("a load section");
        let c = &l.loops;
        assert_eq!(c.k, [1, 2]);
        assert_eq!((c.offered.clone(), c.sent.clone(), c.answered.clone()), (vec![30, 30], vec![30, 29], vec![29, 27]));
        // a loop's lost is every time-out in it: the change of the parts' net lost (1, then 2 + 1 = 3)
        // plus the loop's late answers (0, then 1)
        assert_eq!((c.late.clone(), c.lost.clone(), c.backlog.clone()), (vec![0, 1], vec![1, 3], vec![0, 1]));
        assert_eq!((c.echo_sent.clone(), c.echo_answered.clone(), c.echo_lost.clone()), (vec![5, 5], vec![5, 4], vec![0, 1]));
        // the trace: turns add, the timer lag is the largest part's
        assert_eq!((c.trace.turns.clone(), c.trace.timer_lag_max_us.clone()), (vec![30, 29], vec![20, 5]));
        assert_eq!((l.offered, l.sent, l.offered_per_s, l.sender_kept_up), (60, 59, 60.0, true));
        assert_eq!((c.p50_us.clone(), c.p99_9_us.clone()), (vec![0.0, 0.0], vec![0.0, 0.0]), "percentiles do not add");
        assert!(
            m.warnings.iter().any(|w| w.starts_with("load: the per-loop latency percentiles") && w.contains("2 parts")),
            "{:?}",
            m.warnings
        );
        // one part: its own percentiles, no warning about them
        let one = merge(&[("a.json".into(), a)]).unwrap();
        let c = &one.load.as_ref().unwrap().loops;
        assert_eq!((c.offered.clone(), c.p50_us.clone(), c.p99_us.clone()), (vec![10, 10], vec![100.0, 200.0], vec![200.0, 400.0]));
        assert!(!one.warnings.iter().any(|w| w.starts_with("load:")), "{:?}", one.warnings);
    }

    #[test]
    fn a_file_of_another_schema_is_refused_in_one_line() {
        let p = std::env::temp_dir().join(format!("sdnbench-merge-schema-{}.json", std::process::id()));
        std::fs::write(&p, r#"{"schema": "something/1"}"#).unwrap();
        let e = read(p.to_str().unwrap()).unwrap_err();
        std::fs::write(&p, format!(r#"{{"schema": "{SCHEMA}", "status": "ok"}}"#)).unwrap();
        let malformed = read(p.to_str().unwrap()).unwrap_err();
        let _ = std::fs::remove_file(&p);
        assert!(e.ends_with("not an engine result (schema sdnbench.engine/1 expected)"), "{e}");
        assert!(malformed.contains("not a well-formed engine result: missing field"), "{malformed}");
    }
}
