#!/usr/bin/env python3
"""Fidelity: does `sdnbench controller cbench` measure what cbench measures?

    .venv/bin/python bench/engine/fidelity.py --peer /path/to/cbench [--modes latency,throughput]
        [--switches 1,4,16] [--reps 3] [--controllers osken:learning,ryu:simple_switch,...]
        [--no-mix] [--fresh] [--warm-runs N] [--pin CTRL:TOOLS] [--own-count KIND] [-o fidelity.json]

For every controller, mode and switch count, cbench and `sdnbench controller cbench` run with
the same flags against the same controller process, alternating, ``--reps`` times each. The
flags are cbench's as a user types them: ``-c 127.0.0.1 -p PORT -m 1000 -l 6 -w 1 -s N -M 1000``
for latency mode (cbench's default mode), the same plus ``-t`` for throughput. Each run's
figure is the average of cbench's ``RESULT`` line (responses/s, the first loop left out by
``-w 1``). The ratio is sdnbench's mean over cbench's mean; the goal is every ratio within
0.85-1.15.

**Reply mix.** Rates can only agree by accident when the two tools ask the controller for
different work, so each row also runs each tool once more under a capture of the controller's
port (``replymix.py``) and compares what the controller sent back, kind by kind, per request:
message type, length, flow-mod command, buffer use, packet-out actions, and how many of the
controller's messages cbench counts per answered request (unbuffered flow-mods included: its
figure's unit), beside each tool's pacing (a request's median wait for its first reply, the
median write). A row whose mixes differ fails even when its rates agree (``--no-mix`` skips the
captures).

Controllers are started with the project's launcher (``sdnbench.controllers.lifecycle.launch``,
OpenFlow 1.0: cbench speaks nothing else), so any spec works, ``cmd:`` included (POX:
``'cmd:python3 pox.py openflow.of_01 --address={host} --port={port} forwarding.l2_learning;cwd=POX_DIR;of=1.0;name=pox'``);
and two peers of our own: ``responder:rate=R``, the minimal responder throttled to R answers/s
(``sdnbench-responder --rate R``), a peer whose answer is known — in throughput mode both tools
must report R, whatever their own speed — and ``python:cost_us=C``: a single-threaded Python
controller of our own (``sdnbench/testing/peers/scripted_controller.py``) that spends C µs of CPU on
every packet-in and answers it with one flow-mod, as a Python learning switch does, but with a
known cost; it counts what it served, so each run also has the controller's own answers/s
while loaded (``own``: see ``run_counted``) beside the tools' figures — the truth both tools
should read. ``--own-count floodlight`` reads the same from a real controller, Floodlight's debug
counters of the packet-outs and flow-mods it wrote (``owncount.py``; the spec needs ``http=``).
ovs-testcontroller takes at most 16 switches; it is run at 8 where 16 is asked.

**CPU.** Each row gives the CPU each tool used over its runs (``tool_cores``): on two cores what
a tool takes, the controller lacks. ``--pin 1:0`` puts the controller on CPU 1 and both tools on
CPU 0 (``pinning.py``), so the controller has the same CPU under either tool; a ratio that moves
towards 1 when pinned was the tools' CPU, not their workload.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import Responder  # noqa: E402  (this directory's bench.py)
import owncount  # noqa: E402
import replymix  # noqa: E402
from pinning import PinError, affinity, parse_pin  # noqa: E402
from sdnbench.controllers.spec import display_name  # noqa: E402

# this checkout's sdnbench with the interpreter running the script (a worktree has no .venv of its own;
# run with PYTHONPATH at the checkout so its sdnbench, and so its engine build, is the one measured)
SDNBENCH = [sys.executable, "-m", "sdnbench", "controller", "cbench", "--"]
DEFAULT = "osken:learning,ryu:simple_switch,ovs-testcontroller,responder:rate=20000,python:cost_us=100"
BAND = (0.85, 1.15)
MAX_SWITCHES = {"ovs-testcontroller": 8}


def result_avg(text: str) -> float:
    """The avg of cbench's ``RESULT: N switches K tests min/max/avg/stdev = a/b/c/d`` line."""
    m = re.search(r"RESULT: .*= ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+)", text)
    if not m:
        raise RuntimeError(f"no RESULT line in: {text.strip()[-300:]}")
    return float(m.group(3))


