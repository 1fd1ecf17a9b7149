"""The sampler of `bench.py scale`: a thread reading /proc every 0.5 s while one side (the engine,
or the C client of `cclient.py`) holds its sessions against the responder. Each sample: sessions
up (from sockstat: 2 sockets per loopback session), kernel TCP memory, slab, each side's RSS (sum
over its processes) and each process's CPU.

Both sides run under the same sampler, so its CPU is taken from both alike: the C client used to
run without it, and in `held` the engine's load alone paid for it (about 0.08 of a core at
1,000,000 sessions, issue 50).
"""

from __future__ import annotations

import os
import threading
import time

import kernel_probe

# Once the sessions are up, the sampler's thread runs ahead of the run's ~100 busy processes: at
# nice 0 it read every ~5 s at 1,000,000 sessions (its share of 2 cores among them) and missed the
# load window (issue 50). Not before: in the handshakes its CPU (0.058 of a core at nice -10, 41
# ms a sample at 1,000,000) would be taken from the handshakes whose rates are compared.
SAMPLER_NICE = -10
UP_SHARE = 0.995    # sessions up (of those asked) from which the sampler runs at SAMPLER_NICE
EVERY_S = 0.5


def sampler_priority(nice: int = SAMPLER_NICE):
    """Give the calling thread `nice`; what it has then (None: not allowed, left as it was)."""
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError:
        return None
    return os.getpriority(os.PRIO_PROCESS, tid)


def sampler_figures(samples: list, nice, nice_from_t, cpu_s: float) -> dict:
    """What the sampler cost and how often it read: its thread's nice from `nice_from_t` (s; None:
    never raised), its CPU seconds, its samples and the longest gap between two (0.5 s asked),
    before and from then."""
    def longest(ts):
        gaps = [b - a for a, b in zip(ts, ts[1:])]
        return round(max(gaps), 2) if gaps else None
    ts = [x["t"] for x in samples]
    after = [t for t in ts if nice_from_t is not None and t >= nice_from_t]
    return {"nice": nice, "nice_from_t_s": nice_from_t, "cpu_s": round(cpu_s, 3), "samples": len(ts),
            "longest_gap_s": longest(ts[:len(ts) - len(after)]), "longest_gap_from_nice_s": longest(after)}


def sample(sides: dict, base_inuse: int, out: dict, net: str, t0: float) -> dict:
    """One sample of `sides` (label -> root pid; the process tree under it), appended to
    `out["samples"]`; each process's CPU and context switches kept in `out["cpu"]`, `out["ctxt"]`."""
    sk = kernel_probe.sockstat(net)
    rss = {}
    for label, root in sides.items():
        rss[label] = 0
        for pid in kernel_probe.tree(root):
            u = kernel_probe.proc_usage(pid)
            if u:
                rss[label] += u[0]
                out["cpu"][(label, pid)] = u[1:]
                out["ctxt"][pid] = kernel_probe.ctx_switches(pid) or out["ctxt"].get(pid, 0)
    cpu = {lb: sum(u + sy for (lab, _), (u, sy) in out["cpu"].items() if lab == lb) for lb in sides}
    x = {"t": time.monotonic() - t0, "cpu_total_s": sum(u + sy for u, sy in out["cpu"].values()),
         "up": max(0, sk.get("inuse", 0) - base_inuse) // 2,
         "machine_busy_s": kernel_probe.machine_busy_s(), "ctxt_total": sum(out["ctxt"].values()),
         "tcp_mem_pages": sk.get("mem", 0), "time_wait": sk.get("tw", 0), "slab_kib": kernel_probe.slab_kib(),
         "load1": os.getloadavg()[0]}
    for lb in sides:
        x[f"{lb}_rss"], x[f"{lb}_cpu_s"] = rss[lb], cpu[lb]
    out["samples"].append(x)
    return x


def run(sides: dict, base_inuse: int, stop: threading.Event, out: dict, net: str, t0: float, n: int):
    """Sample every EVERY_S until `stop`, at nice SAMPLER_NICE once UP_SHARE of the `n` sessions are
    up; the sampler's own cost and pace in `out["sampler"]`. A thread's target; `out` has
    "samples", "cpu" and "ctxt" to fill."""
    raised = {"nice": None, "t": None}
    try:
        while not stop.wait(EVERY_S):
            x = sample(sides, base_inuse, out, net, t0)
            if raised["t"] is None and x["up"] >= UP_SHARE * n:
                raised.update(nice=sampler_priority(), t=round(x["t"], 1))
    finally:
        out["sampler"] = sampler_figures(out["samples"], raised["nice"], raised["t"], time.thread_time())


def started(sides: dict, base_inuse: int, net: str, t0: float, n: int) -> tuple:
    """A sampler thread running (`run`): (out, stop) where stop() ends it and returns `out`."""
    out, ev = {"samples": [], "cpu": {}, "ctxt": {}}, threading.Event()
    th = threading.Thread(target=run, args=(sides, base_inuse, ev, out, net, t0, n), daemon=True)
    th.start()

    def stop() -> dict:
        ev.set()
        th.join()
        return out
    return out, stop
