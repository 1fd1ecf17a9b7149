"""The differential run: controller × version × stimulus, each once on Mininet + Open vSwitch
and once on the engine's emulated network; the views compared (``normalise.py``) and the
table printed.

    python -m sdnbench.conformance --controllers osken:learning,ryu:simple_switch_13 \\
        --versions 1.0,1.3 --stimuli connect,frames,link,hosts,restart,echo-silence [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Optional

from ..controllers.catalog import of_versions_for
from ..controllers.spec import parse_spec
from ..errors import Interrupted, UserError
from ..proc import signals_as_exceptions
from . import normalise, sides, stimuli, tablemiss

TOPO = "linear,2"
TABLEMISS = "tablemiss"          # the scripted table-miss + LLDP controller (tablemiss.py)
POX = "cmd:python3 /opt/peers/pox/pox.py openflow.of_01 --port={port} forwarding.l2_learning;name=pox;of=1.0"
ALIASES = {"pox": POX}


def resolve(spec: str) -> str:
    if spec == TABLEMISS:
        return tablemiss.spec()
    return ALIASES.get(spec, spec)


def speaks(spec: str, version: str) -> bool:
    p = parse_spec(resolve(spec))
    known = p.command.of_versions if p.command else of_versions_for(p.kind, p.app)
    return not known or version in known


def cell(spec: str, version: str, stimulus: str, topo: str = TOPO) -> dict:
    """One comparison: {"identical", "only_ovs", "only_engine", "noise", "seconds"}."""
    t = time.monotonic()
    o, e = sides.run_pair(resolve(spec), version, stimulus, topo)
    vo, ve = normalise.view(o), normalise.view(e)
    d = normalise.compare(vo, ve)
    return {"controller": spec, "version": version, "stimulus": stimulus, "identical": d.identical,
            "only_ovs": d.only_ovs, "only_engine": d.only_engine, "noise": [vo.noise, ve.noise],
            "unnamed": [vo.unnamed, ve.unnamed],
            "counts": {"ovs": [len(vo.received), len(vo.sent), len(vo.flows)],
                       "engine": [len(ve.received), len(ve.sent), len(ve.flows)]},
            "notes": [f"ovs {n}" for n in o.notes] + [f"engine {n}" for n in e.notes], "seconds": round(time.monotonic() - t, 1)}


def summary(c: dict) -> str:
    if "error" in c:
        return f"not run: {c['error']}"
    if c["identical"]:
        return "identical"
    parts = []
    for cat in ("received", "sent", "flows"):
        a, b = len(c["only_ovs"][cat]), len(c["only_engine"][cat])
        if a or b:
            parts.append(f"{cat} ovs+{a}/engine+{b}")
    return "; ".join(parts)


def run(controllers: list, versions: list, stims: list, out: Optional[str]) -> list:
    cells = []
    for spec in controllers:
        for v in versions:
            if not speaks(spec, v):
                continue
            for s in stims:
                try:
                    c = cell(spec, v, s)
                except (UserError, RuntimeError, TimeoutError, OSError) as e:
                    c = {"controller": spec, "version": v, "stimulus": s, "error": str(e).splitlines()[0][:200]}
                cells.append(c)
                print(f"{spec:24} {v}  {s:8} {summary(c)}", flush=True)
                if out:
                    with open(out, "w") as f:
                        json.dump(cells, f, indent=1)
    return cells


def main(argv=None) -> int:
    a = argparse.ArgumentParser(prog="python -m sdnbench.conformance", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--controllers", default="osken:learning")
    a.add_argument("--versions", default="1.0,1.3")
    a.add_argument("--stimuli", default=",".join(stimuli.STIMULI))
    a.add_argument("--json")
    args = a.parse_args(argv)
    bad = [s for s in args.stimuli.split(",") if s not in stimuli.STIMULI]
    if bad:
        print(f"unknown stimulus {bad[0]!r}: use {', '.join(stimuli.STIMULI)}", file=sys.stderr)
        return 1
    try:
        with signals_as_exceptions():    # Ctrl-C/SIGTERM: every network and controller is stopped
            cells = run(args.controllers.split(","), args.versions.split(","), args.stimuli.split(","), args.json)
    except UserError as e:
        print(f"conformance: error: {e}", file=sys.stderr)
        return e.exit_code
    except Interrupted as e:
        print("conformance: interrupted; cleaned up", file=sys.stderr)
        return e.exit_code
    return 0 if all(c.get("identical") for c in cells) else 2
