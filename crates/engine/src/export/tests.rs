//! The result's types against results the engine wrote before they existed, and the checked-in
//! schema against the one they generate.
//!
//! `tests/golden/` holds results written by the engine at 825aa58, whose exporter built the
//! JSON by hand (`json!`); `tests/golden/README.md` says how they were made. Each must read into
//! an [`EngineResult`] and write back the same document: the same keys in the same order, the
//! same nulls, integers and floats where they were.

use super::*;
use crate::result::SCHEMA;
use std::path::PathBuf;

pub(crate) fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

/// Every golden result: (file name, its text).
pub(crate) fn goldens() -> Vec<(String, String)> {
    let mut v: Vec<_> = std::fs::read_dir(golden(""))
        .expect("tests/golden is readable")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn every_golden_result_reads_and_writes_back_unchanged() {
    let all = goldens();
    assert!(all.len() >= 10, "the goldens are there: {}", all.len());
    for (name, text) in all {
        let r: EngineResult = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = serde_json::to_value(&r).unwrap();
        let was: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(back == was, "{name}: the typed result writes a different document");
        // and the same text: key order, integers as integers, floats as floats (serde_json's
        // default parser may round a float's last digit, so both sides are read the same way)
        let text = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap();
        assert!(text(&back) == text(&was), "{name}: not the same text");
    }
}

#[test]
fn the_goldens_cover_every_optional_section() {
    let rs: Vec<EngineResult> = goldens().iter().map(|(_, t)| serde_json::from_str(t).unwrap()).collect();
    assert!(rs.iter().any(|r| r.network.as_ref().is_some_and(|n| n.provisioning.is_some() && n.stream.is_some() && !n.events.is_empty())));
    assert!(rs.iter().any(|r| r.robustness.is_some() && r.loops.latency_us.is_some()));
    assert!(rs.iter().any(|r| r.capacity.is_some()));
    assert!(rs.iter().any(|r| r.agents.iter().any(|a| a.local.is_some() && a.clock_offset_ms.is_some())));
    assert!(rs.iter().any(|r| r.agent_index.is_some()) && rs.iter().any(|r| r.merged_from.is_some()));
    assert!(rs.iter().any(|r| r.status == "failed" && r.error.is_some() && !r.disconnects.is_empty()));
}

#[test]
fn the_checked_in_schema_is_the_generated_one() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/engine-result.schema.json");
    let file = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = serde_json::to_string_pretty(&schema()).unwrap() + "\n";
    assert!(
        file == generated,
        "{} is not what src/result/ generates; regenerate it: \
         cargo run --release -p sdnbench-engine -- schema > crates/engine/schema/engine-result.schema.json",
        path.display()
    );
}

#[test]
fn the_schema_requires_what_is_always_written_and_names_the_version() {
    let s = schema();
    let required: Vec<&str> = s["required"].as_array().unwrap().iter().filter_map(|x| x.as_str()).collect();
    for k in ["schema", "totals", "error", "capacity", "network", "robustness", "switches"] {
        assert!(required.contains(&k), "{k} is always written (null or not), so required");
    }
    assert!(!required.contains(&"merged_from") && !required.contains(&"agent_index"), "written only by merge / a pod");
    assert_eq!(s["properties"]["schema"]["const"], SCHEMA);
    assert_eq!(s["$defs"]["Config"]["additionalProperties"], false, "params refuses unknown fields, as Config does");
}

