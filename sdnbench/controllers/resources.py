"""Sample a controller's process tree while a benchmark runs: CPU %, RSS and threads over time.

A sampler thread wakes every ``interval`` seconds and reads every process in the tree (the
launched process and all its descendants, since Faucet and ryu-manager may fork helpers):

- ``cpu_percent``: CPU time used by the tree since the previous sample, over the wall time
  between the samples, x100. 100 means one core busy; the maximum is 100 x cores (labels carry
  ``cores``). The Python controllers do their work under one interpreter lock (os-ken 4.x on
  native threads, Ryu and Faucet on eventlet), so they saturate near 100 whatever the cores.
- ``rss_bytes``: the sum of the tree's resident set sizes (shared pages count once per process).
- ``threads``: the sum of the tree's thread counts.

The arithmetic is in ``tree_cpu_percent``, a pure function over two snapshots, so the tricky
cases (a child born between samples, a PID reused) are unit-tested without processes.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Optional

import psutil

from ..result import Series


@dataclass(frozen=True)
class ProcSample:
    create_time: float
    cpu_seconds: float       # user + system
    rss: int
    threads: int


def tree_cpu_percent(prev: dict, prev_t: float, cur: dict, cur_t: float) -> float:
    """CPU % of a process tree between two snapshots (pid -> ProcSample).

    A process seen in both snapshots contributes its CPU time delta. A new process (or a reused
    PID: different create time) contributes all its CPU time if it was born after the previous
    snapshot, and nothing otherwise, because its earlier time belongs to an interval we did not
    see. Processes that exited in between are lost; an interval of zero length yields 0.
    """
    dt = cur_t - prev_t
    if dt <= 0:
        return 0.0
    used = 0.0
    for pid, now in cur.items():
        before = prev.get(pid)
        if before is not None and abs(before.create_time - now.create_time) < 0.01:
            used += max(0.0, now.cpu_seconds - before.cpu_seconds)
        elif now.create_time >= prev_t:
            used += now.cpu_seconds
    return 100.0 * used / dt


def snapshot(pid: int) -> dict:
    """pid -> ProcSample for ``pid`` and all its descendants; empty if ``pid`` is gone."""
    try:
        root = psutil.Process(pid)
        procs = [root] + root.children(recursive=True)
    except psutil.Error:
        return {}
    out = {}
    for p in procs:
        try:
            with p.oneshot():
                t = p.cpu_times()
                out[p.pid] = ProcSample(p.create_time(), t.user + t.system, p.memory_info().rss,
                                        p.num_threads())
        except psutil.Error:
            continue
    return out


class ResourceSampler:
    """Collects samples on a daemon thread between ``start`` and ``stop``."""

    def __init__(self, pid: Optional[int], interval: float = 0.5, role: str = "controller"):
        if interval <= 0:
            raise ValueError("interval must be positive")
        self.pid = pid
        self.interval = interval
        self.labels = {"role": role, "cores": os.cpu_count() or 1}
        if pid is not None:
            self.labels["pid"] = pid
        self._t0 = 0.0
        self._cpu, self._cpu_t = [], []
        self._rss, self._threads, self._mem_t = [], [], []
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._prev: Optional[tuple] = None

    def start(self) -> "ResourceSampler":
        self._t0 = time.monotonic()
        if self.pid is not None:
            self._sample()
            self._thread = threading.Thread(target=self._loop, name="resource-sampler", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            self._sample()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            if not self._sample():
                return

    def _sample(self) -> bool:
        now = time.monotonic()
        snap = snapshot(self.pid)
        if not snap:
            return False
        t = round(now - self._t0, 6)
        if self._prev is not None:
            self._cpu.append(round(tree_cpu_percent(self._prev[1], self._prev[0], snap, now), 3))
            self._cpu_t.append(t)
        self._prev = (now, snap)
        self._rss.append(sum(s.rss for s in snap.values()))
        self._threads.append(sum(s.threads for s in snap.values()))
        self._mem_t.append(t)
        return True

    def series(self) -> list:
        """The samples so far as ``Series`` (empty when there is no process to sample)."""
        if self.pid is None:
            return []
        return [
            Series("cpu_percent", "%", list(self._cpu), dict(self.labels), list(self._cpu_t)),
            Series("rss_bytes", "bytes", list(self._rss), dict(self.labels), list(self._mem_t)),
            Series("threads", "count", list(self._threads), dict(self.labels), list(self._mem_t)),
        ]

    def __enter__(self) -> "ResourceSampler":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


SATURATED_PERCENT = 90.0


def saturation_note(series: list, threshold: float = SATURATED_PERCENT) -> Optional[str]:
    """A note for ``Result.notes`` when the controller's CPU reached ``threshold`` % of one core
    in any interval, so a reader knows the controller may have been the bottleneck."""
    cpu = [s for s in series if s.metric == "cpu_percent" and s.values]
    if not cpu:
        return None
    peak = max(max(s.values) for s in cpu)
    busy = sum(1 for s in cpu for v in s.values if v >= threshold)
    total = sum(len(s.values) for s in cpu)
    if peak < threshold:
        return None
    return (f"controller CPU reached {peak:.0f}% (>= {threshold:.0f}% of one core in {busy} of "
            f"{total} samples): the controller may have been saturated")


def sample_resources(pid: Optional[int], interval: float = 0.5, role: str = "controller") -> ResourceSampler:
    """``with sample_resources(pid, 0.5) as s: ...; s.series()``. ``pid=None`` (a controller
    sdnbench did not start) samples nothing and yields no series."""
    return ResourceSampler(pid, interval, role)
