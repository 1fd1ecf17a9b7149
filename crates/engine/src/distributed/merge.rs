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

use crate::config::{Config, Slice};
use crate::coordinator::agent_link::AgentState;
use crate::coordinator::{LoopTotal, Outcome};
use crate::distributed::agent_merge::{merge as merge_counters, AgentResult};
use crate::switch::protocol::{AgentFacts, Ready, SwitchReport, WorkerReport};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Params that may differ between the parts of one run (each machine's own).
const LOCAL: [&str; 4] = ["source_addrs", "workers", "controller_pid", "net_peers"];

/// `merge FILE... [--json OUT]`: 0 merged `ok`, 2 merged but not `ok`, 1 refused (one line).
pub fn main(args: Vec<String>) -> i32 {
    let (mut files, mut out) = (Vec::new(), None);
    let usage = || {
        eprintln!("usage: sdnbench-engine merge FILE... [--json OUT]");
        1
    };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--json" {
            match it.next() {
                Some(p) => out = Some(p),
                None => return usage(),
            }
        } else if a.starts_with('-') {
            return usage();
        } else {
            files.push(a);
        }
    }
    let run = || -> Result<Value, String> {
        if files.is_empty() {
            return Err("merge: no files (usage: sdnbench-engine merge FILE... [--json OUT])".into());
        }
        let docs = files
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(f).map_err(|e| format!("merge: cannot read {f}: {e}"))?;
                let v = serde_json::from_str(&text).map_err(|e| format!("merge: {f}: not JSON: {e}"))?;
                Ok((f.clone(), v))
            })
            .collect::<Result<Vec<_>, String>>()?;
        merge(&docs)
    };
    let doc = match run() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("sdnbench-engine {e}");
            return 1;
        }
    };
    match &out {
        Some(p) => {
            if let Err(e) = crate::export::write(std::path::Path::new(p), &doc) {
                eprintln!("sdnbench-engine merge: cannot write {p}: {e}");
                return 1;
            }
        }
        None => println!("{doc}"),
    }
    if let Some(e) = doc["error"].as_str() {
        eprintln!("sdnbench-engine merge: {e}");
    }
    if doc["status"] == "ok" {
        0
    } else {
        2
    }
}

/// Merge the named result documents; errors are one line.
pub(crate) fn merge(docs: &[(String, Value)]) -> Result<Value, String> {
    let cfg = same_run(docs)?;
    let mut o = outcome(cfg.clone(), docs.len() as u32);
    let mut owner: BTreeMap<u32, &str> = BTreeMap::new();
    for (i, (f, d)) in docs.iter().enumerate() {
        let part = Part::read(f, d, i as u32)?;
        for s in &part.report.switches {
            if let Some(other) = owner.insert(s.index, f) {
                return Err(format!("merge: switch {} is in both {other} and {f}: the files are not disjoint parts of one run", s.index));
            }
        }
        part.add_to(&mut o);
    }
    o.part_switches = owner.len() as u32;
    let went = !o.loops.is_empty();
    o.reports.sort_by_key(|r| r.worker);
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
    o.finished_unix = docs.iter().filter_map(|(_, d)| d["finished_unix"].as_f64()).fold(0.0, f64::max);
    let mut doc = crate::export::build(&o);
    check_sums(docs, &doc)?;
    doc["merged_from"] = json!(docs.iter().map(|(f, _)| f).collect::<Vec<_>>());
    Ok(doc)
}

