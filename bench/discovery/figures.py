#!/usr/bin/env python3
"""RFC 8456 §5.1.1 discovery time of real controllers on the engine's emulated network, through
`sdnbench controller discovery` (one CLI run per controller × topology, each trial with its own
controller launch), printed as one row per pair: trials, mean, variance, RFC DT (southbound
Tmn − Tm1). Nothing asserts a time: it prints; note the machine's load beside the figures.

    .venv/bin/python bench/discovery/figures.py [--controllers osken:topology,ryu:rest_topology]
        [--topos ring,10;linear,10;tree,3,3;fattree,4;ring,100] [--reps 3] [--poll-s 0.5] [--stable 18]
        [--deadline-s 60] [-o results.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run(ctl: str, topo: str, a) -> dict:
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "discovery", "--controller", ctl,
                         "--topo", topo, "--reps", str(a.reps), "--poll-s", str(a.poll_s),
                         "--deadline-s", str(a.deadline_s), "--stable", str(a.stable), "--json"],
                        cwd=REPO, capture_output=True, text=True)
    if not cp.stdout.strip():
        return {"controller": ctl, "topo": topo, "failure": (cp.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(cp.stdout)[0]


def row(r: dict) -> str:
    if "failure" in r:
        return f"{r['controller']:<20} {r['topo']:<12} failure: {r['failure']}"
    c = r["counters"]
    rfc = [t["southbound"].get("rfc_dt_s") for t in c["trials"] if t["southbound"].get("rfc_dt_s") is not None]
    m, v = c["discovery_mean_s"], c["discovery_variance_s2"]
    f = c["rfc8456"]
    return (f"{r['controller']['spec']:<20} {r['topology']['spec']:<12} {f['nodes']:>6} {f['links']:>6} "
            f"{c['trials_complete']:>2}/{c['trials_total']:<2} "
            f"{'-' if m is None else f'{m:8.3f}'} {'-' if v is None else f'{v:9.4f}'} "
            f"{'-' if not rfc else f'{statistics.fmean(rfc):8.3f}'}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--controllers", default="osken:topology,ryu:rest_topology")
    p.add_argument("--topos", default="ring,10;linear,10;tree,3,3;fattree,4;ring,100;linear,100")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--poll-s", type=float, default=0.5)
    p.add_argument("--deadline-s", type=float, default=60)
    # the RFC stops after 3 identical polls 3 s apart (9 s without change); polling faster for
    # resolution, keep the 9 s: 18 identical answers 0.5 s apart
    p.add_argument("--stable", type=int, default=18)
    p.add_argument("-o", "--output", type=Path)
    a = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; poll every {a.poll_s:g} s, stop after {a.stable} identical answers")
    print(f"{'controller':<20} {'topology':<12} {'nodes':>6} {'links':>6} ok    mean s  var s^2   RFC DT s")
    out = []
    for ctl in a.controllers.split(","):
        for topo in a.topos.split(";"):
            r = run(ctl, topo, a)
            out.append(r)
            print(row(r), flush=True)
            if a.output:
                a.output.write_text(json.dumps(out))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
