//! The per-switch records in a columnar file beside the summary (`sdnbench.engine.switches/1`):
//! gzip'd JSON, one array per field. A run of a million switches wrote 1.2–2.4 GB of records
//! inside its result; most of that is each record's keys and indentation, repeated per switch.
//!
//! The file: `{"schema", "rows", "blocks": [{"rows", "absent", "columns": {FIELD: [v, ...]}}]}`.
//! Records are written in blocks of at most [`BLOCK`] rows (each batch of a worker's records,
//! `SWITCHES_PER_EVENT`, starts a block of its own), in switch order, each block through its own
//! `Value`s (sorted keys) one block at a time, so the writer never holds more than one block as
//! JSON. The gzip'd text is a series of
//! members (the head, each worker's blocks, the separators, the tail: `Encoder`); any gzip reader
//! reads them as one text (`zcat`, Python's `gzip`, `MultiGzDecoder` here). A worker's blocks are
//! encoded as its report arrives, and held compressed (4.8 MB for 200,000 switches) until the
//! file is written with the summary.
//! A field some of a block's records leave out (the `skip_serializing_if` ones:
//! `hello_fallback`, `tcp_connect_us`, `keepalive`, ...) is named in `absent`; there a null
//! means "not in this record", and a reader leaves the key out again, so a record reads back
//! as the same object it was (tested below). Every other column holds each record's value.

use crate::result::switches::SwitchReport;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::Path;

/// The columnar file's own schema.
pub const SWITCHES_SCHEMA: &str = "sdnbench.engine.switches/1";
/// Rows per block: one block's `Value`s are what the writer holds at once.
pub const BLOCK: usize = 4_096;

/// The name of the columnar file beside the summary `path`: `r.json` → `r.switches.json.gz`.
pub fn name_beside(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "result".into());
    format!("{stem}.switches.json.gz")
}

/// Records encoded as they come, held compressed until written: each `add` is a gzip member of
/// whole blocks (RFC 1952 §2.2: a gzip file is a series of members, read as one stream). The
/// run's records reach it a worker at a time (`coordinator/records.rs`), in any order; the file
/// has them in switch order (the members sorted by worker, whose slices are in switch order).
#[derive(Default)]
pub struct Encoder {
    parts: Vec<(u32, Vec<u8>)>,
    rows: u64,
}

impl Encoder {
    /// Encode `worker`'s records (fast level: the columns of numbers compress well at any
    /// level, and a million records must not take a minute).
    pub fn add(&mut self, worker: u32, records: &[SwitchReport]) -> std::io::Result<()> {
        if records.is_empty() {
            return Ok(());
        }
        let z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        // buffered in front of the compressor: a value's few bytes per call to it cost 10× the time
        let mut z = std::io::BufWriter::with_capacity(1 << 16, z);
        for (i, block) in records.chunks(BLOCK).enumerate() {
            if i > 0 {
                z.write_all(b",\n")?;
            }
            write_block(&mut z, block)?;
        }
        self.parts.push((worker, z.into_inner().map_err(|e| e.into_error())?.finish()?));
        self.rows += records.len() as u64;
        Ok(())
    }

    /// The records encoded.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The file: its head, the members in worker order, its tail (each piece of text between
    /// them a member of its own).
    pub fn write_to<W: Write>(&self, mut w: W) -> std::io::Result<()> {
        let member = |w: &mut W, text: &str| -> std::io::Result<()> {
            let mut z = flate2::write::GzEncoder::new(w, flate2::Compression::fast());
            z.write_all(text.as_bytes())?;
            z.finish().map(drop)
        };
        member(&mut w, &format!("{{\"schema\":\"{SWITCHES_SCHEMA}\",\"rows\":{},\"blocks\":[", self.rows))?;
        let mut order: Vec<&(u32, Vec<u8>)> = self.parts.iter().collect();
        order.sort_by_key(|p| p.0);
        for (i, (_, bytes)) in order.into_iter().enumerate() {
            if i > 0 {
                member(&mut w, ",\n")?;
            }
            w.write_all(bytes)?;
        }
        member(&mut w, "]}\n")?;
        w.flush()
    }
}

