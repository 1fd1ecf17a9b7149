"""RUN arguments to ``RunData``: a run in the results store (an id, or ``latest``), or a Result
JSON file (``sdnbench.result/1``), or a directory of them.

Reports only read results: nothing here adds, changes or deletes one (opening the store may
migrate an older schema, which the store does losslessly; a read-only store is read as it is)."""

from __future__ import annotations

import contextlib
from collections import Counter
from pathlib import Path
from typing import Optional

from ..errors import UserError
from ..paths import no_such_file
from ..result import Result
from ..store import Store
from .model import RunData


def load_runs(refs: list, store_dir: Optional[Path] = None) -> list:
    runs = []
    store = None
    with contextlib.ExitStack() as stack:     # the store's exit says a storage fault in one line
        for ref in refs:
            p = Path(ref)
            if p.suffix == ".json" or (p.is_dir() and not (p / "results.sqlite").exists()
                                       and any(p.glob("*.json"))):
                runs.append(_from_files(p))
                continue
            if store is None:
                store = stack.enter_context(Store(store_dir, read_only=True))
            runs.append(_from_store(store, ref))
    _unique_labels(runs)
    return runs


def _from_files(p: Path) -> RunData:
    if p.is_dir():
        files = sorted(p.glob("*.json"))
        results = [r for f in files for r in Result.read_json_list(f)]
        return RunData(id=str(p), label=p.name, results=results, meta={"source": str(p)})
    if not p.exists():
        raise UserError(f"{p}: {no_such_file(p)}")
    return RunData(id=str(p), label=p.stem, results=Result.read_json_list(p), meta={"source": str(p)})


def _from_store(store, ref) -> RunData:
    info = store.run(ref)
    results = []
    for cell, result in store.results(info.id):
        # The cell's plan (its parameters and repetition number) is what a report groups by;
        # the result's own params win where both exist.
        params = dict(cell.params or {})
        params.update(result.params or {})
        params["repetition"] = cell.repetition
        # Sections are named after the scenario's benchmark ("campus-ping"), which says more
        # than the runner's own name for it ("ping+tcp"); the stored result is not changed.
        result.benchmark = cell.benchmark or result.benchmark
        result.params = params
        results.append(result)
    if not results:
        raise UserError(f"run {info.id} ({info.name}) has no finished results to report yet")
    meta = {"kind": info.kind, "status": info.status, "description": info.description,
            "seed": info.seed, "scenario": info.name if info.kind == "campaign" else None,
            "scenario_path": info.scenario_path,
            "cells": ", ".join(f"{k}: {v}" for k, v in sorted(info.counts.items()))}
    return RunData(id=str(info.id), label=info.name or f"run {info.id}", results=results,
                   meta={k: v for k, v in meta.items() if v not in (None, "")})


def _unique_labels(runs: list) -> None:
    counts = Counter(r.label for r in runs)
    for r in runs:
        if counts[r.label] > 1:
            r.label = f"{r.label}#{r.id}"
