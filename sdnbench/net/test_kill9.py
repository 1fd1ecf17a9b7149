"""kill -9 in the middle of a run, for each kind (net run, controller bench, run campaign), then
``net clean``: nothing that run started is left. Plus the record that makes it possible:
orphans of dead owners are found and stopped, and a live owner's children are never touched.
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from sdnbench import procreg
from sdnbench.net import stale
from sdnbench.paths import runtime_dir


def _record_of(pid: int, timeout: float = 60.0, children: int = 1) -> dict:
    """Wait until process ``pid`` has recorded ``children`` started processes; return its record."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in runtime_dir("procs").glob(f"{pid}-*.json"):
            data = json.loads(path.read_text() or "{}")
            if len(data.get("children", [])) >= children:
                return data
        time.sleep(0.1)
    raise AssertionError(f"process {pid} recorded no started process within {timeout:g}s")


def _alive(child: dict) -> bool:
    return procreg.start_time(child["pid"]) == child["start"]


def _session_members(sid: int) -> list:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[4]) == sid:
                        out.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


def test_plain_subprocesses_are_found_by_their_owner_tag():
    # started with plain subprocess (as the engine is): no record, but the inherited tag
    code = textwrap.dedent("""
        import subprocess, sys, time
        from sdnbench.procreg import mark_owner
        mark_owner()
        p = subprocess.Popen(["sleep", "300"], start_new_session=True)
        print(p.pid, flush=True)
        time.sleep(300)
    """)
    owner = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(owner.stdout.readline())
        child = {"pid": pid, "start": procreg.start_time(pid)}
        assert pid not in [o.pid for o in procreg.orphans()[0]]
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
        found, dead = procreg.orphans()
        assert pid in [o.pid for o in found]
        procreg.reap([o for o in found if o.pid == pid], [])
        assert _wait_gone([child]) == []
    finally:
        if owner.poll() is None:
            os.kill(owner.pid, signal.SIGKILL)
            owner.wait()


def test_orphans_of_a_dead_owner_are_stopped_and_only_those():
    # The owner starts a child from a worker thread (so no PDEATHSIG: the record is all there
    # is), and is then killed with SIGKILL.
    code = textwrap.dedent("""
        import threading, time
        from sdnbench import proc
        t = threading.Thread(target=lambda: proc.spawn("sleeper", ["sleep", "300"]))
        t.start(); t.join()
        time.sleep(300)
    """)
    owner = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        child = _record_of(owner.pid)["children"][0]
        found, _ = procreg.orphans()
        assert child["pid"] not in [o.pid for o in found]      # owner alive: not an orphan
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
        assert _alive(child)                                    # survived its parent
        found, dead = procreg.orphans()
        assert child["pid"] in [o.pid for o in found]
        procreg.reap([o for o in found if o.pid == child["pid"]], dead)
        assert _wait_gone([child]) == []
    finally:
        if owner.poll() is None:
            os.kill(owner.pid, signal.SIGKILL)
            owner.wait()


SCENARIO = """\
name: kill9
benchmarks:
  - kind: net
    params: {topo: "single,2", measurements: [ping], ping: {sizes: [64], count: 200, interval: 0.1}}
"""

KINDS = {
    "net run": ["net", "run", "--topo", "single,2", "--ping-sizes", "64", "--ping-count", "200",
                "--ping-interval", "0.1"],
    "controller bench": ["controller", "bench", "--switches", "2", "--reps", "20", "--loops", "20",
                         "--macs", "100"],
    "run campaign": ["run", "{scenario}", "--store", "{store}"],
}


# the process that shows a kind is measuring (a descendant of the run: a host's ping, the engine)
MEASURES = {"net run": "ping", "controller bench": "sdnbench-engine", "run campaign": "ping"}


def _descendants(root: int) -> list:
    """(pid, command name) of every process below ``root`` (by parent pid, whatever its session)."""
    kids: dict = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    st = f.read()
            except OSError:
                continue
            kids.setdefault(int(st.rsplit(")", 1)[1].split()[1]), []).append((int(d), st[st.index("(") + 1:st.rindex(")")]))
    out, todo = [], [root]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k[0])
    return out


def _settled(look, timeout: float = 10.0):
    """``look()`` once it is empty, or as it is after ``timeout``: a process sent SIGKILL is gone
    only once it has been reaped, a moment later."""
    deadline = time.monotonic() + timeout
    while (found := look()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def _wait_gone(children: list) -> list:
    """Those of ``children`` still alive once they had time to be reaped."""
    return _settled(lambda: [c for c in children if _alive(c)])


@pytest.mark.integration
@pytest.mark.parametrize("kind", list(KINDS))
def test_kill9_mid_run_then_net_clean_leaves_nothing(kind, tmp_path):
    (tmp_path / "s.yaml").write_text(SCENARIO)
    argv = [a.format(scenario=tmp_path / "s.yaml", store=tmp_path / "st") for a in KINDS[kind]]
    run = subprocess.Popen([sys.executable, "-m", "sdnbench", *argv], start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started = _record_of(run.pid, timeout=90)["children"]        # the controller is up
        deadline = time.monotonic() + 120                             # in the middle of measuring
        while MEASURES[kind] not in [c for _, c in _descendants(run.pid)] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert MEASURES[kind] in [c for _, c in _descendants(run.pid)], f"no {MEASURES[kind]} of the run"
        assert run.poll() is None, "the run ended before it could be killed"
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        clean = subprocess.run([sys.executable, "-m", "sdnbench", "net", "clean"],
                               capture_output=True, text=True, timeout=120)
        assert clean.returncode == 0, clean.stderr
        assert _wait_gone(started) == []                              # controller and tools gone
        assert _settled(lambda: _session_members(run.pid)) == []      # nothing of its session
        assert not list(runtime_dir("procs").glob(f"{run.pid}-*.json"))
        left = [lo.describe() for lo in stale.survey().values() if not lo.empty() and not lo.claimed_by]
        assert left == []                                             # no bridge, link, table
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