impl crate::coordinator::records::Records for Encoder {
    fn take(&mut self, worker: u32, records: Vec<SwitchReport>) -> Vec<SwitchReport> {
        // into memory: nothing here can fail but a record that does not serialize, which is a bug
        self.add(worker, &records).expect("a switch's records encode");
        vec![]
    }
}

/// One block: its records as objects, then each field's column.
fn write_block<W: Write>(w: &mut W, block: &[SwitchReport]) -> std::io::Result<()> {
    let rows: Vec<Map<String, Value>> = block
        .iter()
        .map(|r| match serde_json::to_value(r) {
            Ok(Value::Object(m)) => m,
            _ => unreachable!("a switch's record is an object"),
        })
        .collect();
    let keys: BTreeSet<&String> = rows.iter().flat_map(|m| m.keys()).collect();
    let absent: Vec<&String> = keys.iter().copied().filter(|k| rows.iter().any(|m| !m.contains_key(*k))).collect();
    write!(w, "{{\"rows\":{},\"absent\":", rows.len())?;
    serde_json::to_writer(&mut *w, &absent)?;
    w.write_all(b",\"columns\":{")?;
    for (i, k) in keys.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        serde_json::to_writer(&mut *w, k)?;
        w.write_all(b":[")?;
        for (j, m) in rows.iter().enumerate() {
            if j > 0 {
                w.write_all(b",")?;
            }
            serde_json::to_writer(&mut *w, m.get(*k).unwrap_or(&Value::Null))?;
        }
        w.write_all(b"]")?;
    }
    w.write_all(b"}}")
}

/// The records of a columnar file's document, as the objects they were written from. Errors are
/// one line naming what is wrong.
pub fn rows(doc: &Value) -> Result<Vec<Map<String, Value>>, String> {
    if doc["schema"] != SWITCHES_SCHEMA {
        return Err(format!("not a per-switch file (schema {SWITCHES_SCHEMA} expected)"));
    }
    let blocks = doc["blocks"].as_array().ok_or("no blocks")?;
    let mut out = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        let n = block["rows"].as_u64().ok_or(format!("block {b}: no rows"))? as usize;
        let absent: BTreeSet<&str> = block["absent"].as_array().into_iter().flatten().filter_map(|v| v.as_str()).collect();
        let cols = block["columns"].as_object().ok_or(format!("block {b}: no columns"))?;
        let first = out.len();
        out.resize_with(first + n, Map::new);
        for (k, col) in cols {
            let col = col.as_array().filter(|c| c.len() == n).ok_or(format!("block {b}: column {k} is not {n} values"))?;
            for (m, v) in out[first..].iter_mut().zip(col) {
                if !(v.is_null() && absent.contains(k.as_str())) {
                    m.insert(k.clone(), v.clone());
                }
            }
        }
    }
    if doc["rows"].as_u64() != Some(out.len() as u64) {
        return Err(format!("{} records, not the {} its head says", out.len(), doc["rows"]));
    }
    Ok(out)
}

