//! Writing a result without holding it twice. The old way built the whole document as a
//! `serde_json::Value` (sorted keys) and then its pretty text in memory: at 1,000,000 switches
//! both together were larger than the result itself, and made the run's peak RSS (13.4 GB
//! against 7.8 GB in the load window, docs/million.md). Here only the head (everything but
//! `switches`) goes through a `Value`; each switch's record is turned into a `Value` (for its
//! sorted keys) one at a time as the text is written to a buffered file. The text is the same,
//! byte for byte (tested in `tests.rs`).

use super::document::EngineResult;
use crate::result::switches::SwitchReport;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use std::io::Write;

/// The document: the head's keys in order, `switches` in its sorted place.
struct Doc<'a> {
    head: &'a serde_json::Map<String, serde_json::Value>,
    switches: &'a [SwitchReport],
}

/// The switches, each through its own `Value` (sorted keys), one at a time.
struct Records<'a>(&'a [SwitchReport]);

impl Serialize for Records<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for r in self.0 {
            seq.serialize_element(&serde_json::to_value(r).map_err(serde::ser::Error::custom)?)?;
        }
        seq.end()
    }
}

impl Serialize for Doc<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.head.len() + 1))?;
        let mut placed = false;
        for (k, v) in self.head {
            if !placed && k.as_str() > "switches" {
                m.serialize_entry("switches", &Records(self.switches))?;
                placed = true;
            }
            m.serialize_entry(k, v)?;
        }
        if !placed {
            m.serialize_entry("switches", &Records(self.switches))?;
        }
        m.end()
    }
}

/// Write `r` as pretty JSON to `w`, the same text as `to_vec_pretty(&to_value(r))`. The
/// switches are taken out for the head's `Value` and put back before it returns.
pub fn write_pretty<W: Write>(w: W, r: &mut EngineResult) -> std::io::Result<()> {
    let switches = std::mem::take(&mut r.switches);
    let head = serde_json::to_value(&*r);
    r.switches = switches;
    let Ok(serde_json::Value::Object(mut head)) = head else { unreachable!("an engine result is an object") };
    head.remove("switches");
    serde_json::to_writer_pretty(w, &Doc { head: &head, switches: &r.switches }).map_err(std::io::Error::from)
}
