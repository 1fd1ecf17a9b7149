"""sdnbench ended, however it ends, leaves no engine behind (issue 49). A process runs the engine
through ``driver.run`` (8 switches over 4 worker processes, against the responder); in the load it
is ended by SIGKILL, SIGTERM or SIGINT. Within a bound nothing below it is left: not the engine,
not its workers (found by parent pid while it lived, then followed by pid and start time, so no
other process of this machine is ever counted).

Known answer: 0 left for each signal. Before the engine got ``PR_SET_PDEATHSIG`` from
``driver.run``, SIGKILL left the engine and its 4 workers running the rest of their minute.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from sdnbench import procreg
from sdnbench.proc import wait_until
from sdnbench.testing.engine_fixtures import responder

PARENT = textwrap.dedent("""
    import sys
    from sdnbench.engine import driver
    from sdnbench.errors import Interrupted
    from sdnbench.proc import signals_as_exceptions
    with signals_as_exceptions():
        try:
            driver.run(["--controller", sys.argv[1], "--switches", "8", "--workers", "4",
                        "--loops", "600", "--loop-ms", "100", "--warmup", "0"])
        except Interrupted as e:
            raise SystemExit(e.exit_code)
""")

# a killed parent's tree dies with it; a signalled one first stops the engine, which stops its
# workers and writes its partial result
BOUND_S = {signal.SIGKILL: 3.0, signal.SIGTERM: 20.0, signal.SIGINT: 20.0}


def _descendants(root: int) -> list:
    """(pid, start time) of every live process below ``root``, by parent pid."""
    parent = {}
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            parent[int(d)] = int(fields[1])
    out, frontier = [], [root]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        frontier += kids
    return [(p, procreg.start_time(p)) for p in out]


def _alive(tree: list) -> list:
    return [p for p, start in tree if start is not None and procreg.start_time(p) == start]


def _left_after(argv: list, sig: int, below: int, settle_s: float, start_s: float = 30) -> tuple:
    """Start ``argv`` in a session of its own; once ``below`` processes run below it and
    ``settle_s`` has passed, send it ``sig``: (processes still alive after the bound, how many
    there were). Whatever is left is killed after counting."""
    parent = subprocess.Popen(argv, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tree = []
    try:
        wait_until(lambda: len(_descendants(parent.pid)) >= below, start_s, f"{below} processes below it")
        time.sleep(settle_s)
        tree = _descendants(parent.pid)
        os.kill(parent.pid, sig)
        parent.wait(timeout=BOUND_S[sig] + 10)
        deadline = time.monotonic() + BOUND_S[sig]
        while _alive(tree) and time.monotonic() < deadline:
            time.sleep(0.05)
        return _alive(tree), len(tree)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for p in _alive(tree):
            os.kill(p, signal.SIGKILL)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_parent_ended_in_the_load_leaves_no_engine(sig):
    with responder() as address:
        # the engine and its 4 workers, then a moment of load
        left, of = _left_after([sys.executable, "-c", PARENT, address], sig, 5, 0.5)
    assert left == [], f"{sig.name}: left {left} of {of}"


@pytest.mark.parametrize("spec", ["osken:learning", "jvm"])
def test_sdnbench_killed_mid_run_leaves_neither_its_controller_nor_its_engine(spec):
    """The whole command, SIGKILLed in the load: the managed controller (os-ken, and the JVM
    learning switch as a ``cmd:`` controller), the engine and its workers all end with it."""
    if spec == "jvm":
        from sdnbench.testing import jvm
        spec = jvm.spec()
    cmd = [sys.executable, "-m", "sdnbench", "controller", "bench", "--controller", spec, "--switches", "4",
           "--workers", "2", "--loops", "600", "--loop-ms", "100", "--warmup", "0", "--reps", "1"]
    # the controller, the engine and its 2 workers
    left, of = _left_after(cmd, signal.SIGKILL, 4, 1.0, start_s=90)
    assert left == [], f"left {left} of {of}"