/// Read the columnar file at `path` as switch records.
pub fn read(path: &Path) -> Result<Vec<SwitchReport>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = Vec::new();
    flate2::read::MultiGzDecoder::new(std::io::BufReader::new(f))
        .read_to_end(&mut text)
        .map_err(|e| format!("{}: not gzip: {e}", path.display()))?;
    let doc: Value = serde_json::from_slice(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    rows(&doc)
        .and_then(|rs| rs.into_iter().map(|m| serde_json::from_value(Value::Object(m)).map_err(|e| e.to_string())).collect())
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::goldens;
    use crate::export::EngineResult;

    /// Every golden's switches (every optional field present in some, absent in others), over
    /// more than one block: each reads back as the same object, in the same order.
    #[test]
    fn the_columnar_file_reads_back_the_same_records() {
        let mut all: Vec<SwitchReport> = vec![];
        for (_, t) in goldens() {
            let r: EngineResult = serde_json::from_str(&t).unwrap();
            all.extend(r.switches);
        }
        // the optional fields set in some records only (no golden has a HELLO fallback)
        all[0].hello_fallback = true;
        all[1].tcp_connect_us = Some(12.5);
        all[1].tls_version = Some("TLSv1_3".into());
        assert!(all.iter().any(|s| s.hello_fallback) && all.iter().any(|s| !s.hello_fallback));
        assert!(all.iter().any(|s| s.tls_version.is_some()) && all.iter().any(|s| s.tls_version.is_none()));
        assert!(all.iter().any(|s| s.tcp_connect_us.is_some()) && all.iter().any(|s| s.tcp_connect_us.is_none()));
        assert!(all.iter().any(|s| s.of_version.is_none()), "a null that is written stays a null");
        let base = all.len();
        let mut many = all.clone();
        while many.len() < 2 * BLOCK + 7 {
            many.extend(all.iter().cloned());
        }
        let dir = std::env::temp_dir().join(format!("sdnbench-columnar-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (i, recs) in [&all[..], &many[..], &[][..]].into_iter().enumerate() {
            let path = dir.join(format!("{i}.switches.json.gz"));
            let mut e = Encoder::default();
            e.add(0, recs).unwrap();
            e.write_to(std::fs::File::create(&path).unwrap()).unwrap();
            let back = read(&path).unwrap();
            assert_eq!(back.len(), recs.len());
            for (a, b) in recs.iter().zip(&back) {
                assert_eq!(serde_json::to_value(a).unwrap(), serde_json::to_value(b).unwrap());
            }
        }
        assert!(base > 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Workers' records encoded as their reports come, out of order and some in several
    /// pieces (blocks cut short): the file has every record once, in switch order.
    #[test]
    fn records_encoded_as_they_come_read_back_in_switch_order() {
        let base: Vec<SwitchReport> =
            goldens().into_iter().flat_map(|(_, t)| serde_json::from_str::<EngineResult>(&t).unwrap().switches).collect();
        let all: Vec<SwitchReport> =
            (0..BLOCK + 500).map(|i| SwitchReport { index: i as u32, worker: (i / 1000) as u32, ..base[i % base.len()].clone() }).collect();
        let by = |w: u32| all.iter().filter(|s| s.worker == w).cloned().collect::<Vec<_>>();
        let mut e = Encoder::default();
        let w2 = by(2);
        e.add(4, &by(4)).unwrap();
        e.add(2, &w2[..10]).unwrap();
        e.add(0, &by(0)).unwrap();
        e.add(2, &w2[10..]).unwrap();
        e.add(3, &[]).unwrap();
        e.add(1, &by(1)).unwrap();
        e.add(3, &by(3)).unwrap();
        assert_eq!(e.rows(), all.len() as u64);
        let path = std::env::temp_dir().join(format!("sdnbench-columnar-order-{}.switches.json.gz", std::process::id()));
        e.write_to(std::fs::File::create(&path).unwrap()).unwrap();
        let back = read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(back.iter().map(|s| s.index).collect::<Vec<_>>(), (0..all.len() as u32).collect::<Vec<_>>());
        for (a, b) in all.iter().zip(&back) {
            assert_eq!(serde_json::to_value(a).unwrap(), serde_json::to_value(b).unwrap());
        }
    }

    #[test]
    fn a_file_with_a_short_column_or_wrong_count_is_refused() {
        let doc: Value = serde_json::json!({"schema": SWITCHES_SCHEMA, "rows": 2,
            "blocks": [{"rows": 2, "absent": [], "columns": {"index": [0]}}]});
        assert!(rows(&doc).unwrap_err().contains("column index is not 2 values"));
        let doc: Value = serde_json::json!({"schema": SWITCHES_SCHEMA, "rows": 3,
            "blocks": [{"rows": 2, "absent": [], "columns": {"index": [0, 1]}}]});
        assert!(rows(&doc).unwrap_err().contains("2 records, not the 3"));
    }
}
