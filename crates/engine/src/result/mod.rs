//! The engine's result, schema `sdnbench.engine/1`, as types: what `sdnbench-engine --json FILE`
//! writes, what an agent or pod prints, what `merge` reads back. The exporter (`export/`) fills
//! an [`EngineResult`] from a run's `Outcome`; the text summary (`front/output.rs`) formats one;
//! `merge` deserializes them. These types are the one definition of the fields: the JSON Schema
//! in `crates/engine/schema/engine-result.schema.json` is generated from them ([`schema`];
//! `src/export/tests.rs` fails when the checked-in file differs). What the fields mean beyond
//! their doc comments (status rules, invariants, units) is in `crates/engine/SCHEMA.md`.
//!
//! Layering: plain data, no I/O, and a leaf: it names no other module of the crate
//! (`tests/layers.rs`, `LEAVES`), so no internal type changes the schema unseen. The records
//! the workers send that the result holds as they came (`switches`, `capacity`, an agent's
//! facts, the attacker's observation, the network's records) are defined here, and the worker
//! protocol, the robustness attacker and the network fill them; `params` is the run's config,
//! a type parameter here (`export::EngineResult` names it: `Config`).

pub(crate) mod agents;
pub(crate) mod capacity;
pub(crate) mod load;
pub(crate) mod network;
pub(crate) mod resources;
pub(crate) mod robustness;
pub(crate) mod run;
pub(crate) mod switches;
pub(crate) mod totals;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use agents::{Agent, AgentFacts};
pub use capacity::Capacity;
pub use load::Load;
pub use network::Network;
pub use resources::{ProcSeries, Resources};
pub use robustness::Observation;
pub use run::{Efficiency, Engine, Handshake, Latency, Learning, Loops, Percentiles, Reconnect, Throughput, Transport};
pub use switches::SwitchReport;
pub use totals::{Disconnect, Totals};

/// The schema's name and version; bump the version to change a field incompatibly.
pub const SCHEMA: &str = "sdnbench.engine/1";

/// One run of sdnbench-engine (or of one part of a run: an agent's slice, a pod's).
// `P`: the type of `params` (the engine's `Config`; the root's name and description are set
// by [`schema`], so the parameter shows nowhere in the schema)
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct EngineResult<P> {
    /// Always `sdnbench.engine/1` ([`SCHEMA`]).
    pub schema: String,
    pub engine: Engine,
    /// The full run configuration (`Config` in `src/config/mod.rs`, the definition of every
    /// parameter); the same object `sdnbench-engine bench --config FILE` reads.
    pub params: P,
    /// `ok`, `partial`, `interrupted` or `failed` (rules in `src/coordinator/status.rs`).
    #[schemars(extend("enum" = ["ok", "partial", "interrupted", "failed"]))]
    pub status: String,
    /// Why the status is not `ok`, in one line (null when it is).
    pub error: Option<String>,
    pub started_unix: f64,
    pub finished_unix: f64,
    pub handshake: Handshake,
    /// TCP or TLS, and what TLS agreed (`params.tls`).
    #[serde(default)]
    pub transport: Transport,
    pub loops: Loops,
    pub throughput: Throughput,
    pub totals: Totals,
    pub reconnect: Reconnect,
    /// Every switch whose session was lost, in switch order.
    pub disconnects: Vec<Disconnect>,
    pub learning: Learning,
    /// What the robustness attacker observed (`src/robust/`); null without a case.
    pub robustness: Option<Observation>,
    pub latency: Latency,
    /// Fixed-rate and keep-alive runs: offered, sent, answered, late, lost per loop and the
    /// echoes (`load.rs`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<Load>,
    pub efficiency: Efficiency,
    pub resources: Resources,
    /// Capacity mode only; null otherwise.
    pub capacity: Option<Capacity>,
    /// The emulated network's figures (`src/network/`); null without `params.network`.
    pub network: Option<Network>,
    /// Per emulated switch, in switch order; empty when they are in `switches_file`.
    pub switches: Vec<SwitchReport>,
    /// The per-switch records are in a columnar file beside this one (`switches` is then empty;
    /// `export/columnar.rs`): runs of many switches (`--switches-file-from`). Absent when the
    /// records are in `switches`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switches_file: Option<SwitchesFile>,
    /// Per agent (`params.agents`, or the files of a `merge`); empty when the workers were local.
    pub agents: Vec<Agent>,
    /// What a reader must see (the engine busy, failed handshakes, lost sessions, ...).
    pub warnings: Vec<String>,
    /// `sdnbench-engine merge` only: the files merged, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_from: Option<Vec<String>>,
    /// A pod's own result (`k8s-agent` without a coordinator) only: its index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_index: Option<u32>,
}

/// Where a result's per-switch records are when they are not in it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SwitchesFile {
    /// The file's name, in the directory of the result (`r.json` → `r.switches.json.gz`).
    pub name: String,
    /// Its schema: `sdnbench.engine.switches/1` (gzip'd JSON, one array per field).
    pub format: String,
    /// The records it holds, one per switch, in switch order.
    pub rows: u64,
}

/// The JSON Schema of [`EngineResult`] with `params` of type `P` (the engine's: `export::schema`,
/// checked in at `crates/engine/schema/engine-result.schema.json`; `sdnbench-engine schema` prints it).
pub fn schema<P: JsonSchema>() -> serde_json::Value {
    // what the engine writes (the serialize contract: a field always written is required, even null)
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    let mut s = serde_json::to_value(generator.into_root_schema_for::<EngineResult<P>>()).expect("a schema serializes");
    s["$id"] = "https://sdnbench.invalid/schema/engine-result-1.json".into();
    s["title"] = format!("{SCHEMA}: one run of sdnbench-engine").into();
    s["description"] = "Generated from crates/engine/src/result/ (sdnbench-engine schema); meanings in crates/engine/SCHEMA.md.".into();
    s["properties"]["schema"]["const"] = SCHEMA.into();
    s
}
