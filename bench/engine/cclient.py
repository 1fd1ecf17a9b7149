"""The minimal C client (hsclient.c) beside the engine: the kernel's floor for bringing N
OpenFlow sessions up and, with a load, for carrying packet-ins and echoes over them (issue 42).

Built with the machine's C compiler at run time (linked with OpenSSL: `--tls`, issue 51, the
floor of a TLS session), never committed as a binary. Its handshake
figures are its own (each process's CPU once its sessions are up); under load, both sides' cores
are read from /proc over the middle of the load (1 s after the go to 1 s before its end), as
`bench.py scale` reads the engine's, so the two stand side by side. The client runs under the
engine's sampler (`sampler.py`: every 0.5 s, nice -10 once the sessions are up), so the sampler's
CPU is taken from both sides alike; its figures in `sampler`, the client's peak RSS in
`rss_peak_mib`, its sessions up every 0.5 s in `sessions_up_series` (s from its start; the go at
`load.go_t_s`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import kernel_probe
import sampler

PARALLEL = 256          # handshakes in flight per process, as the engine's connect_parallel
SOURCE_PREFIX = "127.77"


def _cpu(pid: int) -> float:
    return sum(u + s for _, u, s in filter(None, (kernel_probe.proc_usage(p) for p in kernel_probe.tree(pid))))


def _build(d: str) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise SystemExit("--c-client: no C compiler (cc) on PATH")
    exe = Path(d) / "hsclient"
    src = str(Path(__file__).with_name("hsclient.c"))
    if subprocess.run([cc, "-O2", "-o", str(exe), src, "-lm", "-lssl", "-lcrypto"], capture_output=True).returncode:
        raise SystemExit("--c-client: hsclient.c does not build (OpenSSL's headers: apt-get install libssl-dev)")
    return exe


def _load_window(p: subprocess.Popen, responder_pid: int, go: float, seconds: float) -> dict:
    """Both sides' cores over the middle of the load (needs a load of at least 3 s)."""
    a, b = go + 1, go + seconds - 1
    if b - a < 1:
        return {}
    time.sleep(max(0.0, a - time.monotonic()))
    c0, r0, t0 = _cpu(p.pid), _cpu(responder_pid), time.monotonic()
    time.sleep(max(0.0, b - time.monotonic()))
    c1, r1, t1 = _cpu(p.pid), _cpu(responder_pid), time.monotonic()
    return {"seconds": t1 - t0, "client_cores": (c1 - c0) / (t1 - t0), "responder_cores": (r1 - r0) / (t1 - t0)}


def run(port: int, n: int, procs: int, responder_pid: int, load: tuple = (), prefix: tuple = (),
        net: str = "/proc/net", tls: tuple = ()) -> dict:
    """N sessions from the C client against the responder on `port`, then, with
    load = (rate, seconds, echo_every_ms, timeout_ms, drain_ms), that load and a drain of at most
    drain_ms, what is unanswered then sorted by timeout_ms into lost and unsettled (held.py's
    rule, the engine's drain); the client's sessions are closed (and the
    responder has seen them close) before this returns. `prefix` runs the client in the
    responder's namespace (`ip netns exec NAME`), `net` is that namespace's /proc/PID/net.
    `tls` = (ca, cert, key, versions): the sessions over TLS (handshakes only, no load)."""
    with tempfile.TemporaryDirectory() as d:
        exe = _build(d)
        base_inuse = kernel_probe.sockstat(net).get("inuse", 0)
        r_before = _cpu(responder_pid)
        argv = [*prefix, str(exe), *(["--tls", *map(str, tls)] if tls else []), "127.0.0.1", str(port), str(n), str(procs), str(PARALLEL), SOURCE_PREFIX, *map(str, load)]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # the engine's sampler, on the client's processes: its cost falls on both sides alike
        t0 = time.monotonic()
        sampled, stop_sampler = sampler.started({"client": p.pid, "responder": responder_pid}, base_inuse, net, t0, n)
        try:
            window, r_hs, out, go = {}, None, None, None
            for line in p.stdout:
                if line.startswith("go "):
                    r_hs, go = _cpu(responder_pid) - r_before, float(line.split()[1])
                    window = _load_window(p, responder_pid, go, float(load[1]))
                elif line.startswith("{"):
                    out = json.loads(line)
            err = p.stderr.read()
            p.wait()
        finally:
            stop_sampler()
    if p.returncode not in (0, 2) or out is None:
        raise SystemExit(f"hsclient failed ({p.returncode}): {err.strip()[-300:]}")
    out["responder_cpu_s"] = r_hs if r_hs is not None else _cpu(responder_pid) - r_before
    out["sampler"] = sampled["sampler"]
    out["rss_peak_mib"] = max((x["client_rss"] for x in sampled["samples"]), default=0) / 2**20
    out["sessions_up_series"] = [[round(x["t"], 1), x["up"]] for x in sampled["samples"]]
    if "load" in out:
        out["load"]["go_t_s"] = round(go - t0, 3) if go is not None else None
    both = out["cpu_user_s"] + out["cpu_system_s"] + out["responder_cpu_s"]
    out["cpu_us_per_handshake_both_sides"] = 1e6 * both / max(out["sessions_up"], 1)
    if "load" in out:
        out["load"]["load_window"] = window
        _per_round_trip(out["load"])
    _wait_closed(base_inuse, net)
    return out


def _per_round_trip(ld: dict) -> None:
    """CPU per answered round trip (packet-in or echo) of each side, over the load window."""
    w = ld["load_window"]
    trips_per_s = (ld["answered"] + ld["echo_answered"]) / ld["seconds"]
    if w and trips_per_s:
        for side in ("client", "responder"):
            w[f"{side}_us_per_round_trip"] = 1e6 * w[f"{side}_cores"] / trips_per_s


def _wait_closed(base_inuse: int, net: str) -> None:
    """The client's sockets close as its processes exit, the responder's as it reads their end:
    wait for both, so what follows does not share the machine with a million closes."""
    deadline = time.monotonic() + 180
    while kernel_probe.sockstat(net).get("inuse", 0) > base_inuse + 2000 and time.monotonic() < deadline:
        time.sleep(0.5)
