//! The tests of a switch under test, one file each, sharing one connected [`Bench`]: the
//! session, the data ports (with the switch port numbers found by [`Bench::discover_ports`])
//! and the options. Each test returns [`TestOut`]s: raw series, counters and notes.
//!
//! Every test starts from an empty flow table (delete-all + barrier) and confirms what it
//! measures on the data plane with probe frames (`probe`), sent on port 0 and captured on
//! port 1 with kernel timestamps.

pub mod capacity;
pub mod first_packet;
pub mod insertion;
pub mod packet_io;
pub mod pipeline;
pub mod stats;

use std::time::Duration;

use ofcontroller::build::{self, FlowSpec, Next};
use ofcontroller::Event;
use ofwire::{Body, Version};
use serde_json::{json, Map, Value};

pub use crate::dataplane::DataPort;
use crate::probe::{flow_mac, Probe};
use crate::session::Session;

/// Flows whose ids start here are the harness's own (port discovery, packet-in probes), far
/// above any test's flow ids.
pub const HARNESS_FLOW: u32 = 0xf0_0000;
/// Priority of test flows; table-miss entries use 0.
pub const PRIORITY: u16 = 100;

#[derive(Debug, Clone)]
pub struct Opts {
    pub flows: Vec<u32>,
    pub barrier: bool,
    /// Pipeline depths `tables_from..=tables`.
    pub tables_from: u8,
    pub tables: u8,
    pub reps: u32,
    pub duration: Duration,
    pub batch: u32,
    pub max_flows: u32,
    pub probe_pps: u64,
    pub timeout: Duration,
    pub stats_interval: Duration,
}

/// The defaults of the command line (`cli.rs` shows them in `--help` from here).
impl Default for Opts {
    fn default() -> Opts {
        Opts {
            flows: vec![1, 100],
            barrier: false,
            tables_from: 1,
            tables: 4,
            reps: 100,
            duration: Duration::from_secs(2),
            batch: 1000,
            max_flows: 100_000,
            probe_pps: 20_000,
            timeout: Duration::from_secs(10),
            stats_interval: Duration::ZERO,
        }
    }
}

pub struct Bench {
    pub s: Session,
    pub ports: Vec<DataPort>,
    pub opts: Opts,
}

/// One test's output, in the shape `sdnbench.switch/1` documents.
#[derive(Debug, Default)]
pub struct TestOut {
    pub test: String,
    pub params: Map<String, Value>,
    pub series: Vec<Value>,
    pub counters: Map<String, Value>,
    pub notes: Vec<String>,
}

impl TestOut {
    pub fn new(test: &str, params: Value) -> TestOut {
        let params = params.as_object().cloned().unwrap_or_default();
        TestOut { test: test.into(), params, ..TestOut::default() }
    }

    pub fn series(&mut self, metric: &str, unit: &str, values: Vec<f64>, labels: Value) {
        self.series.push(json!({"metric": metric, "unit": unit, "labels": labels, "values": values}));
    }

    pub fn count(&mut self, key: &str, v: impl Into<Value>) {
        self.counters.insert(key.into(), v.into());
    }

    pub fn to_json(&self) -> Value {
        json!({"test": self.test, "params": self.params, "series": self.series,
               "counters": self.counters, "notes": self.notes})
    }
}

impl Bench {
    pub fn v(&self) -> Version {
        self.s.version
    }

    pub fn src(&self) -> &DataPort {
        &self.ports[0]
    }

    pub fn dst(&self) -> &DataPort {
        &self.ports[1]
    }

    /// Empties every flow table and waits until the switch confirms it.
    pub fn reset(&mut self) -> Result<(), String> {
        let v = self.v();
        self.s.send(build::flow_delete_all(v))?;
        self.s.barrier(self.opts.timeout)?;
        self.s.clear_backlog();
        self.s.take_flow_mod_errors();
        Ok(())
    }

    pub fn flow(&self, spec: &FlowSpec) -> Result<Body, String> {
        build::flow_add(self.v(), spec).map_err(|e| e.to_string())
    }

    /// Installs `specs` and waits for a barrier; a flow-mod error is returned as an error.
    pub fn install(&mut self, specs: &[FlowSpec]) -> Result<(), String> {
        let bodies = specs.iter().map(|s| self.flow(s)).collect::<Result<Vec<_>, _>>()?;
        self.s.send_many(bodies)?;
        self.s.barrier(self.opts.timeout)?;
        if let Some(Event::Error { error, .. }) = self.s.take_flow_mod_errors().first() {
            return Err(format!("the switch refused a flow: {}", error));
        }
        Ok(())
    }

    /// Flows `0..n` by destination MAC, out of the destination port, in `table`.
    pub fn dst_flows(&self, n: u32, table: u8, next: Next) -> Vec<FlowSpec> {
        (0..n).map(|i| FlowSpec::to_dst(table, PRIORITY, flow_mac(i), next)).collect()
    }

    /// Finds the switch port of every data port: with a table-miss-to-controller entry, a
    /// probe sent on each port comes back as a packet-in naming its ingress port.
    pub fn discover_ports(&mut self) -> Result<(), String> {
        self.reset()?;
        let miss = self.flow(&FlowSpec::miss(0, Next::Controller))?;
        self.s.send(miss)?;
        self.s.barrier(self.opts.timeout)?;
        let v = self.v();
        for i in 0..self.ports.len() {
            let flow = HARNESS_FLOW + i as u32;
            let mut found = None;
            for _ in 0..20 {
                let seq = crate::dataplane::next_seq();
                crate::dataplane::send_probe(&self.ports[i], flow, seq)?;
                found = self.s.wait_for(Duration::from_millis(250), |e| match e {
                    Event::PacketIn { packet_in, .. } => {
                        Probe::parse(&packet_in.data).filter(|p| p.flow == flow).and_then(|_| packet_in.port(v))
                    }
                    _ => None,
                })?;
                if found.is_some() {
                    break;
                }
            }
            self.ports[i].port_no = found.ok_or_else(|| {
                format!(
                    "no frame sent on {} reached the switch's controller port: is it connected to a port of the \
                         switch, up, and is the switch's table-miss honoured?",
                    self.ports[i].sock.spec
                )
            })?;
        }
        self.reset()
    }
}
