"""A scenario's ``quick:`` block: the smaller variant that ``sdnbench run --quick`` runs in CI.

The block sits at the top level of the scenario and overrides it before validation::

    quick:
      repetitions: 1                     # any top-level default (repetitions, warmup, pause)
      only: [ping, tcp]                  # keep only these benchmarks (default: all)
      benchmarks:
        ping:                            # by benchmark name
          params: {count: 3}             # merged into the benchmark's params, key by key
          matrix: {size: [64, 1024]}     # each listed matrix entry replaces the full one
          repetitions: 1                 # any other benchmark field is replaced

Without ``--quick`` the block is removed and the full scenario runs unchanged. The override is
pure data → data, so ``--dry-run --quick`` shows exactly the cells CI measures.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import UserError

QUICK_KEY = "quick"


def select(data: Any, quick: bool, source: str = "<scenario>") -> Any:
    """The scenario data with its ``quick:`` block applied (``quick``) or removed."""
    if not isinstance(data, dict) or QUICK_KEY not in data:
        return data
    out = {k: copy.deepcopy(v) for k, v in data.items() if k != QUICK_KEY}
    if not quick:
        return out
    block = data[QUICK_KEY] or {}
    if not isinstance(block, dict):
        raise UserError(f"{source}: quick: expected a mapping of overrides, got {type(block).__name__}")
    for key, value in block.items():
        if key == "benchmarks":
            _benchmarks(out, value, source)
        elif key != "only":
            out[key] = copy.deepcopy(value)
    if "only" in block:
        _only(out, block["only"], source)
    return out


def _only(out: dict, names: Any, source: str) -> None:
    if not isinstance(names, list) or not names:
        raise UserError(f"{source}: quick.only: expected a non-empty list of benchmark names")
    benches = out.get("benchmarks") if isinstance(out.get("benchmarks"), list) else []
    have = [b.get("name") or b.get("kind") for b in benches if isinstance(b, dict)]
    unknown = [n for n in names if n not in have]
    if unknown:
        raise UserError(f"{source}: quick.only: no benchmark named {unknown[0]!r} "
                        f"(have {', '.join(map(str, have))})")
    out["benchmarks"] = [b for b, n in zip(benches, have) if n in names]


def _benchmarks(out: dict, overrides: Any, source: str) -> None:
    if not isinstance(overrides, dict):
        raise UserError(f"{source}: quick.benchmarks: expected benchmark name: overrides")
    benches = out.get("benchmarks") if isinstance(out.get("benchmarks"), list) else []
    by_name = {(b.get("name") or b.get("kind")): b for b in benches if isinstance(b, dict)}
    for name, o in overrides.items():
        if name not in by_name:
            raise UserError(f"{source}: quick.benchmarks.{name}: no benchmark named {name!r} "
                            f"(have {', '.join(map(str, by_name)) or 'none'})")
        if not isinstance(o, dict):
            raise UserError(f"{source}: quick.benchmarks.{name}: expected a mapping of overrides")
        b = by_name[name]
        for key, value in o.items():
            if key in ("params", "matrix") and isinstance(value, dict):
                merged = dict(b.get(key) or {})
                merged.update(copy.deepcopy(value))
                b[key] = merged
            else:
                b[key] = copy.deepcopy(value)
