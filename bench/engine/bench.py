#!/usr/bin/env python3
"""Engine performance figures, each against a baseline measured in the same run.

    .venv/bin/python bench/engine/bench.py efficiency [--peer /path/to/cbench] [--switches 16]
                                                      [--baseline-engine /path/to/old/sdnbench-engine]
    .venv/bin/python bench/engine/bench.py instructions [--peer /path/to/cbench] [--loops 2]
                                                      [--baseline-engine /path/to/old/sdnbench-engine]
    .venv/bin/python bench/engine/bench.py counts [--baseline-engine OLD] [--peer CBENCH] [--counts-switches 10000] [--rate 10000]
    .venv/bin/python bench/engine/bench.py lowrate    [--answer-rate 10000]
    .venv/bin/python bench/engine/bench.py latency    [--peer /path/to/cbench] [--seconds 3]
    .venv/bin/python bench/engine/bench.py scale      [--switches 100000] [--c-client] [--tls]
    .venv/bin/python bench/engine/bench.py held       --switches 1000000 --echo-every-ms 60000 --rates 10000,15000,20000
    .venv/bin/python bench/engine/bench.py tls        [--sizes 1000,10000,100000]
    .venv/bin/python bench/engine/bench.py copy       [--reps 3]
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
- instructions: user-space instructions per answered request, engine against cbench (and
  --baseline-engine), the efficiency workload under valgrind's cachegrind (see instructions.py:
  kernel work is not counted; this VM's CPU counters, hence cycles, cannot be read).
- counts: the kernel's software counters per answered request (swcounts.py: context switches,
  system calls, and of them epoll_wait, poll, read, write, recvfrom, sendto, futex; CPU), the engine
  against --baseline-engine and cbench (--peer; one of the two at least), alternating over
  --reps, on the efficiency workload, and against the baseline on a fixed-rate one
  (--counts-switches at --rate): the wake-ups and kernel entries per unit of work, in counts
  that do not depend on this VM's missing CPU counters.
- lowrate: engine CPU per answered request (us) against the responder throttled to
  --answer-rate answers/s (`--rate`, G1b: <= 5 us), beside the same engine's CPU per answered
  request against the unthrottled responder in the same run (the ratio says what idling costs);
  with --baseline-engine, that engine against the same throttled responder too.
- latency: one switch in latency mode. The engine's median RTT against a raw blocking
  ping-pong (`sdnbench-pingpong`, same responder, same packet-in size), and its CPU use as a
  percentage of one core; with --peer, cbench's latency-mode CPU.
- scale: N switches held open against a multi-process responder (SO_REUSEPORT, one process
  per 19,000 sessions): handshake time and rate (overall and per tenth of N), CPU per handshake
  of both sides, sessions up/failed/lost, peak RSS per session of each side, the kernel's socket
  memory (/proc/net/sockstat) and slab per session, the kernel's TCP drop/retransmit counters,
  at a modest fixed rate so the machine is not saturated by traffic. Keep-alive: one echo per
  switch every --echo-interval-ms (60,000 here; see SCALE_ECHO_MS), at least twice --echo-every-ms
  (idle_probe_ms); off with --c-client unless given, as the C client has none. --bin-dir runs an older build.
  Load at scale (issue 42): --rate R --load-loops L gives L loops of 1 s at R requests/s over all
  switches after the handshakes, --echo-every-ms E a periodic keep-alive echo from every switch
  under that load; the engine's `load` section is printed per loop (offered, sent, answered, late,
  lost, backlog, p50/p99/p99.9) with the echoes (sent, answered, lost, latency), and whether the
  sender kept up. --c-client first brings up the same N sessions with a minimal C client
  (hsclient.c, built with cc here) against the same responder and prints its handshake rate and
  CPU beside the engine's: the kernel's floor for a TCP connection + OpenFlow handshake; with
  --load-loops >= 3 the C client then carries the same load (--rate, --echo-every-ms, as many
  seconds as loops) over its sessions, and both sides' cores and CPU per round trip are read over
  the middle of it (cclient.py): the floor for the engine's load at scale. The figures over time
  come from a sampler thread reading /proc every 0.5 s, at nice -10 once the sessions are up
  (sampler.py, as root), so it keeps its pace in the load among the run's busy processes;
  `sampler` gives its nice and from when, its CPU seconds, samples and longest gaps. The C client
  runs under the same sampler (`c_client.sampler`), so its cost falls on both sides alike. Each
  side starts once the sockets another run left in TIME_WAIT are under 1% of N (at most 75 s:
  `time_wait_waits`; --time-wait keep starts at once, the engine then beside the C client's N).
  --tls (issue 51): the sessions over TLS. The responder speaks TLS (rustls, its controller
  certificate, client certificates required), the engine presents the switch certificate
  (`--tls-versions`, both offered by default), and with --c-client hsclient.c does the same on
  OpenSSL first: the floor of a TLS session, and the engine's rate and CPU per session as ratios
  of it (handshakes only over TLS: no load phase). The certificates are `sdnbench certs`' set.
- held: `scale --c-client` at each of --rates (lowest first; stops after a rate neither side
  held), same --switches, --echo-every-ms, --load-loops and --timeout-ms: per rate each side's
  verdict (held, unsettled, lost) with its lost, late and unsettled counts (printed as a table on
  stderr), the highest load each side held in round trips/s (requests + echoes), and the
  engine's over the C client's. Both drain min(--timeout-ms, 10 s) after the load (held.py says
  what "held" is). --responder-delay-us delays every answer (a known answer's responder).
- copy: this machine's kernel cost per byte received into a buffer at 0, 8, 16, 32, 64, 2,048 and
  2,064 bytes into a page, the data at 0 of its (copycost.py): why the engine's reads land on a
  64-byte line, and whether a CPU cares.
- tls: `scale --c-client` over TCP and over TLS at each of --sizes, in one run, the order of the
  two alternating from size to size (ABBA): per size, each side's set-up rate, CPU per session
  of both sides and memory per session, TCP and TLS, and TLS's cost as ratios.

--pin PEER:TOOLS (say 1:0) puts the responder on the CPUs PEER and every tool (the engine and its
baseline, cbench, the C client, limit's transfer) on TOOLS (pinning.py), for every figure: each
tool's CPU per answer without the scheduler moving it or waking it across cores. The output
names the pin (`pin`).

Without cbench the figures are the engine's own. Nothing here asserts a time: it prints.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cclient  # noqa: E402  (this directory's cclient.py)
import copycost  # noqa: E402  (this directory's copycost.py)
import held  # noqa: E402  (this directory's held.py)
import instructions  # noqa: E402  (this directory's instructions.py)
import swcounts  # noqa: E402  (this directory's swcounts.py)
import kernel_probe  # noqa: E402
import limit  # noqa: E402  (this directory's limit.py)
import sampler  # noqa: E402  (this directory's sampler.py)
from scale_netns import ScaleNetns  # noqa: E402
from pinning import PinError, affinity, parse_pin  # noqa: E402
from sdnbench.controllers.ofhello import free_port  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
BIN = REPO / "target" / "release"
RESPONDER_CPUS = None   # --pin's first set: the responder runs there, everything else on the second


def tls_files() -> tuple:
    """(the responder's flags, the engine's `tls` config field, the C client's (ca, cert, key))
    over TLS, from `sdnbench certs`' set (one CA signs the controller's certificate and the switch's)."""
    from sdnbench.tls.certs import ensure
    cs = ensure()
    c, w = cs.controller, cs.switch
    return (("--tls-cert", str(c.cert), "--tls-key", str(c.key), "--tls-ca", str(c.ca)),
            {"ca": str(w.ca), "cert": str(w.cert), "key": str(w.key)},
            (str(w.ca), str(w.cert), str(w.key)))


class Responder:
    def __init__(self, of: str = "1.0", procs: int = 1, extra: tuple = (), prefix: tuple = ()):
        self.port = free_port()
        with affinity(RESPONDER_CPUS):
            self.p = subprocess.Popen([*prefix, str(BIN / "sdnbench-responder"), "--listen", f"127.0.0.1:{self.port}",
                                       "--of", of, "--procs", str(procs), *extra], start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._listening(prefix):
                return
            time.sleep(0.05)
        raise SystemExit("responder did not start")

    def _listening(self, prefix: tuple) -> bool:
        if prefix:  # in a namespace: its /proc/PID/net/tcp lists the listener (state 0A)
            return f":{self.port:04X} 00000000:0000 0A" in Path(f"/proc/{self.p.pid}/net/tcp").read_text()
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.killpg(self.p.pid, signal.SIGTERM)
        self.p.wait(10)


def timed_split(argv: list) -> tuple:
    """Run argv to completion; (stdout, user and system CPU seconds of it and its children, wall
    seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    cp = subprocess.run(argv, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cp.returncode not in (0, 2):
        raise SystemExit(f"{argv[0]} failed ({cp.returncode}): {cp.stderr.strip()[-300:]}")
    return cp.stdout, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, wall


def timed(argv: list) -> tuple:
    """Run argv to completion; (stdout, cpu seconds of it and its children, wall seconds)."""
    out, user, system, wall = timed_split(argv)
    return out, user + system, wall


def _cpu_split(row: dict, user: float, system: float) -> dict:
    """`row` with its CPU split: user and system seconds and ns of each per answered request."""
    ans = row["answered"]
    return {**row, "user_s": user, "sys_s": system, "sys_share": system / (user + system) if user + system else None,
            "user_ns_per_answered": 1e9 * user / ans if ans else None,
            "sys_ns_per_answered": 1e9 * system / ans if ans else None}


def engine_split(args: list, binary: str = str(BIN / "sdnbench-engine"), wrap=lambda argv: argv) -> tuple:
    """Run the engine; (its JSON result, user and system CPU seconds, wall seconds)."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "r.json"
        _, user, system, wall = timed_split(wrap([binary, *args, "--json", str(out), "--quiet"]))
        return json.loads(out.read_text()), user, system, wall


def engine(args: list, binary: str = str(BIN / "sdnbench-engine"), wrap=lambda argv: argv) -> tuple:
    doc, user, system, wall = engine_split(args, binary, wrap)
    return doc, user + system, wall


def cbench_total(stdout: str, loop_ms: int) -> float:
    """Responses over all loops, from cbench's per-loop 'total = X per ms' lines."""
    per_ms = [float(x) for x in re.findall(r"total = ([0-9.]+) per ms", stdout)]
    return sum(per_ms) * loop_ms


def _throughput_args(a, port: int) -> list:
    """The engine's side of the efficiency workload (cbench's: `_cbench_argv`)."""
    return ["--controller", f"127.0.0.1:{port}", "--of", "1.0", "--switches", str(a.switches),
            "--loops", str(a.loops), "--loop-ms", str(a.loop_ms), "--warmup", "1",
            "--macs", "1000", "--window", str(a.window), "--frame-size", str(a.frame_size)]


def _engine_row(a, port: int, binary: str, extra: tuple = ()) -> dict:
    doc, user, system, wall = engine_split([*_throughput_args(a, port), *extra], binary)
    ans, cpu = doc["totals"]["requests_answered"], user + system
    row = {"answered": ans, "cpu_s": cpu, "wall_s": wall, "per_cpu_s": ans / cpu if cpu else 0.0,
           "cpu_us_per_answered": 1e6 * cpu / ans if ans else None, "mean_rps": doc["throughput"]["mean"]}
    eff = doc.get("efficiency") or {}          # the engine's own measured-loops figure (newer engines)
    if eff.get("measured_answered"):
        row["measured_cpu_us_per_answered"] = 1e6 * eff["engine_cpu_s"] / eff["measured_answered"]
    return _cpu_split(row, user, system)


def efficiency(a) -> dict:
    rows = {}
    out_bytes, in_bytes = 18 + a.frame_size, 80     # OF1.0 packet-in (header + frame), flow-mod
    with Responder("1.0") as r:
        runs = [("engine", lambda: _engine_row(a, r.port, str(BIN / "sdnbench-engine")))]
        if a.baseline_engine:
            runs.append(("engine-baseline", lambda: _engine_row(a, r.port, a.baseline_engine)))
        if a.peer:
            runs.append(("cbench", lambda: _cbench_row(a, r.port)))
        for rep in range(a.reps):
            # ABBA: the engine, its baseline and cbench alternate which runs first in a rep (the
            # first run after a start reads low; measured: always-first cost the engine 4%)
            for name, run in (runs if rep % 2 == 0 else runs[::-1]):
                rows.setdefault(name, []).append(run())
            bulk = limit.bulk_transfer(seconds=2.0)
            rows.setdefault("limit", []).append(
                {**bulk, "bytes_out_per_request": out_bytes, "bytes_in_per_request": in_bytes,
                 "per_cpu_s": limit.requests_per_cpu_s(bulk, out_bytes, in_bytes)})
    s = summarize("answered requests per engine CPU-second", rows, "per_cpu_s")
    m = s["mean"]
    for k in ("engine", "cbench", "engine-baseline"):
        if k in m and m.get("limit"):
            s[f"fraction_of_limit_{k}"] = m[k] / m["limit"]
    if m.get("engine-baseline"):
        s["ratio_engine_over_baseline_engine"] = m["engine"] / m["engine-baseline"]
        s["paired_engine_over_baseline_engine"] = paired(rows["engine"], rows["engine-baseline"])
    if m.get("cbench"):
        s["ratio_engine_over_cbench"] = m["engine"] / m["cbench"]
        s["paired_engine_over_cbench"] = paired(rows["engine"], rows["cbench"])
    s["sys_share_mean"] = {k: _mean([x["sys_share"] for x in v]) for k, v in rows.items() if all(x.get("sys_share") is not None for x in v)}
    return s


def paired(a: list, b: list, key: str = "per_cpu_s") -> dict:
    """Per-rep ratios a/b of two rows run in the same reps: their median and range."""
    r = sorted(x[key] / y[key] for x, y in zip(a, b) if y[key])
    return {"per_rep": r, "median": statistics.median(r), "min": r[0], "max": r[-1]} if r else {}


def _cbench_argv(a, port: int) -> list:
    """cbench in throughput mode, the engine's workload: N switches, 1,000 MACs, loops + 1 warm-up."""
    return [a.peer, "-c", "127.0.0.1", "-p", str(port), "-m", str(a.loop_ms),
            "-l", str(a.loops + 1), "-s", str(a.switches), "-M", "1000", "-t", "-w", "1"]


def _cbench_row(a, port: int) -> dict:
    """cbench in throughput mode against the same responder: answered per cbench CPU-second."""
    out, user, system, wall = timed_split(_cbench_argv(a, port))
    total, cpu = cbench_total(out, a.loop_ms), user + system
    return _cpu_split({"answered": total, "cpu_s": cpu, "wall_s": wall, "per_cpu_s": total / cpu if cpu else 0.0,
                       "result": next((line for line in out.splitlines() if line.startswith("RESULT")), "")}, user, system)


def instruction_counts(a) -> dict:
    """User-space instructions per answered request under cachegrind (instructions.py): the
    engine (and --baseline-engine) against cbench (--peer), the efficiency workload, one
    responder."""
    if not shutil.which("valgrind"):
        raise SystemExit("instructions: valgrind is not installed (apt-get install valgrind)")
    rows = {}
    with Responder("1.0") as r:
        tools = [("engine", str(BIN / "sdnbench-engine"))]
        if a.baseline_engine:
            tools.append(("engine-baseline", a.baseline_engine))
        for name, binary in tools:
            with tempfile.TemporaryDirectory() as d:
                doc, _, _ = engine(_throughput_args(a, r.port), binary, lambda argv: instructions.wrap(argv, Path(d)))
                rows[name] = instructions.row(instructions.total_ir(Path(d)), doc["totals"]["requests_answered"])
        if a.peer:
            with tempfile.TemporaryDirectory() as d:
                out, _, _ = timed(instructions.wrap(_cbench_argv(a, r.port), Path(d)))
                rows["cbench"] = instructions.row(instructions.total_ir(Path(d)), cbench_total(out, a.loop_ms))
    return instructions.summarize(rows)


def _counted_row(argv: list, binary: str) -> dict:
    """One engine run under `perf stat` (swcounts.py): its counts per answered request."""
    with tempfile.TemporaryDirectory() as d:
        csv_path = str(Path(d) / "stat.csv")
        doc, _, _ = engine(argv, binary, lambda av: swcounts.wrap(av, csv_path))
        return swcounts.row(swcounts.parse(Path(csv_path).read_text()), doc["totals"]["requests_answered"])


def _cbench_counted_row(a, port: int) -> dict:
    """One cbench run (the efficiency workload) under `perf stat`: its counts per answered
    request, the answered being its per-loop totals over all loops (warm-up included), as the
    engine's `requests_answered` counts every loop."""
    with tempfile.TemporaryDirectory() as d:
        csv_path = str(Path(d) / "stat.csv")
        out, _, _ = timed(swcounts.wrap(_cbench_argv(a, port), csv_path))
        return swcounts.row(swcounts.parse(Path(csv_path).read_text()), cbench_total(out, a.loop_ms))


def counts(a) -> dict:
    """Context switches, system calls (all; epoll_wait, read, write, poll) and CPU per answered
    request (the kernel's software counters, swcounts.py): the engine against --baseline-engine
    and cbench (--peer), alternating, on the efficiency workload (throughput), and against the
    baseline on a fixed-rate one (--counts-switches at --rate, 5 loops; cbench has no fixed rate)."""
    if not (a.baseline_engine or a.peer):
        raise SystemExit("counts: --baseline-engine or --peer is required (what to count the engine against)")
    if not shutil.which("perf"):
        raise SystemExit("counts: perf is not installed (apt-get install linux-perf)")
    fixed = ["--of", "1.0", "--mode", "fixed-rate", "--rate", f"{a.rate:g}", "--switches", str(a.counts_switches),
             "--loops", "5", "--loop-ms", "1000", "--warmup", "1", "--echo-interval-ms", "60000"]
    out = {}
    with Responder("1.0", procs=max(1, -(-a.counts_switches // 19_000))) as r:
        base = [("engine-baseline", lambda args: _counted_row(args, a.baseline_engine))] if a.baseline_engine else []
        peer = [("cbench", lambda _args: _cbench_counted_row(a, r.port))] if a.peer else []
        for workload, args, others in (("efficiency", _throughput_args(a, r.port), base + peer),
                                       ("fixed_rate", ["--controller", f"127.0.0.1:{r.port}", *fixed], base)):
            if not others:
                continue
            rows = {}
            runs = [("engine", lambda args: _counted_row(args, str(BIN / "sdnbench-engine"))), *others]
            for rep in range(a.reps):
                for name, run in (runs if rep % 2 == 0 else runs[::-1]):
                    rows.setdefault(name, []).append(run(args))
            out[workload] = {"runs": rows, **{f"per_answered_vs_{name}": swcounts.ratios(rows, name)
                                                for name, _ in others}}
    out["loadavg_at_end"] = os.getloadavg()
    return out


def lowrate(a) -> dict:
    """Engine CPU per answered request against a throttled responder, and unthrottled (same run)."""
    a.window = min(a.window, 64)
    rows = {}
    with Responder("1.0", extra=("--rate", str(a.answer_rate))) as slow, Responder("1.0") as fast:
        for _rep in range(a.reps):
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
        for _rep in range(a.reps):
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


def _milestones(samples: list, n: int) -> list:
    """Time at which each tenth of the sessions was up, and the rate within each tenth."""
    rows, prev_t, k = [], 0.0, 1
    for s in samples:
        while k <= 10 and s["up"] >= n * k // 10 - (n // 200 if k == 10 else 0):
            rows.append({"up": n * k // 10, "t_s": round(s["t"], 1),
                         "rate_per_s_in_tenth": round((n / 10) / max(s["t"] - prev_t, 0.5))})
            prev_t, k = s["t"], k + 1
    return rows


def _handshake_cpu(samples: list, n: int, key: str = "cpu_total_s"):
    """(how much `key` grew from the first sample to the one where all n were up: by default the
    CPU seconds both sides spent, the time between), or None when they never were."""
    first = samples[0] if samples else None
    done = next((x for x in samples if x["up"] >= 0.995 * n), None)  # others' sockets come and go
    if not first or not done:
        return None
    return done[key] - first[key], done["t"] - first["t"]


def _per_side_cpu_us(samples: list, n: int) -> dict:
    """CPU per handshake of the engine and of the responder, over the handshake window."""
    out = {}
    for side in ("engine", "responder"):
        d = _handshake_cpu(samples, n, f"{side}_cpu_s")
        out[side] = 1e6 * d[0] / n if d else None
    return out


def engine_go_t(lines: list, loop_s: float = 1.0):
    """When the engine's load began, in the seconds of its timed stderr lines ((t, line), t since
    its start): its first loop's line less a loop (the line comes once every worker has reported
    the loop, so the estimate errs late), not before its handshake line. None without a loop line."""
    hs = next((t for t, line in lines if line.startswith("handshake:")), None)
    first = next((t for t, line in lines if line.startswith("loop ") and line.split()[1].startswith("1/")), None)
    if first is None:
        return None
    return max(first - loop_s, hs) if hs is not None else first - loop_s


def _load_window_cpu(samples: list, n: int, loops: int, go_t=None) -> dict:
    """Cores each side used in the middle of the load phase (from 2 s after the go to 2 s before
    the loops end), and the peak RSS there: the steady state under load, without the handshakes
    or the teardown. The go is the engine's (`engine_go_t`); without it, 99.5% of the sessions up,
    which the go can follow by tens of seconds at 1,000,000 (`from`: which)."""
    done = next((x for x in samples if x["up"] >= 0.995 * n), None)
    start = go_t if go_t is not None else (done["t"] if done else None)
    if start is None or loops < 5:
        return {}
    w = [x for x in samples if start + 2 <= x["t"] <= start + loops - 2]
    if len(w) < 2:
        # the sampler takes as long as a saturated machine lets it (5 s apart at 1,000,000)
        return {"from": "go" if go_t is not None else "sessions up", "go_t_s": go_t,
                "none": f"{len(w)} samples from {start + 2:.1f} to {start + loops - 2:.1f} s: the sampler was slower "
                        "than the window (more --load-loops)"}
    dt = w[-1]["t"] - w[0]["t"]
    return {"from": "go" if go_t is not None else "sessions up", "go_t_s": go_t, "seconds": dt,
            **{f"{k}_cores": (w[-1][f"{k}_cpu_s"] - w[0][f"{k}_cpu_s"]) / dt for k in ("engine", "responder")},
            "machine_busy_cores": (w[-1]["machine_busy_s"] - w[0]["machine_busy_s"]) / dt,
            "engine_rss_mib": max(x["engine_rss"] for x in w) / 2**20, "responder_rss_mib": max(x["responder_rss"] for x in w) / 2**20}


# Keep-alive of the scale figure: N sessions probed every I ms cost N/I echo round trips per ms
# (measured 13 us of CPU each here); at OVS's 5 s, 500,000 sessions are 100,000/s, more than
# these 2 cores have beside the handshakes (docs/engine-figures.md, Scale).
SCALE_ECHO_MS = 60_000
SESSIONS_PER_RESPONDER = 19_000  # under the 20,000-file hard limit per process, with slack


def idle_probe_ms(a) -> int:
    """The switches' idle probe (OVS's inactivity probe, `--echo-interval-ms`; 0 = off). Under a
    periodic keep-alive every E ms no session is idle longer than E, so a probe at 2 E never fires
    and the echo traffic is the periodic one alone, which the load section counts; a probe that did
    fire would add echoes the load section does not count (they are `idle_probe_round_trips`).
    Against the C client it is off unless given: hsclient.c never probes, and a probe at 120 s fired
    498,952 times in the engine's 178 s of handshakes at 1,000,000 sessions (docs/million.md), work
    the floor did not do."""
    probe = a.echo_interval_ms if a.echo_interval_ms is not None else (0 if getattr(a, "c_client", False) else SCALE_ECHO_MS)
    return max(probe, 2 * a.echo_every_ms) if probe and a.echo_every_ms else probe


def idle_probe_round_trips(doc: dict, directory: Path) -> int:
    """The idle probe's round trips over all switches (`echo_rtt_us`), the records in the result
    or, from 10,000 switches, in the columnar file beside it (`switches_file`; its summary's
    `switches` is empty, so a sum over it read 0 whatever fired)."""
    sf = doc.get("switches_file")
    if not sf:
        return sum(len(s["echo_rtt_us"]) for s in doc["switches"])
    with gzip.open(directory / sf["name"], "rt", encoding="utf-8") as f:
        blocks = json.load(f)["blocks"]
    return sum(len(v or ()) for b in blocks for v in b["columns"].get("echo_rtt_us", ()))


def load_summary(doc: dict) -> dict:
    """The engine's load section, the columns a reader compares (issue 42)."""
    ld = doc.get("load")
    if not ld:
        return {}
    cols = ("offered", "sent", "answered", "late", "lost", "backlog", "p50_us", "p99_us", "p99_9_us",
            "echo_sent", "echo_answered", "echo_lost")
    return {"offered_per_s": ld["offered_per_s"], "offered": ld["offered"], "sent": ld["sent"],
            "sender_kept_up": ld["sender_kept_up"], "per_loop": {c: ld["loops"][c] for c in cols},
            "keepalive": ld["keepalive"], "after_loops": ld.get("after_loops"),  # absent from a --bin-dir build before it
            "trace": ld["loops"].get("trace")}  # where a backlog sat, per loop (issue 50; absent before it)


def scale(a) -> dict:
    """N sessions held against a multi-process responder; the handshake's rate along the way,
    memory per session on each side and in the kernel, the kernel's TCP counters."""
    procs = a.responder_procs or max(1, -(-a.switches // SESSIONS_PER_RESPONDER))
    base_sk, base_slab = kernel_probe.sockstat(), kernel_probe.slab_kib()
    r_tls, e_tls, c_tls = tls_files() if a.tls else ((), {}, ())
    extra = ("--echo-interval-ms", str(idle_probe_ms(a))) + (("--workers", str(a.engine_workers)) if a.engine_workers else ())
    extra += ("--echo-every-ms", str(a.echo_every_ms), "--timeout-ms", str(a.timeout_ms)) if a.echo_every_ms else ("--timeout-ms", str(a.timeout_ms))
    with contextlib.ExitStack() as stack:
        ns = stack.enter_context(ScaleNetns(a.switches)) if a.netns else None
        prefix = tuple(ns.prefix) if ns else ()
        r_delay = ("--delay-us", str(a.responder_delay_us)) if a.responder_delay_us else ()
        r = stack.enter_context(Responder("1.3", procs=procs, extra=r_tls + r_delay, prefix=prefix))
        d = stack.enter_context(tempfile.TemporaryDirectory())
        net = f"/proc/{r.p.pid}/net" if ns else "/proc/net"
        base_ctr = kernel_probe.tcp_counters(net)
        time.sleep(0.5)
        # the C client drains as the engine does and sorts what is unanswered by the same timeout (held.py)
        load = (a.rate, a.load_loops, a.echo_every_ms, a.timeout_ms, held.drain_ms(a.timeout_ms)) if a.load_loops >= 3 and not a.tls else ()
        # each side starts with no other run's sockets in TIME_WAIT (the C client's N closes, or
        # the last rate's engine in `held`): they lengthen the connection table's chains and expire
        # in the middle of the next side's handshakes (docs/million.md)
        tw_below = max(1000, a.switches // 100)
        tw = {"c_client": kernel_probe.wait_time_wait(net, tw_below)} if a.c_client and a.time_wait == "wait" else {}
        hs_c = cclient.run(r.port, a.switches, procs, r.p.pid, load, prefix, net,
                           (*c_tls, a.tls_versions) if a.tls else ()) if a.c_client else None
        if a.time_wait == "wait":
            tw["engine"] = kernel_probe.wait_time_wait(net, tw_below)
        base_inuse = kernel_probe.sockstat(net).get("inuse", 0)
        if a.tls:   # the engine's config field (flags override the rest of a --config)
            (Path(d) / "tls.json").write_text(json.dumps({"tls": {**e_tls, "versions": a.tls_versions.split(",")}}))
        argv = [*prefix, str(BIN / "sdnbench-engine"), *(["--config", str(Path(d) / "tls.json")] if a.tls else []),
                "--controller", f"127.0.0.1:{r.port}", "--mode", "fixed-rate",
                "--rate", str(a.rate), "--switches", str(a.switches), "--loops", str(a.load_loops), "--loop-ms", "1000",
                "--warmup", "0", "--macs", "1", "--no-learn", "--connect-timeout-ms", "60000", *extra,
                "--json", str(Path(d) / "r.json")]
        before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        p = stack.enter_context(subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        stack.callback(lambda: p.poll() is None and p.terminate())  # runs first on the way out
        out, stop_sampler = sampler.started({"engine": p.pid, "responder": r.p.pid}, base_inuse, net, t0, a.switches)
        stack.callback(stop_sampler)
        lines = [(time.monotonic() - t0, line) for line in p.stderr]   # its progress, timed: the go (engine_go_t)
        p.wait()
        err = "".join(line for _, line in lines)
        out["go_t"] = engine_go_t(lines)
        wall = time.monotonic() - t0
        stop_sampler()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode not in (0, 2):
            raise SystemExit(f"sdnbench-engine failed ({p.returncode}): {err.strip()[-300:]}")
        doc = json.loads((Path(d) / "r.json").read_text())
        out["idle_probes"] = idle_probe_round_trips(doc, Path(d))
        # the result's files (the summary, and the per-switch records beside it when the run
        # wrote them apart: `switches_file`)
        files = [Path(d) / "r.json", *([Path(d) / doc["switches_file"]["name"]] if doc.get("switches_file") else [])]
        st = [f.stat() for f in files]
        ctr = kernel_probe.tcp_counters(net)
        # the result's size, and from the run's end (`finished_unix`) to its last write:
        # building and writing the result (wall clock)
        out["result"] = {"bytes": sum(x.st_size for x in st), "summary_bytes": st[0].st_size,
                         "end_to_written_s": max(x.st_mtime for x in st) - doc["finished_unix"]}
    sm = out["samples"] or [{"up": 0, "tcp_mem_pages": 0, "slab_kib": base_slab, "engine_rss": 0, "responder_rss": 0, "load1": 0}]
    h = doc["handshake"]
    up = max(h["sessions_up"], 1)
    peak = lambda k: max(s[k] for s in sm)
    resp_cpu = [v for (label, _), v in out["cpu"].items() if label == "responder"]
    hs = _handshake_cpu(out["samples"], a.switches)
    busy = _handshake_cpu(out["samples"], a.switches, "machine_busy_s")
    ctxt = _handshake_cpu(out["samples"], a.switches, "ctxt_total")
    return {"figure": "sessions held against the responder", "machine": kernel_probe.cpu_model(),
            "switches": a.switches, "sessions_up": h["sessions_up"], "sessions_failed": h["sessions_failed"],
            "disconnects": doc["totals"]["disconnects"],
            "sessions_lost": doc["totals"].get("sessions_lost"), "reconnects": doc["totals"].get("reconnects"),
            "handshake_s": h["duration_s"], "handshake_rate_per_s": h["rate_per_s"], "tenths": _milestones(sm, a.switches),
            # sockets in TIME_WAIT when the engine started (the C client's, closed just before)
            "time_wait_at_engine_start": sm[0].get("time_wait", 0),
            # what each side's start waited for (--time-wait wait): TIME_WAIT before, after, seconds
            "time_wait_waits": tw,
            "workers": doc["engine"]["workers"], "source_addrs": len(doc["engine"]["source_addrs"]),
            "responder_procs": procs, "answered_at_fixed_rate": doc["totals"]["requests_answered"],
            "engine_cpu_user_s": after.ru_utime - before.ru_utime, "engine_cpu_system_s": after.ru_stime - before.ru_stime,
            "responder_cpu_user_s": sum(u for u, _ in resp_cpu), "responder_cpu_system_s": sum(s for _, s in resp_cpu),
            "cpu_us_per_handshake_both_sides": 1e6 * hs[0] / a.switches if hs else None,
            # each side's share of it (the C client's: `c_client.cpu_user_s + cpu_system_s` and
            # `c_client.responder_cpu_s`), so a difference is placed on one side or the other
            "cpu_us_per_handshake": _per_side_cpu_us(out["samples"], a.switches),
            "handshake_window_cores_used": hs[0] / hs[1] if hs and hs[1] else None,
            "handshake_window_other_cores": (busy[0] - hs[0]) / hs[1] if hs and busy and hs[1] else None,
            "context_switches_per_handshake_both_sides": ctxt[0] / a.switches if ctxt else None,
            "result_file_bytes": out["result"]["bytes"], "result_end_to_written_s": out["result"]["end_to_written_s"],
            "wall_s": wall, "load1_peak": peak("load1"), "load1_at_start": sm[0]["load1"],
            "engine_rss_peak_mib": peak("engine_rss") / 2**20, "engine_bytes_per_session": peak("engine_rss") / up,
            # the engine's RSS (all its processes) every 0.5 s: where the peak is (s, MiB)
            "engine_rss_series_mib": [[round(x["t"], 1), round(x["engine_rss"] / 2**20)] for x in out["samples"]],
            # sessions up every 0.5 s (s, sessions): when they closed, against the load's end
            # (`load_window.go_t_s` + loops) and the C client's (`c_client.sessions_up_series`)
            "sessions_up_series": [[round(x["t"], 1), x["up"]] for x in out["samples"]],
            "responder_rss_peak_mib": peak("responder_rss") / 2**20,
            "responder_bytes_per_session": peak("responder_rss") / up,
            "kernel_tcp_mem_peak_pages": peak("tcp_mem_pages"),
            "kernel_tcp_mem_bytes_per_session": (peak("tcp_mem_pages") - base_sk.get("mem", 0)) * kernel_probe.PAGE / up,
            "kernel_slab_bytes_per_session": (peak("slab_kib") - base_slab) * 1024 / up,
            "tcp_counters_delta": {k: ctr[k] - base_ctr[k] for k in ctr},
            "echo_interval_ms": idle_probe_ms(a), "echo_round_trips_per_s_at_full_scale": a.switches * 1000 / idle_probe_ms(a) if idle_probe_ms(a) else 0,
            "idle_probe_round_trips": out["idle_probes"],
            "load": load_summary(doc), "load_window": _load_window_cpu(out["samples"], a.switches, a.load_loops, out["go_t"]), "c_client": hs_c, "engine_argv": " ".join(argv[1:]),
            "netns": {"name": ns.name, "tcp_ehash_entries": ns.entries} if ns else None,
            "transport": doc.get("transport"), "handshake_percentiles_us": _hs_percentiles(h),
            "engine_over_c_client": _over_c(h, hs, a.switches, hs_c),
            "sampler": out.get("sampler"), "warnings": doc["warnings"]}


def held_load(a) -> dict:
    """`scale --c-client` at each of --rates, lowest first, until a rate neither side held; the
    highest load each held with nothing lost, and their ratio (held.py)."""
    if a.load_loops < 3 or not a.echo_every_ms:
        raise SystemExit("held: --load-loops 3 or more and --echo-every-ms are required (the load is requests plus echoes)")
    runs = []
    for rate in sorted(float(x) for x in a.rates.split(",")):
        r = scale(argparse.Namespace(**{**vars(a), "rate": rate, "c_client": True, "tls": False}))
        runs.append(r)
        j = held.judge(runs[-1:], a.switches, a.echo_every_ms)["rates"][0]
        if not j["engine"]["held"] and not j["c_client"]["held"]:
            break
    print(held.table(held.judge(runs, a.switches, a.echo_every_ms), a.switches, a.echo_every_ms), file=sys.stderr)
    return {"figure": "highest load held with nothing lost, engine and C client, same sessions and echo period",
            "machine": kernel_probe.cpu_model(), "switches": a.switches, "echo_every_ms": a.echo_every_ms,
            "load_loops": a.load_loops, **held.judge(runs, a.switches, a.echo_every_ms), "raw": runs}


def _hs_percentiles(h: dict) -> dict:
    """The engine's handshake timing split (TCP connect, TLS, OpenFlow), as its result gives it."""
    return {k: v for k, v in h.items() if "_us" in k or "tls" in k}


def _over_c(h: dict, hs, n: int, c: dict | None) -> dict | None:
    """The engine's set-up rate and CPU per session (both sides) as ratios of the C client's."""
    if not c or not c.get("rate_per_s") or not hs:
        return None
    return {"rate": h["rate_per_s"] / c["rate_per_s"],
            "cpu_per_session_both_sides": (1e6 * hs[0] / n) / c["cpu_us_per_handshake_both_sides"]}


def tls_cost(a) -> dict:
    """`scale --c-client` over TCP and TLS at each size, ABBA; TLS's cost as ratios (issue 51)."""
    sizes = [int(x) for x in a.sizes.split(",")]
    rows = {}
    for i, n in enumerate(sizes):
        for tls in ((False, True) if i % 2 == 0 else (True, False)):
            a2 = argparse.Namespace(**{**vars(a), "switches": n, "tls": tls, "c_client": True, "load_loops": 2})
            rows[(n, "tls" if tls else "tcp")] = scale(a2)
    return {"figure": "TLS's cost at scale: TLS over TCP, same run", "machine": kernel_probe.cpu_model(),
            "order": "ABBA by size (tcp first at the 1st, 3rd ... size)",
            "sizes": {n: _tls_row(rows[(n, "tcp")], rows[(n, "tls")]) for n in sizes}}


def _side(r: dict) -> dict:
    c = r["c_client"] or {}
    return {"engine_rate_per_s": r["handshake_rate_per_s"], "c_client_rate_per_s": c.get("rate_per_s"),
            "engine_cpu_us_per_session_both_sides": r["cpu_us_per_handshake_both_sides"],
            "c_client_cpu_us_per_session_both_sides": c.get("cpu_us_per_handshake_both_sides"),
            "engine_bytes_per_session": r["engine_bytes_per_session"],
            "responder_bytes_per_session": r["responder_bytes_per_session"],
            "kernel_tcp_mem_bytes_per_session": r["kernel_tcp_mem_bytes_per_session"],
            "sessions_up": r["sessions_up"], "c_client_sessions_up": c.get("sessions_up"),
            "transport": r.get("transport"), "c_client_negotiated": [c.get("tls_version"), c.get("cipher_suite")]}


def _tls_row(tcp: dict, tls: dict) -> dict:
    a, b = _side(tcp), _side(tls)
    ratio = {k: b[k] / a[k] for k in a if isinstance(a[k], (int, float)) and isinstance(b.get(k), (int, float)) and a[k]}
    return {"tcp": a, "tls": b, "tls_over_tcp": ratio, "raw": {"tcp": tcp, "tls": tls}}


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
    # SIGTERM (timeout, a driver stopping the run) unwinds like Ctrl-C: the responder's process
    # group is stopped and a scale run's namespace deleted by their context managers
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["efficiency", "instructions", "counts", "lowrate", "latency", "scale", "held", "tls", "copy", "all"])
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
    ap.add_argument("--counts-switches", type=int, default=10_000, help="counts: switches of the fixed-rate workload (at --rate)")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--rate", type=float, default=20000)
    ap.add_argument("--responder-procs", type=int, default=None, help="scale: responder processes (N/19,000)")
    ap.add_argument("--engine-workers", type=int, default=None, help="scale: engine worker processes (the engine's own: as the file limit requires)")
    ap.add_argument("--echo-interval-ms", type=int, default=None,
                    help=f"scale: the engine's keep-alive probe (default {SCALE_ECHO_MS}, and 0 = off with --c-client, "
                         "which never probes; the engine's own default is Open vSwitch's 5000: see docs/engine-figures.md, Scale)")
    ap.add_argument("--load-loops", type=int, default=2, help="scale: loops of 1 s at --rate after the handshakes")
    ap.add_argument("--echo-every-ms", type=int, default=0, help="scale: a periodic keep-alive echo from every switch under load (0 = off)")
    ap.add_argument("--timeout-ms", type=int, default=2000, help="scale: the engine's loss timeout (requests and echoes)")
    ap.add_argument("--responder-delay-us", type=int, default=0,
                    help="scale, held: the responder answers every packet-in this long after it came (a known answer's delay)")
    ap.add_argument("--c-client", action="store_true", help="scale: first the same N sessions (and load) from hsclient.c (the kernel's floor)")
    ap.add_argument("--tls", action="store_true", help="scale: the sessions over TLS (the responder, the engine and the C client)")
    ap.add_argument("--tls-versions", default="1.2,1.3", help="scale --tls: TLS versions offered (1.2, 1.3 or 1.2,1.3)")
    ap.add_argument("--sizes", default="1000,10000,100000", help="tls: the switch counts (1000,10000,100000)")
    ap.add_argument("--time-wait", choices=("wait", "keep"), default="wait",
                    help="scale: before each side starts, wait (at most 75 s) until the sockets another run left in TIME_WAIT "
                         "are under 1%% of N (wait), or start at once (keep: the engine then starts with the C client's N)")
    ap.add_argument("--rates", default="5000,10000,15000,20000", help="held: the offered request rates to try, lowest first")
    ap.add_argument("--no-netns", dest="netns", action="store_false",
                    help="scale: run in this namespace (default: a namespace of its own whose TCP hash table fits the sessions, scale_netns.py)")
    ap.add_argument("--pin", metavar="PEER:TOOLS",
                    help="the responder on the CPUs PEER, the engine, cbench and the C client on TOOLS (e.g. 1:0): "
                         "each tool's CPU per answer without the scheduler moving it between cores")
    ap.add_argument("--bin-dir", help="take sdnbench-engine and sdnbench-responder from this directory (e.g. an older build)")
    a = ap.parse_args()
    if a.pin:
        global RESPONDER_CPUS
        try:
            RESPONDER_CPUS, tools = parse_pin(a.pin)
        except PinError as e:
            print(e, file=sys.stderr)
            return 1
        os.sched_setaffinity(0, tools)   # inherited by every tool started from here
    if a.bin_dir:
        global BIN
        BIN = Path(a.bin_dir)
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
            a2.switches = 100_000 if w in ("scale", "held") else 16
        out[w] = {"efficiency": efficiency, "instructions": instruction_counts, "counts": counts, "lowrate": lowrate,
                  "latency": latency, "scale": scale, "held": held_load, "tls": tls_cost,
                  "copy": lambda a: copycost.run(reps=a.reps)}[w](a2)
        out[w]["pin"] = a.pin
        print(json.dumps({w: out[w]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