def run(argv: list, timeout: float) -> float:
    cp = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return result_avg(cp.stdout + cp.stderr)


def cpu_s() -> float:
    """User + system CPU seconds of the children reaped so far (a tool and its workers)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


@contextmanager
def controller(spec: str, cpus=None, own_count=None):
    """(port, served) of a running controller for the block, started on ``cpus`` (None: any):
    ``served()`` is the number of requests it has answered by its own count, or None when it
    does not count (``own_count``: the kind of API to read it from, ``owncount.py``)."""
    with ExitStack() as stack:
        with affinity(cpus):
            port, served = stack.enter_context(started(spec, own_count))
        yield port, served


@contextmanager
def started(spec: str, own_count=None):
    if spec.startswith("responder:rate="):
        with Responder("1.0", extra=("--rate", spec.split("=", 1)[1])) as r:
            yield r.port, lambda: None
        return
    if spec.startswith("python:cost_us="):
        from sdnbench.testing.peers.scripted_controller import ScriptedController
        with ScriptedController(version=1, cost_us=float(spec.split("=", 1)[1])) as ctl:
            yield int(ctl.address.rsplit(":", 1)[1]), lambda: ctl.replies
        return
    from sdnbench.controllers.lifecycle import launch
    with launch(spec, of_version="1.0") as ctl:
        yield ctl.port, (owncount.reader(own_count, ctl.api_url) if own_count else lambda: None)


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
            n = served()
            if n is not None:       # a read of an API can fail; the next one is 0.1 s later
                samples.append((time.monotonic(), n))
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


def flags_for(a, mode: str, n: int, loops: int) -> list:
    """The cbench flags of one run (``-p`` is added per controller)."""
    return ["-c", "127.0.0.1", "-m", str(a.loop_ms), "-l", str(loops + 1), "-s", str(n),
            "-M", str(a.macs), "-w", "1"] + (["-t"] if mode == "throughput" else [])


@contextmanager
def capture(port: int, path: Path, lost: dict):
    """A capture of the controller's port into ``path`` for the block (root: tcpdump keeps it);
    ``lost["packets"]`` is what the kernel dropped (the streams are then read up to the first
    hole: a shorter sample of the same mix)."""
    td = subprocess.Popen(["tcpdump", "-Z", "root", "-i", "lo", "-s", "0", "-B", "262144", "--immediate-mode",
                           "-w", str(path), f"tcp port {port}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    try:
        first = td.stderr.readline()
        if "listening on" not in first:     # "listening on lo ...": the capture is open
            raise RuntimeError(f"tcpdump did not start: {first.strip()}")
        yield
    finally:
        td.send_signal(signal.SIGINT)
        _, err = td.communicate(timeout=10)
    m = re.search(r"\b([0-9]+) packets? dropped by kernel", err)
    lost["packets"] = int(m.group(1)) if m else None


def reply_mix(a, tool: list, port: int, mode: str, n: int) -> dict:
    """The reply mix the tool elicits in a short run (2 loops after the warm-up)."""
    with tempfile.TemporaryDirectory(prefix="sdnbench-mix-") as d:
        path = Path(d) / "mix.pcap"
        lost: dict = {}
        with capture(port, path, lost):
            run([*tool, *flags_for(a, mode, n, 2), "-p", str(port)], 2 * a.loop_ms / 1000 + 60)
            time.sleep(0.3)
        return {**replymix.mix(path, port), "capture_lost_packets": lost.get("packets")}


def measure(a, spec: str, mode: str, n: int) -> dict:
    flags = flags_for(a, mode, n, a.loops)
    limit = (a.loops + 1) * a.loop_ms / 1000 + 60
    rows = {"cbench": [], "sdnbench": []}
    own = {"cbench": [], "sdnbench": []}
    tools = {"cbench": [a.peer], "sdnbench": SDNBENCH}
    cores = {"cbench": [], "sdnbench": []}   # each run's CPU over its wall time (the tool's share)

    def one(tool: str, port: int, served) -> None:
        c0, t0 = cpu_s(), time.monotonic()
        figure, mine = run_counted([*tools[tool], *flags, "-p", str(port)], limit, served)
        cores[tool].append((cpu_s() - c0) / (time.monotonic() - t0))
        rows[tool].append(figure)
        if mine is not None:
            own[tool].append(mine)
        time.sleep(0.5)

    warm = {"cbench": [], "sdnbench": []}

    def warm_up(which: tuple, port: int) -> None:
        """``--warm-runs`` runs of each tool on a new controller process, figures kept apart:
        the first runs on a JVM are its JIT warm-up and its slow first handshakes, and the
        alternation would otherwise give them all to cbench, which always goes first."""
        for _ in range(a.warm_runs):
            for tool in which:
                warm[tool].append(run([*tools[tool], *flags, "-p", str(port)], limit))
                time.sleep(0.5)

    mixes = {}
    if a.fresh:     # a controller process of its own for every run
        for _ in range(a.reps):
            for tool in ("cbench", "sdnbench"):
                with controller(spec, a.pin_controller, a.own_count) as (port, served):
                    warm_up((tool,), port)
                    one(tool, port, served)
    else:
        with controller(spec, a.pin_controller, a.own_count) as (port, served):
            warm_up(("cbench", "sdnbench"), port)
            for _ in range(a.reps):
                for tool in ("cbench", "sdnbench"):
                    one(tool, port, served)
    if a.mix:   # each tool on a controller of its own: neither inherits the other's state
        for tool in ("cbench", "sdnbench"):
            with controller(spec, a.pin_controller) as (port, _):
                mixes[tool] = reply_mix(a, tools[tool], port, mode, n)
    means = {k: sum(v) / len(v) for k, v in rows.items()}
    ratio = means["sdnbench"] / means["cbench"] if means["cbench"] else None
    differ = replymix.mixes_differ(mixes["sdnbench"], mixes["cbench"]) if mixes else None
    return {"controller": spec, "mode": mode, "switches": n, "fresh": a.fresh, "raw": rows, "mean": means,
            "warm_up_runs": warm if a.warm_runs else None,
            "tool_cores": {k: statistics.mean(v) for k, v in cores.items() if v},
            "ratio": ratio, "own_answers_per_s": {k: v for k, v in own.items() if v} or None,
            "within_band": ratio is not None and BAND[0] <= ratio <= BAND[1],
            "reply_mix": mixes or None, "mixes_differ": differ,
            "passed": ratio is not None and BAND[0] <= ratio <= BAND[1] and not differ}


def row_line(r: dict) -> str:
    """One printed line per row, then the mix side by side."""
    head = f"{display_name(r['controller'])[:28]:28} {r['mode']:10} {r['switches']:3} sw"
    if "mean" not in r:
        return f"{head}  error: {r['error']}"
    own = r.get("own_answers_per_s") or {}
    line = (f"{head}  cbench {r['mean']['cbench']:10.0f}  sdnbench {r['mean']['sdnbench']:10.0f}  "
            f"ratio {r['ratio']:.3f}" if r["ratio"] is not None else f"{head}  cbench read 0")
    line += "" if r["within_band"] else "  OUTSIDE 0.85-1.15"
    line += "".join(f"  own/s under {k} {sum(v) / len(v):,.0f}" for k, v in own.items())
    line += "  tool CPU " + " / ".join(f"{k} {v:.2f}" for k, v in (r.get("tool_cores") or {}).items())
    for k in r.get("mixes_differ") or []:
        line += f"\n    MIX DIFFERS {k}"
    for tool, m in (r.get("reply_mix") or {}).items():
        top = sorted(m["per_answered"].items(), key=lambda kv: -kv[1])[:3]
        lost = f", capture lost {m['capture_lost_packets']} packets" if m.get("capture_lost_packets") else ""
        line += f"\n    {tool:8} mix ({m['answered']} answered{lost}): " + "; ".join(f"{v:.2f} {k}" for k, v in top)
        if m.get("counted_per_answered") is not None:   # cbench's unit, and the queue the tool kept
            line += (f"\n    {tool:8} counted per answered {m['counted_per_answered']:.2f}, "
                     f"wait {m['delay_ms_median']} ms, writes {m['write_bytes_median']} B (medians)")
    return line


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer", required=True, help="the cbench binary")
    ap.add_argument("--controllers", default=DEFAULT)
    ap.add_argument("--modes", default="latency,throughput")
    ap.add_argument("--switches", default="1,4,16")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--loops", type=int, default=5, help="measured loops (cbench -l is one more: -w 1)")
    ap.add_argument("--loop-ms", type=int, default=1000)
    ap.add_argument("--macs", type=int, default=1000)
    ap.add_argument("--no-mix", dest="mix", action="store_false", help="skip the reply-mix captures")
    ap.add_argument("--fresh", action="store_true",
                    help="start the controller anew for every run (cbench after another run on the same "
                         "known-answer peer reads low at 16 switches; see docs/engine-figures.md)")
    ap.add_argument("--warm-runs", type=int, default=0,
                    help="runs of each tool on every new controller process before the measured reps, left "
                         "out of the ratio (raw figures under warm_up_runs): a JVM controller's first runs "
                         "are its warm-up (docs/engine-figures.md, Floodlight)")
    ap.add_argument("--pin", metavar="CTRL:TOOLS",
                    help="the controller on CPUs CTRL and both tools on CPUs TOOLS (e.g. 1:0): the controller "
                         "then has the same CPU under either tool")
    ap.add_argument("--own-count", choices=owncount.KINDS,
                    help="read the controller's own count of answers written from its API during every run "
                         "(owncount.py; the spec needs http=): the referee beside both tools' figures")
    ap.add_argument("-o", "--output", help="write the JSON here too")
    a = ap.parse_args()
    try:
        a.pin_controller, tool_cpus = parse_pin(a.pin) if a.pin else (None, None)
    except PinError as e:
        print(f"fidelity: {e}", file=sys.stderr)
        return 1
    if tool_cpus:
        os.sched_setaffinity(0, tool_cpus)
    if not Path(a.peer).is_file():
        print(f"fidelity: --peer {a.peer}: no such file", file=sys.stderr)
        return 1
    modes = a.modes.split(",")
    if set(modes) - {"latency", "throughput"}:
        print(f"fidelity: --modes {a.modes}: latency and/or throughput", file=sys.stderr)
        return 1
    out, code = [], 0
    try:
        for spec in a.controllers.split(","):
            cap = next((v for k, v in MAX_SWITCHES.items() if spec.startswith(k)), None)
            counts = sorted({min(int(x), cap) if cap else int(x) for x in a.switches.split(",")})
            for mode in modes:
                for n in counts:
                    try:
                        r = measure(a, spec, mode, n)
                    except Exception as e:   # one controller failing must not lose the others' figures
                        r = {"controller": spec, "mode": mode, "switches": n, "error": f"{type(e).__name__}: {e}"}
                    out.append(r)
                    print(row_line(r), flush=True)
    except KeyboardInterrupt:   # the launcher has stopped the controller; keep the rows so far
        print(f"fidelity: interrupted after {len(out)} rows", file=sys.stderr)
        code = 130
    doc = {"figure": "responses/s, sdnbench controller cbench over cbench", "band": BAND, "pin": a.pin, "rows": out}
    if a.output:
        Path(a.output).write_text(json.dumps(doc, indent=1))
    print(json.dumps(doc))
    return code


if __name__ == "__main__":
    sys.exit(main())
