"""Controller benchmarks with the Rust load engine (``crates/engine``, binary ``sdnbench-engine``).

- ``params``: the parameter dict (campaign cell / CLI) checked by the engine once and returned
  resolved (every default filled in): what a run is given and its ``Result.params`` record;
- ``driver``: run the binary, read its JSON (schema ``sdnbench.engine/1``, ``crates/engine/SCHEMA.md``),
  checked against the schema;
- ``result_types``: that JSON as frozen, typed views (``EngineResult.from_json``), generated from the
  schema by ``scripts/gen_result_types.py``; ``result_check``: the checks they are made of;
- ``convert``: that JSON as a ``sdnbench.result.Result`` (raw per-loop samples per switch,
  latency samples, counters, resources);
- ``runner``: ``run_engine(params) -> Result``, launching the controller under test;
- ``search``: RFC 8456 maximum / loss-free rate search over fixed-rate trials (pure);
- ``rate_search``: that search against a launched controller, one engine run per trial, and its
  ``Result`` (``controller search``).
"""
