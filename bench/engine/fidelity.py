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
throughput mode both tools must report R, whatever their own speed — and ``python:cost_us=C``:
a single-threaded Python controller of our own (``sdnbench/engine/scripted_controller.py``)
that spends C µs of CPU on every packet-in and answers it with one flow-mod, as a Python
learning switch does, but with a known cost; it counts what it served, so each run also has
the controller's own answers/s while loaded (``own``: see ``run_counted``) beside the tools'
figures — the truth both tools should read.
ovs-testcontroller takes at most 16 switches.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import Responder  # noqa: E402  (this directory's bench.py)

SDNBENCH = [str(REPO / ".venv" / "bin" / "sdnbench"), "controller", "cbench", "--"]
DEFAULT = "osken:learning,ryu:simple_switch,ovs-testcontroller,responder:rate=20000,python:cost_us=100"
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
    """(port, served) of a running controller for the block: ``served()`` is the number of
    requests it has answered by its own count, or None when it does not count."""
    if spec.startswith("responder:rate="):
        with Responder("1.0", extra=("--rate", spec.split("=", 1)[1])) as r:
            yield r.port, lambda: None
        return
    if spec.startswith("python:cost_us="):
        from sdnbench.engine.scripted_controller import ScriptedController
        with ScriptedController(version=1, cost_us=float(spec.split("=", 1)[1])) as ctl:
            yield int(ctl.address.rsplit(":", 1)[1]), lambda: ctl.replies
        return
    from sdnbench.controllers.lifecycle import launch
    with launch(spec, of_version="1.0") as ctl:
        yield ctl.port, lambda: None


def run_counted(argv: list, timeout: float, served) -> tuple:
    """(the tool's figure, the controller's own answers/s while the tool loaded it, or None).

    The own figure is the median of the controller's 1-s windows (sampled every 0.1 s, sliding)
    whose rate is at least half the busiest one: the steady state, without the tool's start-up,
    learning and drain, which a whole-run average would mix in."""
    if served() is None:
        return run(argv, timeout), None
    samples, stop = [], threading.Event()

    def sample():
        while not stop.is_set():
            samples.append((time.monotonic(), served()))
            time.sleep(0.1)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    try:
        figure = run(argv, timeout)
    finally:
        stop.set()
        t.join()
    return figure, steady_rate(samples)


def steady_rate(samples: list, window_s: float = 1.0):
    """Median rate of the sliding ``window_s`` windows at >= half the busiest (see run_counted)."""
    rates = []
    for i, (t0, n0) in enumerate(samples):
        j = next((k for k in range(i, len(samples)) if samples[k][0] - t0 >= window_s), None)
        if j is None:
            break
        rates.append((samples[j][1] - n0) / (samples[j][0] - t0))
    busy = [r for r in rates if rates and r >= 0.5 * max(rates)]
    return statistics.median(busy) if busy else None


def measure(a, spec: str, n: int) -> dict:
    flags = ["-c", "127.0.0.1", "-m", str(a.loop_ms), "-l", str(a.loops + 1), "-s", str(n),
             "-M", str(a.macs), "-w", "1"] + ([] if a.latency else ["-t"])
    limit = (a.loops + 1) * a.loop_ms / 1000 + 60
    rows = {"cbench": [], "sdnbench": []}
    own = {"cbench": [], "sdnbench": []}

    def one(tool: str, port: int, served) -> None:
        args = flags + ["-p", str(port)]
        figure, mine = run_counted([a.peer, *args] if tool == "cbench" else SDNBENCH + args, limit, served)
        rows[tool].append(figure)
        if mine is not None:
            own[tool].append(mine)
        time.sleep(0.5)

    if a.fresh:     # a controller process of its own for every run
        for _ in range(a.reps):
            for tool in ("cbench", "sdnbench"):
                with controller(spec) as (port, served):
                    one(tool, port, served)
    else:
        with controller(spec) as (port, served):
            for _ in range(a.reps):
                for tool in ("cbench", "sdnbench"):
                    one(tool, port, served)
    means = {k: sum(v) / len(v) for k, v in rows.items()}
    ratio = means["sdnbench"] / means["cbench"] if means["cbench"] else None
    return {"controller": spec, "switches": n, "fresh": a.fresh, "raw": rows, "mean": means, "ratio": ratio,
            "own_answers_per_s": {k: v for k, v in own.items() if v} or None,
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
    ap.add_argument("--fresh", action="store_true",
                    help="start the controller anew for every run (cbench after another run on the same "
                         "known-answer peer reads low at 16 switches; see docs/engine-figures.md)")
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
            own = r.get("own_answers_per_s") or {}
            line = (f"{spec:28} {n:3} switches  cbench {r['mean']['cbench']:12.0f}  sdnbench "
                    f"{r['mean']['sdnbench']:12.0f}  ratio {r['ratio']:.3f}"
                    f"{'' if r['within_band'] else '  OUTSIDE 0.85-1.15'}"
                    + "".join(f"  own/s under {k} {sum(v) / len(v):,.0f}" for k, v in own.items())) if "mean" in r else \
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
