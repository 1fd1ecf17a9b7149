"""The engine's per-switch records in a columnar file beside its result (``sdnbench.engine.switches/1``,
written by ``crates/engine/src/export/columnar.rs``), put back into the result document.

A run of many switches (``--switches-file-from``, 10,000 by default) writes its summary with
``switches: []`` and ``switches_file: {name, format, rows}``; the file, in the summary's directory,
is gzip'd JSON: ``{"schema", "rows", "blocks": [{"rows", "absent", "columns": {FIELD: [...]}}]}``.
In a column named in its block's ``absent``, a null means the record did not have the key.
``embed`` gives the document the engine would have written with the records inside, so every
reader of ``switches`` (``convert.py``, then ``report`` and ``compare`` through the stored Result)
reads old embedded results and new columnar ones alike.
"""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

from ..errors import EngineDocumentError

SCHEMA = "sdnbench.engine.switches/1"


def rows(data: dict) -> list:
    """The records of a columnar file's document, as the objects they were written from. Pure;
    a file that breaks the format is ``EngineDocumentError`` naming where."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise EngineDocumentError("switches_file", f"not a per-switch file (schema {SCHEMA} expected)")
    out: list = []
    for b, block in enumerate(data.get("blocks") or []):
        n = block.get("rows")
        cols = block.get("columns")
        if not isinstance(n, int) or not isinstance(cols, dict):
            raise EngineDocumentError(f"switches_file.blocks[{b}]", "no rows or no columns")
        absent = set(block.get("absent") or [])
        recs: list = [{} for _ in range(n)]
        for k in sorted(cols):
            col = cols[k]
            if not isinstance(col, list) or len(col) != n:
                raise EngineDocumentError(f"switches_file.blocks[{b}].columns.{k}", f"not {n} values")
            keep_null = k not in absent
            for rec, v in zip(recs, col):
                if v is not None or keep_null:
                    rec[k] = v
        out.extend(recs)
    if data.get("rows") != len(out):
        raise EngineDocumentError("switches_file.rows", f"{len(out)} records, not the {data.get('rows')} its head says")
    return out


def embed(doc: dict, directory: Path) -> dict:
    """``doc`` with its per-switch records back in ``switches`` (read from ``directory``) and no
    ``switches_file``; a document that has its records already is returned as it is."""
    sf = doc.get("switches_file")
    if not isinstance(sf, dict):
        return doc
    name = str(sf.get("name", ""))
    if not name or Path(name).name != name:
        raise EngineDocumentError("switches_file.name", f"not a file name beside the result: {name!r}")
    path = Path(directory) / name
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise EngineDocumentError("switches_file", f"{path}: not there (the result names it)") from None
    except (OSError, EOFError, zlib.error, ValueError) as e:
        raise EngineDocumentError("switches_file", f"{path}: not gzip'd JSON ({e})") from None
    recs = rows(data)
    if sf.get("rows") != len(recs):
        raise EngineDocumentError("switches_file.rows", f"the result says {sf.get('rows')}, {path} holds {len(recs)}")
    out = {k: v for k, v in doc.items() if k != "switches_file"}
    out["switches"] = recs
    return out