#[test]
fn the_streamed_text_is_the_text_of_the_value() {
    // every golden (switches with every optional field, results without switches), and one
    // with no switches at all: `write` gives the text `to_vec_pretty(&to_value(r))` gave
    let mut rs: Vec<EngineResult> = goldens().iter().map(|(_, t)| serde_json::from_str(t).unwrap()).collect();
    let mut empty = rs[0].clone();
    empty.switches.clear();
    rs.push(empty);
    assert!(rs.iter().any(|r| r.switches.len() > 1));
    let dir = std::env::temp_dir().join(format!("sdnbench-stream-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, mut r) in rs.into_iter().enumerate() {
        let want = serde_json::to_vec_pretty(&to_value(&r)).unwrap();
        let path = dir.join(format!("{i}.json"));
        write(&path, &mut r).unwrap();
        assert!(std::fs::read(&path).unwrap() == want, "result {i}: not the same text");
        assert!(serde_json::to_vec_pretty(&to_value(&r)).unwrap() == want, "result {i}: its switches were put back");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_columnar_result_reads_back_as_the_embedded_one() {
    // every golden, written with its records beside it (`write_from(.., 0)`) and embedded: the
    // summary is the embedded document without them and names the file; the file gives them back
    let dir = std::env::temp_dir().join(format!("sdnbench-columnar-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in goldens() {
        let mut r: EngineResult = serde_json::from_str(&text).unwrap();
        let (one, two) = (dir.join("one.json"), dir.join("two.json"));
        write_from(&one, &mut r, usize::MAX).unwrap();
        write_from(&two, &mut r, 0).unwrap();
        let embedded: serde_json::Value = serde_json::from_slice(&std::fs::read(&one).unwrap()).unwrap();
        let mut summary: serde_json::Value = serde_json::from_slice(&std::fs::read(&two).unwrap()).unwrap();
        assert_eq!(summary["switches"], serde_json::json!([]), "{name}");
        let sf = summary.as_object_mut().unwrap().remove("switches_file").unwrap();
        assert_eq!(sf["name"], "two.switches.json.gz", "{name}");
        assert_eq!(sf["format"], SWITCHES_SCHEMA);
        assert_eq!(sf["rows"], r.switches.len() as u64, "{name}");
        let back = read_switches(&dir.join("two.switches.json.gz")).unwrap();
        summary["switches"] = serde_json::to_value(&back).unwrap();
        assert!(summary == embedded, "{name}: the columnar result is not the embedded one");
        assert!(r.switches_file.is_none() && r.switches.len() == back.len(), "{name}: `r` given back");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run's outcome rebuilt from a golden result: its config, its switches as their workers'
/// reports (several workers, arriving out of order), each switch given some of the optional
/// figures (HELLO fallback, TLS, connect times, reconnects, keep-alive, a loss) so every
/// per-switch sum, count, percentile and list of the summary has samples; judged and warned
/// as a run is. The reports go through `records` as they arrive.
pub(crate) fn outcome_of(r: &EngineResult, records: &mut dyn crate::coordinator::Records) -> crate::coordinator::Outcome {
    use crate::result::switches::{Disconnect as Lost, KeepaliveCounts, ReconnectCounts};
    let mut sw = r.switches.clone();
    for (i, s) in sw.iter_mut().enumerate() {
        let x = i as u64;
        s.worker = (i % 3) as u32;
        s.hello_fallback = i % 3 == 1;
        if i % 2 == 0 {
            s.tcp_connect_us = Some(100.0 + x as f64 * 7.25);
            s.openflow_handshake_us = Some(900.5 - x as f64);
        }
        if i % 2 == 1 {
            s.tls_version = Some("TLSv1_3".into());
            s.tls_cipher_suite = Some(if i % 3 == 0 { "TLS13_AES_128_GCM_SHA256" } else { "TLS13_CHACHA20_POLY1305_SHA256" }.into());
            s.tls_handshake_us = Some(300.0 + x as f64 / 3.0);
        }
        if i % 4 == 1 {
            s.reconnect = ReconnectCounts {
                sessions_lost: 1,
                attempts: 2,
                reconnects: 1,
                failures: 1,
                disconnected_ns: 1_500_000 * x,
                ..Default::default()
            };
        }
        if i % 5 == 2 {
            s.reconnect.down_at_stop = true;
            s.reconnect.reconnecting_at_stop = i % 2 == 0;
        }
        s.keepalive = KeepaliveCounts { sent: 3 * x, answered: 2 * x, lost: x, late: x / 2, in_flight_at_stop: x % 2 };
        s.late_ns_max = 1_000 * x;
        s.late_ns_sum = 3_000 * x;
        if i % 6 == 5 {
            s.disconnect = Some(Lost { t_s: x as f64 * 0.5, kind: "closed".into(), reason: format!("the controller closed it ({i})") });
        }
        if i % 12 == 11 {
            s.of_version = None;
        }
    }
    let mut reports: Vec<crate::switch::protocol::WorkerReport> =
        (0..3).map(|w| crate::switch::protocol::WorkerReport { worker: w, pid: 1 + w, ..Default::default() }).collect();
    for s in sw {
        reports[s.worker as usize].switches.push(s);
    }
    reports.reverse();
    reports[0].capacity = r.capacity.clone();
    let plan = crate::config::limits::Plan { workers: 3, source_addrs: vec![], notes: vec![] };
    let mut o = crate::coordinator::Outcome {
        finished_unix: r.finished_unix,
        robustness: r.robustness.clone(),
        ..crate::coordinator::Outcome::new(r.params.clone(), plan, r.started_unix, (1024, 4096), r.switches.len() as u32)
    };
    reports.into_iter().for_each(|w| o.add_report(w, records));
    o.reports.sort_by_key(|r| r.worker);
    crate::coordinator::judge(&mut o, true);
    o.warnings = crate::coordinator::figures::warnings(&o);
    o
}

/// The summary a run's records make (its switches aside; the pid is this test's), as text.
fn summary_text(o: crate::coordinator::Outcome) -> String {
    let mut j = build(o);
    j.engine.pid = 0;
    j.switches.clear();
    serde_json::to_string_pretty(&to_value(&j)).unwrap() + "\n"
}

/// Every golden's records as a run's outcome give the summary written by the engine at 437257a,
/// before the records were folded as each worker reported (`tests/golden/summary/`; written by
/// this test with `SDNBENCH_WRITE_SUMMARIES=1`, at that commit only).
#[test]
fn the_summary_of_the_records_is_the_one_written_before() {
    let dir = golden("summary");
    for (name, text) in goldens() {
        let r: EngineResult = serde_json::from_str(&text).unwrap();
        let got = summary_text(outcome_of(&r, &mut crate::coordinator::Keep));
        let mut encoded = Encoder::default();
        let streamed = summary_text(outcome_of(&r, &mut encoded));
        assert!(streamed == got, "{name}: the records taken as they came give another summary");
        assert_eq!(encoded.rows(), r.switches.len() as u64, "{name}");
        let path = dir.join(&name);
        if std::env::var_os("SDNBENCH_WRITE_SUMMARIES").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &got).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(got == want, "{name}: the summary is not the one written before");
    }
}
