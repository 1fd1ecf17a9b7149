"""Resource sampling: the CPU arithmetic (pure) and a real sampler on a real process tree."""

import subprocess
import sys

import psutil
import pytest

from sdnbench.proc import wait_until
from sdnbench.controllers.resources import ProcSample, sample_resources, snapshot, tree_cpu_percent


def P(create, cpu):
    return ProcSample(create_time=create, cpu_seconds=cpu, rss=0, threads=1)


def test_cpu_delta_of_a_surviving_process():
    prev = {10: P(100.0, 5.0)}
    cur = {10: P(100.0, 5.5)}
    assert tree_cpu_percent(prev, 1000.0, cur, 1001.0) == pytest.approx(50.0)


def test_child_born_after_previous_sample_counts_fully():
    prev = {10: P(100.0, 1.0)}
    cur = {10: P(100.0, 1.0), 11: P(1000.5, 0.25)}
    assert tree_cpu_percent(prev, 1000.0, cur, 1001.0) == pytest.approx(25.0)


def test_process_first_seen_but_older_counts_nothing():
    # Born before the previous sample but missed by it: its past CPU time is not this interval's.
    cur = {10: P(100.0, 1.0), 12: P(500.0, 9.0)}
    assert tree_cpu_percent({10: P(100.0, 1.0)}, 1000.0, cur, 1001.0) == 0.0


def test_reused_pid_is_a_new_process():
    prev = {10: P(100.0, 50.0)}
    cur = {10: P(1000.2, 0.5)}          # same pid, new create time, less CPU time
    assert tree_cpu_percent(prev, 1000.0, cur, 1002.0) == pytest.approx(25.0)


def test_zero_interval_is_zero():
    assert tree_cpu_percent({}, 5.0, {1: P(1.0, 3.0)}, 5.0) == 0.0


def test_sampler_on_a_real_tree():
    # A parent that forks a busy child: the tree's CPU and threads include the child.
    code = ("import subprocess, sys, time; c = subprocess.Popen([sys.executable, '-c', "
            "'import time\\nt=time.time()\\nwhile time.time()-t<30: pass']); c.wait()")
    p = subprocess.Popen([sys.executable, "-c", code])
    try:
        wait_until(lambda: len(snapshot(p.pid)) == 2, 10, "the child process")
        with sample_resources(p.pid, interval=0.05) as s:
            wait_until(lambda: len(s.series()[0].values) >= 5, 20, "five samples")
        series = {x.metric: x for x in s.series()}
        assert set(series) == {"cpu_percent", "rss_bytes", "threads"}
        cpu, rss, threads = series["cpu_percent"], series["rss_bytes"], series["threads"]
        assert len(cpu.values) == len(cpu.t) >= 5
        assert len(rss.values) == len(cpu.values) + 1        # CPU needs two samples
        assert sum(cpu.values) > 0
        assert all(v >= 2 for v in threads.values)          # parent + child, one thread each
        assert all(v > 1_000_000 for v in rss.values)
        assert cpu.labels["role"] == "controller" and cpu.labels["pid"] == p.pid
        assert cpu.t == sorted(cpu.t)
    finally:
        for child in psutil.Process(p.pid).children(recursive=True):
            child.kill()
        p.kill()
        p.wait()


def test_no_pid_no_series():
    with sample_resources(None, 0.1) as s:
        pass
    assert s.series() == []


def test_interval_must_be_positive():
    with pytest.raises(ValueError):
        sample_resources(1, 0)


def test_saturation_note():
    from sdnbench.controllers.resources import saturation_note
    from sdnbench.result import Series
    calm = [Series("cpu_percent", "%", [10.0, 35.5]), Series("rss_bytes", "bytes", [1, 2])]
    assert saturation_note(calm) is None
    hot = [Series("cpu_percent", "%", [50.0, 99.2, 97.0, 20.0])]
    note = saturation_note(hot)
    assert "99%" in note and "2 of 4 samples" in note and "saturated" in note
    assert saturation_note([]) is None
