//! The document the engine writes: the result's records (`src/result/`, which names no other
//! module) with this run's [`Config`] as its `params`, and the JSON Schema of that document.

use crate::config::Config;

/// One run of sdnbench-engine, as written: `params` is the run's full configuration.
pub type EngineResult = crate::result::EngineResult<Config>;

/// The JSON Schema of [`EngineResult`], as checked in at
/// `crates/engine/schema/engine-result.schema.json` (`sdnbench-engine schema` prints it).
pub fn schema() -> serde_json::Value {
    crate::result::schema::<Config>()
}
