"""swcounts.py's reading of `perf stat -x,` output (lines as perf 6.1 writes them here)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import swcounts  # noqa: E402

PERF = """# started on Sat Nov 28 15:21:11 2026

6234.56,msec,task-clock,6234560123,100.00,0.998,CPUs utilized
25790,,context-switches,6234560123,100.00,4.137,K/sec
90012,,raw_syscalls:sys_enter,6234560123,100.00,,
3500,,syscalls:sys_enter_epoll_wait,6234560123,100.00,,
"""


def test_counts_by_name_task_clock_in_us():
    c = swcounts.parse(PERF)
    assert c == {"cpu_us": 6_234_560.0, "context_switches": 25790.0, "syscalls": 90012.0, "epoll_wait": 3500.0}


def test_per_answered_and_the_ratio_to_the_baseline():
    c = swcounts.parse(PERF)
    r = swcounts.row(c, 43_000)
    assert r["context_switches_per_answered"] == pytest.approx(25790 / 43_000)
    half = swcounts.row({k: v / 2 for k, v in c.items()}, 43_000)
    ratios = swcounts.ratios({"engine": [half, half], "engine-baseline": [r]})
    assert ratios["context_switches"]["ratio"] == pytest.approx(0.5)
    assert ratios["cpu_us"]["engine-baseline"] == pytest.approx(6_234_560 / 43_000)


def test_a_counter_perf_could_not_read_is_refused():
    with pytest.raises(ValueError, match="could not count context-switches"):
        swcounts.parse(PERF.replace("25790,,context-switches", "<not supported>,,context-switches"))
    with pytest.raises(ValueError, match="without"):
        swcounts.parse(PERF.replace("3500,,syscalls:sys_enter_epoll_wait", ""))


def test_wrap_counts_the_children_too():
    argv = swcounts.wrap(["sdnbench-engine", "--switches", "16"], "/tmp/x.csv")
    assert argv[:5] == ["perf", "stat", "-x,", "-o", "/tmp/x.csv"]
    assert "--no-inherit" not in argv and argv[-3:] == ["sdnbench-engine", "--switches", "16"]
