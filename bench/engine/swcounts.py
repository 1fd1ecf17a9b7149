"""`bench.py counts`: the kernel's software counters per answered request, engine against a
baseline engine and against cbench, alternating (A B B A).

This VM's hardware counters read `<not supported>` (no instructions, no cycles), but the
kernel's own counters do not depend on the CPU's: `perf stat` counts each engine process tree's
context switches (its wake-ups: a worker that slept and was run again), its system calls, its
`epoll_wait` calls and its CPU time (task-clock), and of the system calls the ones that carry
the messages and wait for them: cbench's loop is `poll`, then `read` and `write` per switch
(`strace -c` of a short run here); the engine's is `epoll_wait`, then `recvfrom` and `sendto`
per session (tokio's), and `futex` where one thread wakes another. So the kernel's time per
answer splits into entries of each kind. A count per answered request does not move
with the neighbours' load the way CPU time does (preemption still adds context switches: that
is why the runs alternate). User-space instructions are `bench.py instructions` (cachegrind).
"""

from __future__ import annotations

import csv

CALLS = ("epoll_wait", "poll", "read", "write", "recvfrom", "sendto", "futex")
EVENTS = ["task-clock", "context-switches", "raw_syscalls:sys_enter", *(f"syscalls:sys_enter_{c}" for c in CALLS)]
NAMES = {"task-clock": "cpu_us", "context-switches": "context_switches", "raw_syscalls:sys_enter": "syscalls",
         **{f"syscalls:sys_enter_{c}": c for c in CALLS}}


def wrap(argv: list, out_csv: str) -> list:
    """argv run under `perf stat` (children included), the counts written as CSV to out_csv."""
    return ["perf", "stat", "-x,", "-o", out_csv, "-e", ",".join(EVENTS), *argv]


def parse(text: str) -> dict:
    """`perf stat -x,` output -> {name: value}; task-clock in µs. A counter perf could not read
    is refused (a figure from a missing count would be a made-up zero)."""
    out = {}
    for row in csv.reader(line for line in text.splitlines() if line.strip() and not line.startswith("#")):
        if len(row) < 3 or row[2] not in NAMES:
            continue
        if not row[0] or row[0].startswith("<"):
            raise ValueError(f"perf stat could not count {row[2]}: {row[0] or 'empty'}")
        v = float(row[0])
        if row[2] == "task-clock":
            v *= {"msec": 1e3, "usec": 1.0, "nsec": 1e-3}.get(row[1], 1e3)
        out[NAMES[row[2]]] = v
    missing = set(NAMES.values()) - set(out)
    if missing:
        raise ValueError(f"perf stat output without {sorted(missing)}")
    return out


def row(counts: dict, answered: int) -> dict:
    """One run: the raw counts, the answered requests and each count per answered request."""
    per = {f"{k}_per_answered": (v / answered if answered else None) for k, v in counts.items()}
    return {**counts, "answered": answered, **per}


def ratios(rows: dict, against: str = "engine-baseline") -> dict:
    """engine / ``against`` of each per-answered mean (rows: name -> list of runs)."""
    def mean(name, key):
        v = [r[key] for r in rows.get(name, []) if r[key] is not None]
        return sum(v) / len(v) if v else None
    out = {}
    for k in NAMES.values():
        e, b = mean("engine", f"{k}_per_answered"), mean(against, f"{k}_per_answered")
        out[k] = {"engine": e, against: b, "ratio": (e / b) if e is not None and b else None}
    return out