/// Every file an engine result of the same run: the run's params (machine-local fields aside).
fn same_run(docs: &[(String, Value)]) -> Result<Config, String> {
    let mut first: Option<(&str, serde_json::Map<String, Value>)> = None;
    for (f, d) in docs {
        if d["schema"] != crate::export::SCHEMA {
            return Err(format!("merge: {f}: not an engine result (schema {} expected)", crate::export::SCHEMA));
        }
        let mut p = d["params"].as_object().cloned().ok_or_else(|| format!("merge: {f}: no params"))?;
        LOCAL.iter().for_each(|k| drop(p.remove(*k)));
        p.remove("agents");
        if !d["network"].is_null() || !d["robustness"].is_null() {
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
    Outcome {
        plan: crate::config::limits::Plan { workers: parts, source_addrs: vec![], notes: vec![] },
        ready: vec![],
        loops: vec![],
        reports: vec![],
        sampler: crate::coordinator::resources::Sampler::new(vec![], 0.0),
        status: "ok",
        error: None,
        warnings: vec![],
        started_unix: 0.0,
        finished_unix: 0.0,
        nofile: (0, 0),
        robustness: None,
        agents: vec![],
        part_switches: 0,
        cfg,
    }
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
    fn read(f: &str, d: &Value, i: u32) -> Result<Part, String> {
        let bad = |what: &str| format!("merge: {f}: {what} missing or malformed");
        let u = |v: &Value| v.as_u64().unwrap_or(0);
        let switches: Vec<SwitchReport> = serde_json::from_value(d["switches"].clone()).map_err(|_| bad("switches"))?;
        let switches: Vec<SwitchReport> = switches.into_iter().map(|s| SwitchReport { worker: i, ..s }).collect();
        let hs = &d["handshake"];
        let failures = hs["failures"].as_array().ok_or_else(|| bad("handshake.failures"))?;
        let failures: BTreeMap<String, u32> =
            failures.iter().map(|x| (x["reason"].as_str().unwrap_or("").to_string(), u(&x["count"]) as u32)).collect();
        let ln = &d["learning"];
        let learning = crate::switch::learning::Drain {
            sent: u(&ln["requests"]),
            replies: u(&ln["replies"]),
            duration_s: ln["duration_s"].as_f64().unwrap_or(0.0),
            ended: ln["ended"].as_str().unwrap_or("").into(),
        };
        let up = u(&hs["sessions_up"]) as u32;
        let ready = Ready {
            worker: i,
            up,
            failed: (switches.len() as u32).saturating_sub(up),
            handshake_s: hs["duration_s"].as_f64().unwrap_or(0.0),
            failures,
            learning,
            ..Default::default()
        };
        let l = &d["loops"];
        let col = |k: &str| l[k].as_array().cloned().unwrap_or_default();
        let (k, t, ans, sent, lost, ups) = (col("k"), col("t_s"), col("answered"), col("sent"), col("lost_cumulative"), col("sessions_up"));
        let loops = (0..k.len())
            .map(|j| {
                let mut l = LoopTotal::default();
                (l.k, l.t_s) = (u(&k[j]) as u32, t[j].as_f64().unwrap_or(0.0));
                (l.answered, l.sent, l.lost, l.up) = (u(&ans[j]), u(&sent[j]), u(&lost[j]), u(&ups[j]) as u32);
                l
            })
            .collect();
        let lat = &d["latency"];
        let capacity =
            if d["capacity"].is_null() { None } else { Some(serde_json::from_value(d["capacity"].clone()).map_err(|_| bad("capacity"))?) };
        let e = &d["engine"];
        let rss = d["resources"]["processes"]
            .as_array()
            .map_or(0, |ps| ps.iter().map(|p| p["rss_bytes"].as_array().map_or(0, |r| r.iter().map(u).max().unwrap_or(0))).sum());
        let agent = AgentFacts {
            workers: u(&e["workers"]) as u32,
            nofile_hard: u(&e["nofile_hard"]),
            source_addrs: serde_json::from_value(e["source_addrs"].clone()).unwrap_or_default(),
            rss_bytes_peak: rss,
            status: d["status"].as_str().unwrap_or("").into(),
            error: d["error"].as_str().map(String::from),
        };
        let report = WorkerReport {
            worker: i,
            pid: u(&e["pid"]) as u32,
            switches,
            hist_b64: lat["hdr_v2_base64"].as_str().ok_or_else(|| bad("latency.hdr_v2_base64"))?.into(),
            hist_clamped: u(&lat["clamped"]),
            capacity,
            agent: Some(agent),
            ..Default::default()
        };
        let name = d["agent_index"].as_u64().map_or_else(|| f.to_string(), |x| format!("pod:{x}"));
        Ok(Part { name, ready, loops, report, started_unix: d["started_unix"].as_f64().unwrap_or(0.0) })
    }

    fn add_to(self, o: &mut Outcome) {
        let (lo, hi) = self.report.switches.iter().fold((u32::MAX, 0), |(lo, hi), s| (lo.min(s.index), hi.max(s.index + 1)));
        let slice = Slice { worker: self.report.worker, lo: lo.min(hi), hi };
        let mut a = AgentState::default();
        (a.name, a.slice) = (self.name, slice);
        o.agents.push(a);
        for l in self.loops {
            match o.loops.iter_mut().find(|m| m.k == l.k) {
                Some(m) => {
                    m.answered += l.answered;
                    m.sent += l.sent;
                    m.lost += l.lost;
                    m.up += l.up;
                    m.t_s = m.t_s.max(l.t_s);
                }
                None => o.loops.push(l),
            }
        }
        o.loops.sort_by_key(|l| l.k);
        o.started_unix = if o.started_unix == 0.0 { self.started_unix } else { o.started_unix.min(self.started_unix) };
        o.ready.push(self.ready);
        o.reports.push(self.report);
    }
}

/// The merged totals and histogram against `agent_merge::merge` of the files' own: equal, or an
/// internal error (a broken invariant, not bad input).
fn check_sums(docs: &[(String, Value)], merged: &Value) -> Result<(), String> {
    let counters = |d: &Value| -> BTreeMap<String, u64> {
        let t = d["totals"].as_object().cloned().unwrap_or_default();
        t.into_iter().filter_map(|(k, v)| v.as_u64().map(|n| (k, n))).collect()
    };
    let parts: Vec<AgentResult> = docs
        .iter()
        .map(|(f, d)| AgentResult {
            agent: f.clone(),
            counters: counters(d),
            hist_b64: d["latency"]["hdr_v2_base64"].as_str().unwrap_or("").into(),
        })
        .collect();
    let names: Vec<String> = docs.iter().map(|(f, _)| f.clone()).collect();
    let sum = merge_counters(&names, &parts)?;
    let got = counters(merged);
    for (k, v) in &sum.counters {
        if got.get(k) != Some(v) {
            return Err(format!("merge: invariant broken: merged totals.{k} = {:?}, the files' sum = {v}", got.get(k)));
        }
    }
    let count = merged["latency"]["count"].as_u64().unwrap_or(0);
    if count != sum.hist.count() {
        return Err(format!("merge: invariant broken: merged latency count {count}, the files' histograms hold {}", sum.hist.count()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(loop_ms: u64) -> Value {
        let params = serde_json::to_value(Config { loop_ms, ..Config::default() }).unwrap();
        json!({"schema": crate::export::SCHEMA, "params": params, "network": null, "robustness": null})
    }

    #[test]
    fn parts_of_another_run_are_refused_naming_the_field() {
        let e = same_run(&[("a.json".into(), doc(500)), ("b.json".into(), doc(1000))]).unwrap_err();
        assert_eq!(e, "merge: b.json: params.loop_ms is 1000 but 500 in a.json: not parts of one run");
        let mut local = doc(500);
        local["params"]["source_addrs"] = json!(["10.0.0.2"]);
        local["params"]["workers"] = json!(3);
        assert_eq!(same_run(&[("a".into(), doc(500)), ("b".into(), local)]).unwrap().loop_ms, 500, "machine-local fields may differ");
        let mut other = doc(500);
        other["schema"] = json!("something/1");
        assert!(same_run(&[("x.json".into(), other)]).unwrap_err().starts_with("merge: x.json: not an engine result"));
        let mut net = doc(500);
        net["network"] = json!({});
        assert!(same_run(&[("n.json".into(), net)]).unwrap_err().contains("network and robustness results are not merged"));
    }
}
