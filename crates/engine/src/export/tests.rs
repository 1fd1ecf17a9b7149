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
