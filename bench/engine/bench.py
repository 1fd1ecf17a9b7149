#!/usr/bin/env python3
"""Engine performance figures, each against a baseline measured in the same run.

    .venv/bin/python bench/engine/bench.py efficiency [--peer /path/to/cbench] [--switches 16]
                                                      [--baseline-engine /path/to/old/sdnbench-engine]
    .venv/bin/python bench/engine/bench.py lowrate    [--answer-rate 10000]
    .venv/bin/python bench/engine/bench.py latency    [--peer /path/to/cbench] [--seconds 3]
    .venv/bin/python bench/engine/bench.py scale      [--switches 100000]
    .venv/bin/python bench/engine/bench.py all        [--peer ...]

- efficiency: answered requests per second of engine CPU against the minimal responder
  (`sdnbench-responder`, one flow-mod per packet-in, OpenFlow 1.0), and, with --peer, the same
  for cbench (its responses, which equal answered requests against this responder). Both send
  the same bytes per request (a 64-byte frame, cbench's fixed size; --frame-size). CPU is the
  whole process tree's user+system time (getrusage of the child), for both tools alike.
  The `limit` row (see limit.py) is a bulk loopback TCP transfer in the same run: CPU per byte
  sent and received times the bytes per request (packet-in out, 80-byte flow-mod in) gives the
  requests per CPU-second that moving the bytes alone allows; the engine's figure is reported as
  a fraction of it (G1: >= 90%), cbench's too with --peer. --baseline-engine runs a second engine
  binary (e.g. the pre-redesign one) in the same reps, interleaved, for an old-vs-new ratio.
- lowrate: engine CPU per answered request (us) against the responder throttled to
  --answer-rate answers/s (`--rate`, G1b: <= 5 us), beside the same engine's CPU per answered
  request against the unthrottled responder in the same run (the ratio says what idling costs);
  with --baseline-engine, that engine against the same throttled responder too.
- latency: one switch in latency mode. The engine's median RTT against a raw blocking
  ping-pong (`sdnbench-pingpong`, same responder, same packet-in size), and its CPU use as a
  percentage of one core; with --peer, cbench's latency-mode CPU.
- scale: N switches held open against a multi-process responder (SO_REUSEPORT): handshake
  time and rate, sessions up, total engine RSS, at a modest fixed rate so the machine is not
  saturated by traffic.

Without cbench the figures are the engine's own. Nothing here asserts a time: it prints.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import limit  # noqa: E402  (this directory's limit.py)

REPO = Path(__file__).resolve().parents[2]
BIN = REPO / "target" / "release"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Responder:
    def __init__(self, of: str = "1.0", procs: int = 1, extra: tuple = ()):
        self.port = free_port()
        self.p = subprocess.Popen([str(BIN / "sdnbench-responder"), "--listen", f"127.0.0.1:{self.port}",
                                   "--of", of, "--procs", str(procs), *extra], start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise SystemExit("responder did not start")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.killpg(self.p.pid, signal.SIGTERM)
        self.p.wait(10)


def timed(argv: list) -> tuple:
    """Run argv to completion; (stdout, cpu seconds of it and its children, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    cp = subprocess.run(argv, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if cp.returncode not in (0, 2):
        raise SystemExit(f"{argv[0]} failed ({cp.returncode}): {cp.stderr.strip()[-300:]}")
    return cp.stdout, cpu, wall


def engine(args: list, binary: str = str(BIN / "sdnbench-engine")) -> tuple:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "r.json"
        _, cpu, wall = timed([binary, *args, "--json", str(out), "--quiet"])
        return json.loads(out.read_text()), cpu, wall


def cbench_total(stdout: str, loop_ms: int) -> float:
    """Responses over all loops, from cbench's per-loop 'total = X per ms' lines."""
    per_ms = [float(x) for x in re.findall(r"total = ([0-9.]+) per ms", stdout)]
    return sum(per_ms) * loop_ms


def _engine_row(a, port: int, binary: str, extra: tuple = ()) -> dict:
    doc, cpu, wall = engine(["--controller", f"127.0.0.1:{port}", "--of", "1.0", "--switches", str(a.switches),
                             "--loops", str(a.loops), "--loop-ms", str(a.loop_ms), "--warmup", "1",
                             "--macs", "1000", "--window", str(a.window), "--frame-size", str(a.frame_size),
                             *extra], binary)
    ans = doc["totals"]["requests_answered"]
    row = {"answered": ans, "cpu_s": cpu, "wall_s": wall, "per_cpu_s": ans / cpu if cpu else 0.0,
           "cpu_us_per_answered": 1e6 * cpu / ans if ans else None, "mean_rps": doc["throughput"]["mean"]}
    eff = doc.get("efficiency") or {}          # the engine's own measured-loops figure (newer engines)
    if eff.get("measured_answered"):
        row["measured_cpu_us_per_answered"] = 1e6 * eff["engine_cpu_s"] / eff["measured_answered"]
    return row


def efficiency(a) -> dict:
    n, loops, ms = a.switches, a.loops, a.loop_ms
    rows = {}
    out_bytes, in_bytes = 18 + a.frame_size, 80     # OF1.0 packet-in (header + frame), flow-mod
    with Responder("1.0") as r:
        for rep in range(a.reps):
            # ABBA: the two engines alternate which runs first in a rep (the first run after a
            # start reads low; measured: always-first cost the engine 4% against the baseline)
            engines = [("engine", str(BIN / "sdnbench-engine"))] + ([("engine-baseline", a.baseline_engine)]
                                                                   if a.baseline_engine else [])
            for name, binary in (engines if rep % 2 == 0 else engines[::-1]):
                rows.setdefault(name, []).append(_engine_row(a, r.port, binary))
            bulk = limit.bulk_transfer(seconds=2.0)
            rows.setdefault("limit", []).append(
                {**bulk, "bytes_out_per_request": out_bytes, "bytes_in_per_request": in_bytes,
                 "per_cpu_s": limit.requests_per_cpu_s(bulk, out_bytes, in_bytes)})
            if a.peer:
                out, cpu, wall = timed([a.peer, "-c", "127.0.0.1", "-p", str(r.port), "-m", str(ms),
                                        "-l", str(loops + 1), "-s", str(n), "-M", "1000", "-t", "-w", "1"])
                total = cbench_total(out, ms)
                rows.setdefault("cbench", []).append({"answered": total, "cpu_s": cpu, "wall_s": wall,
                                                      "per_cpu_s": total / cpu if cpu else 0.0,
                                                      "result": next((l for l in out.splitlines() if l.startswith("RESULT")), "")})
    s = summarize("answered requests per engine CPU-second", rows, "per_cpu_s")
    m = s["mean"]
    for k in ("engine", "cbench", "engine-baseline"):
        if k in m and m.get("limit"):
            s[f"fraction_of_limit_{k}"] = m[k] / m["limit"]
    if m.get("engine-baseline"):
        s["ratio_engine_over_baseline_engine"] = m["engine"] / m["engine-baseline"]
    return s


def lowrate(a) -> dict:
    """Engine CPU per answered request against a throttled responder, and unthrottled (same run)."""
    a.window = min(a.window, 64)
    rows = {}
    with Responder("1.0", extra=("--rate", str(a.answer_rate))) as slow, Responder("1.0") as fast:
        for rep in range(a.reps):
            runs = [("engine-throttled", slow.port, str(BIN / "sdnbench-engine")),
                    ("engine-full-speed", fast.port, str(BIN / "sdnbench-engine"))]
            if a.baseline_engine:
                runs.append(("engine-baseline-throttled", slow.port, a.baseline_engine))
            for name, port, binary in runs:
                rows.setdefault(name, []).append(_engine_row(a, port, binary, ("--no-learn",)))
    s = summarize(f"engine CPU us per answered request (whole process, handshake included), responder "
                  f"throttled to {a.answer_rate:g}/s vs unthrottled", rows, "cpu_us_per_answered")
    s["mean_measured_loops_only"] = {k: _mean([x.get("measured_cpu_us_per_answered", 0.0) for x in v])
                                     for k, v in rows.items()}
    m = s["mean"]
    s["answered_per_s_throttled"] = _mean([x["answered"] / x["wall_s"] for x in rows["engine-throttled"]])
    if m.get("engine-full-speed"):
        s["ratio_throttled_over_full_speed"] = m["engine-throttled"] / m["engine-full-speed"]
    if m.get("engine-baseline-throttled"):
        s["ratio_throttled_over_baseline_engine_throttled"] = m["engine-throttled"] / m["engine-baseline-throttled"]
    s["goal_G1b_us"] = 5.0
    return s


def latency(a) -> dict:
    rows = {}
    with Responder("1.0") as r:  # OpenFlow 1.0 throughout: cbench speaks nothing else
        for rep in range(a.reps):
            out, cpu, wall = timed([str(BIN / "sdnbench-pingpong"), "--connect", f"127.0.0.1:{r.port}",
                                    "--of", "1.0", "--seconds", str(a.seconds)])
            pp = json.loads(out)
            rows.setdefault("pingpong", []).append({"p50_us": pp["p50_us"], "cpu_percent": 100 * cpu / wall})
            doc, cpu, wall = engine(["--controller", f"127.0.0.1:{r.port}", "--of", "1.0", "--mode", "latency", "--switches", "1",
                                     "--loops", str(int(a.seconds)), "--loop-ms", "1000", "--warmup", "0",
                                     "--macs", "1", "--no-learn"])
            eng = next(p for p in doc["resources"]["processes"] if p["label"] == "engine")
            rows.setdefault("engine", []).append({"p50_us": doc["latency"]["p50"],
                                                  "p99_us": doc["latency"]["p99"],
                                                  "cpu_percent": sum(eng["cpu_percent"]) / len(eng["cpu_percent"])})
            if a.peer:
                _, cpu, wall = timed([a.peer, "-c", "127.0.0.1", "-p", str(r.port), "-m", "1000",
                                      "-l", str(int(a.seconds) + 1), "-s", "1", "-M", "1", "-w", "1"])
                rows.setdefault("cbench", []).append({"cpu_percent": 100 * cpu / wall})
    s = summarize("median RTT (us), engine latency mode vs raw ping-pong", rows, "p50_us")
    s["cpu_percent_of_one_core"] = {k: _mean([x["cpu_percent"] for x in v]) for k, v in rows.items()}
    return s


def scale(a) -> dict:
    procs = max(1, -(-a.switches // 15000))
    with Responder("1.3", procs=procs) as r:
        doc, cpu, wall = engine(["--controller", f"127.0.0.1:{r.port}", "--mode", "fixed-rate",
                                 "--rate", str(a.rate), "--switches", str(a.switches), "--loops", "2",
                                 "--loop-ms", "1000", "--warmup", "0", "--macs", "1", "--no-learn",
                                 "--connect-timeout-ms", "60000"])
    rss = sum(max(p["rss_bytes"] or [0]) for p in doc["resources"]["processes"] if p["label"] != "controller")
    h = doc["handshake"]
    return {"figure": "sessions held against the responder", "switches": a.switches,
            "sessions_up": h["sessions_up"], "sessions_failed": h["sessions_failed"],
            "disconnects": doc["totals"]["disconnects"], "handshake_s": h["duration_s"],
            "handshake_rate_per_s": h["rate_per_s"], "engine_rss_total_mib": rss / 2**20,
            "workers": doc["engine"]["workers"], "source_addrs": len(doc["engine"]["source_addrs"]),
            "responder_procs": procs, "answered_at_fixed_rate": doc["totals"]["requests_answered"],
            "engine_cpu_s": cpu, "wall_s": wall, "warnings": doc["warnings"]}


def _mean(v):
    return sum(v) / len(v) if v else 0.0


def summarize(figure: str, rows: dict, key: str) -> dict:
    s = {"figure": figure, "raw": rows,
         "mean": {k: _mean([x[key] for x in v]) for k, v in rows.items() if all(key in x for x in v)}}
    base = "cbench" if "cbench" in rows and key == "per_cpu_s" else "pingpong" if "pingpong" in rows else None
    if base and "engine" in s["mean"] and s["mean"].get(base):
        s["ratio_engine_over_" + base] = s["mean"]["engine"] / s["mean"][base]
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["efficiency", "lowrate", "latency", "scale", "all"])
    ap.add_argument("--baseline-engine", help="a second sdnbench-engine binary for efficiency (old vs new)")
    ap.add_argument("--answer-rate", type=float, default=10000, help="lowrate: the responder's answers/s")
    ap.add_argument("--peer", help="a cbench binary to compare with (optional)")
    ap.add_argument("--switches", type=int, default=None)
    ap.add_argument("--loops", type=int, default=5)
    ap.add_argument("--loop-ms", type=int, default=1000)
    ap.add_argument("--window", type=int, default=1024)
    ap.add_argument("--frame-size", type=int, default=64,
                    help="engine packet-in frame bytes for efficiency (64: cbench's 82-byte packet-in carries a 64-byte frame)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--rate", type=float, default=20000)
    a = ap.parse_args()
    if a.peer and not os.access(a.peer, os.X_OK):
        print(f"--peer {a.peer}: not an executable", file=sys.stderr)
        return 1
    out = {}
    if a.baseline_engine and not os.access(a.baseline_engine, os.X_OK):
        print(f"--baseline-engine {a.baseline_engine}: not an executable", file=sys.stderr)
        return 1
    for w in (["efficiency", "lowrate", "latency", "scale"] if a.what == "all" else [a.what]):
        a2 = argparse.Namespace(**vars(a))
        if a2.switches is None:
            a2.switches = 100_000 if w == "scale" else 16
        out[w] = {"efficiency": efficiency, "lowrate": lowrate, "latency": latency, "scale": scale}[w](a2)
        print(json.dumps({w: out[w]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
