"""Which CPUs a controller and a load generator run on (`fidelity.py --pin`).

On two cores a load generator's CPU is the controller's loss: cbench and the engine can read a
controller differently only because one of them leaves it less CPU. ``--pin CTRL:TOOLS`` (say
``1:0``) puts the controller's process, and every thread it starts, on the CPUs CTRL and each
tool run on TOOLS, so the controller gets the same CPU whichever tool loads it; the tools'
own CPU is still measured (``tool_cores``). Affinity is inherited at fork and at thread
creation, so setting the calling thread's mask around the controller's start is enough: the
launcher's child (a JVM and its threads, a Python controller) or an in-process peer's loop
thread keeps CTRL, and what the caller starts afterwards gets TOOLS.
"""

from __future__ import annotations

import os
from contextlib import contextmanager


class PinError(ValueError):
    """A --pin value that names no CPU set, or CPUs this process may not use."""


def cpu_set(text: str) -> frozenset:
    """``0``, ``0,1`` or ``0-3`` as a set of CPU numbers."""
    cpus = set()
    for part in text.split(","):
        lo, dash, hi = part.partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise PinError(f"{text!r} is not a CPU list (like 0, 0,1 or 0-3)")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return frozenset(cpus)


def parse_pin(text: str) -> tuple:
    """``CTRL:TOOLS`` as (controller CPUs, tool CPUs), both within this process's CPUs and apart."""
    ctrl, sep, tools = text.partition(":")
    if not sep:
        raise PinError(f"--pin {text}: give CTRL:TOOLS, e.g. 1:0 (controller on CPU 1, tools on CPU 0)")
    c, t = cpu_set(ctrl), cpu_set(tools)
    allowed = os.sched_getaffinity(0)
    if not c <= allowed or not t <= allowed:
        raise PinError(f"--pin {text}: this process may use CPUs {sorted(allowed)} only")
    if c & t:
        raise PinError(f"--pin {text}: the controller's and the tools' CPUs overlap ({sorted(c & t)})")
    return c, t


@contextmanager
def affinity(cpus):
    """The calling thread, and whatever it starts in the block, on ``cpus`` (None: unchanged)."""
    if cpus is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
