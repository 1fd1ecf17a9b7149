"""Export a run's raw samples: CSV (one row per sample), JSON (one Result per cell), Parquet.

Exporters only serialize (as hyperfine's do): they read what the store gives and write it out.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Optional

from ..errors import UserError
from ..formats import Output
from ..output import write_file
from ..result import write_json_atomic
from .store import Store

CSV_FIELDS = ["run", "cell", "benchmark", "kind", "repetition", "params", "status", "role",
              "metric", "unit", "labels", "index", "t", "value"]


def sample_rows(store: Store, run_id: int):
    """One dict per raw sample (and one per failed cell, with no sample), in plan order."""
    for cell, result in store.results(run_id):
        base = {"run": run_id, "cell": cell.id, "benchmark": cell.benchmark, "kind": cell.kind,
                "repetition": cell.repetition, "params": json.dumps(cell.params, sort_keys=True),
                "status": cell.status}
        if not result.series and not result.resources:
            yield {**base, "role": "", "metric": "", "unit": "", "labels": "", "index": "",
                   "t": "", "value": ""}
        for role, items in (("series", result.series), ("resource", result.resources)):
            for s in items:
                labels = json.dumps(s.labels, sort_keys=True)
                for i, v in enumerate(s.values):
                    yield {**base, "role": role, "metric": s.metric, "unit": s.unit,
                           "labels": labels, "index": i, "t": s.t[i] if s.t is not None else "",
                           "value": v}


def export(store: Store, run_id: int, fmt: str, out: Optional[Path]) -> Optional[str]:
    """Write the export to ``out``; with no ``out``, return it as text (CSV/JSON only)."""
    return SAMPLES.writer(SAMPLES.format_for(out or "", fmt))(store, run_id, out)


def _csv(store: Store, run_id: int, out: Optional[Path]) -> Optional[str]:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(sample_rows(store, run_id))
    return _emit(buf.getvalue(), out)


def _json(store: Store, run_id: int, out: Optional[Path]) -> Optional[str]:
    run = store.run(run_id)
    data = {"run": {k: v for k, v in vars(run).items()},
            "cells": [{"cell": vars(c), "result": r.to_dict()} for c, r in store.results(run_id)]}
    if out is not None:
        write_json_atomic(out, data)
        return None
    return json.dumps(data, indent=1, default=str) + "\n"


def _parquet(store: Store, run_id: int, out: Optional[Path]) -> Optional[str]:
    try:
        import pandas  # noqa: F401  (pyarrow or fastparquet is pandas' engine)
    except ImportError:
        raise UserError("Parquet export needs pandas and pyarrow (pip install pandas pyarrow); "
                        "use --format csv or json")
    if out is None:
        raise UserError("Parquet is binary: give an output file with -o FILE")
    import pandas as pd
    try:
        rows = [{k: (None if v == "" and k in ("index", "t", "value") else v) for k, v in r.items()}
                for r in sample_rows(store, run_id)]     # typed columns: "" is no number
        buf = io.BytesIO()
        pd.DataFrame(rows, columns=CSV_FIELDS).to_parquet(buf)
    except ImportError as e:
        raise UserError(f"Parquet export needs pyarrow: {e}")
    write_file(out, buf.getvalue())
    return None


SAMPLES = Output("the samples", {"csv": _csv, "json": _json, "parquet": _parquet})


def _emit(text: str, out: Optional[Path]) -> Optional[str]:
    if out is None:
        return text
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_file(out, text.encode())
    return None
