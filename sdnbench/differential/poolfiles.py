"""The files pooling across commands reads (``crosspool.py``): each ``-o`` file's cells and, from
the ``--views`` folder that command wrote, each cell's views; anything not as ``harness`` writes
it is one ``UserError`` line naming the file."""

from __future__ import annotations

from pathlib import Path

from .. import jsonload
from ..errors import UserError
from . import harness, noise, pooled
from .crosspool import Cell
from .normalise import View


def _view(d, where: str) -> View:
    if not isinstance(d, dict):
        raise UserError(f"{where}: not a view (an object of received, sent, flows)")
    for c in noise.CATEGORIES:
        if not (isinstance(d.get(c), list) and all(isinstance(x, str) for x in d[c])):
            raise UserError(f"{where}: no {c} list of text")
    phase = {}
    for k in ("pre", "post"):
        if k in d:
            if not (isinstance(d[k], dict) and all(isinstance(d[k].get(c), list) for c in pooled.PHASED)):
                raise UserError(f"{where}: {k} is not an object of received and sent lists")
            phase[k] = {c: set(d[k][c]) for c in pooled.PHASED}
    return View(**{c: set(d[c]) for c in noise.CATEGORIES}, **phase)


def views(path: Path, stimulus: str) -> dict:
    """{run: View} (``ovs_a``, ``engine``, ``ovs_b``, ``ovs_c`` …) of a ``--views`` file."""
    if not path.is_file():
        raise UserError(f"{path}: no such views file (was the command run with this --views folder?)")
    d = jsonload.read(path, str(path), "conformance views file")
    if not isinstance(d, dict) or not all(k in d for k in ("a", "b", "engine")):
        raise UserError(f"{path}: JSON, but not the views `sdnbench conformance --views` writes (no a, b, engine)")
    if d.get("stimulus") != stimulus:
        raise UserError(f"{path}: the views of stimulus {d.get('stimulus')!r}, not {stimulus!r}")
    more = d.get("more") or []
    if not isinstance(more, list):
        raise UserError(f"{path}: more is not a list of views")
    runs = {"ovs_a": _view(d["a"], f"{path} a"), "engine": _view(d["engine"], f"{path} engine"),
            "ovs_b": _view(d["b"], f"{path} b")}
    for i, m in enumerate(more, 2):
        runs[f"ovs_{noise.run_name(i).lower()}"] = _view(m, f"{path} more[{i - 2}]")
    return runs


def cells(path: str, views_dir: str) -> list:
    """The ``Cell`` of one ``-o`` file with its views from ``views_dir``."""
    p, vd = Path(path), Path(views_dir)
    data = jsonload.read(p, str(p), "conformance cells file")
    items = data if isinstance(data, list) else [data]
    for i, c in enumerate(items):
        why = harness._not_a_cell(c)
        if why:
            raise UserError(f"{p}: JSON, but not the cells `sdnbench conformance -o` writes (item {i}: {why})")
        if "pooled_across" in c:
            raise UserError(f"{p}: already pooled (from {', '.join(c['pooled_across'].get('files') or [])}): "
                            "pool those files with the new ones instead")
        if "error" not in c and not isinstance(c.get("spec"), str):
            raise UserError(f"{p}: item {i} has no spec text (a file too old to pool)")
    if not vd.is_dir():
        raise UserError(f"--views {vd}: no such folder (the --views of the command that wrote {p})")
    return [Cell(str(p), c, {} if "error" in c else
                 views(vd / harness.views_name(c["spec"], c["version"], c["stimulus"]), c["stimulus"]))
            for c in items]
