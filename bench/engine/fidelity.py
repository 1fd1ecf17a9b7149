#!/usr/bin/env python3
"""Fidelity: does `sdnbench controller cbench` measure what cbench measures?

    .venv/bin/python bench/engine/fidelity.py --peer /path/to/cbench [--switches 1,16] [--reps 3]
        [--controllers osken:learning,ryu:simple_switch,ovs-testcontroller,responder:rate=20000]
        [--latency] [-o fidelity.json]

For every controller and switch count, cbench and `sdnbench controller cbench` run with the same
flags (``-c 127.0.0.1 -p PORT -m LOOP_MS -l LOOPS -s N -M MACS -w 1``, ``-t`` unless --latency)
against the same controller process, alternating, ``--reps`` times each; each run's figure is
the average of cbench's ``RESULT`` line (responses/s, the first loop left out by ``-w 1``). The
ratio is sdnbench's mean over cbench's mean; the goal is every ratio within 0.85-1.15.

Controllers are started with the project's launcher (``sdnbench.controllers.lifecycle.launch``,
OpenFlow 1.0: cbench speaks nothing else), except ``responder:rate=R``: the minimal responder
throttled to R answers/s (``sdnbench-responder --rate R``), a peer whose answer is known — in
throughput mode both tools must report R, whatever their own speed.
ovs-testcontroller takes at most 16 switches.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import Responder  # noqa: E402  (this directory's bench.py)

SDNBENCH = [str(REPO / ".venv" / "bin" / "sdnbench"), "controller", "cbench", "--"]
DEFAULT = "osken:learning,ryu:simple_switch,ovs-testcontroller,responder:rate=20000"
BAND = (0.85, 1.15)


def result_avg(text: str) -> float:
    """The avg of cbench's ``RESULT: N switches K tests min/max/avg/stdev = a/b/c/d`` line."""
    m = re.search(r"RESULT: .*= ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+)", text)
    if not m:
        raise RuntimeError(f"no RESULT line in: {text.strip()[-300:]}")
    return float(m.group(3))


def run(argv: list, timeout: float) -> float:
    cp = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return result_avg(cp.stdout + cp.stderr)


@contextmanager
def controller(spec: str):
    """(host, port) of a running controller for the block."""
    if spec.startswith("responder:rate="):
        with Responder("1.0", extra=("--rate", spec.split("=", 1)[1])) as r:
            yield r.port
        return
    from sdnbench.controllers.lifecycle import launch
    with launch(spec, of_version="1.0") as ctl:
        yield ctl.port


def measure(a, spec: str, n: int) -> dict:
    flags = ["-c", "127.0.0.1", "-m", str(a.loop_ms), "-l", str(a.loops + 1), "-s", str(n),
             "-M", str(a.macs), "-w", "1"] + ([] if a.latency else ["-t"])
    limit = (a.loops + 1) * a.loop_ms / 1000 + 60
    rows = {"cbench": [], "sdnbench": []}
    with controller(spec) as port:
        for _ in range(a.reps):
            args = flags + ["-p", str(port)]
            rows["cbench"].append(run([a.peer, *args], limit))
            time.sleep(0.5)
            rows["sdnbench"].append(run(SDNBENCH + args, limit))
            time.sleep(0.5)
    means = {k: sum(v) / len(v) for k, v in rows.items()}
    ratio = means["sdnbench"] / means["cbench"] if means["cbench"] else None
    return {"controller": spec, "switches": n, "raw": rows, "mean": means, "ratio": ratio,
            "within_band": ratio is not None and BAND[0] <= ratio <= BAND[1]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer", required=True, help="the cbench binary")
    ap.add_argument("--controllers", default=DEFAULT)
    ap.add_argument("--switches", default="1,16")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--loops", type=int, default=3)
    ap.add_argument("--loop-ms", type=int, default=1000)
    ap.add_argument("--macs", type=int, default=100)
    ap.add_argument("--latency", action="store_true", help="cbench's latency mode (no -t)")
    ap.add_argument("-o", "--output", help="write the JSON here too")
    a = ap.parse_args()
    if not Path(a.peer).is_file():
        print(f"fidelity: --peer {a.peer}: no such file", file=sys.stderr)
        return 1
    out = []
    for spec in a.controllers.split(","):
        for n in (int(x) for x in a.switches.split(",")):
            try:
                r = measure(a, spec, n)
            except Exception as e:   # one controller failing must not lose the others' figures
                r = {"controller": spec, "switches": n, "error": f"{type(e).__name__}: {e}"}
            out.append(r)
            line = (f"{spec:28} {n:3} switches  cbench {r['mean']['cbench']:12.0f}  sdnbench "
                    f"{r['mean']['sdnbench']:12.0f}  ratio {r['ratio']:.3f}"
                    f"{'' if r['within_band'] else '  OUTSIDE 0.85-1.15'}") if "mean" in r else \
                f"{spec:28} {n:3} switches  error: {r['error']}"
            print(line, flush=True)
    doc = {"figure": "responses/s, sdnbench controller cbench over cbench", "mode":
           "latency" if a.latency else "throughput", "band": BAND, "rows": out}
    if a.output:
        Path(a.output).write_text(json.dumps(doc, indent=1))
    print(json.dumps(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
