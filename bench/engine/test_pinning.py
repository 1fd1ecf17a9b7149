"""`--pin`: parsing, and that a process started inside `affinity` really runs on those CPUs."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from pinning import PinError, affinity, cpu_set, parse_pin  # noqa: E402


def allowed_of(pid: int) -> str:
    return next(line.split(":", 1)[1].strip() for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                if line.startswith("Cpus_allowed_list"))


def test_cpu_lists():
    assert cpu_set("0") == {0} and cpu_set("0,2") == {0, 2} and cpu_set("1-3") == {1, 2, 3}
    for bad in ("", "a", "1-", "0,,1"):
        with pytest.raises(PinError):
            cpu_set(bad)


def test_pin_needs_two_disjoint_sets_of_usable_cpus():
    first = min(os.sched_getaffinity(0))
    with pytest.raises(PinError, match="CTRL:TOOLS"):
        parse_pin(str(first))
    with pytest.raises(PinError, match="overlap"):
        parse_pin(f"{first}:{first}")
    with pytest.raises(PinError, match="may use CPUs"):
        parse_pin(f"{first}:4095")


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_a_child_and_a_thread_started_inside_keep_the_set_and_the_caller_gets_its_own_back():
    a, b = sorted(os.sched_getaffinity(0))[:2]
    before = os.sched_getaffinity(0)
    seen = {}
    with affinity({a}):
        child = subprocess.Popen(["sleep", "5"])
        t = threading.Thread(target=lambda: (seen.setdefault("t", os.sched_getaffinity(0)), done.wait()))
        done = threading.Event()
        t.start()
    try:
        assert allowed_of(child.pid) == str(a)
        while "t" not in seen:
            pass
        assert seen["t"] == {a}
        assert os.sched_getaffinity(0) == before
        with affinity({b}):
            other = subprocess.Popen(["sleep", "5"])
        assert allowed_of(other.pid) == str(b)
        other.kill()
        other.wait()
    finally:
        done.set()
        t.join()
        child.kill()
        child.wait()


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_bench_pin_puts_the_responder_on_its_cpus_and_leaves_the_caller_on_its_own(monkeypatch):
    import bench
    if not (bench.BIN / "sdnbench-responder").exists():
        pytest.skip(f"{bench.BIN / 'sdnbench-responder'} not built (make build)")
    peer, tools = sorted(os.sched_getaffinity(0))[:2]
    before = os.sched_getaffinity(0)
    monkeypatch.setattr(bench, "RESPONDER_CPUS", {peer})
    with bench.Responder("1.0") as r:
        assert allowed_of(r.p.pid) == str(peer)
        assert os.sched_getaffinity(0) == before
