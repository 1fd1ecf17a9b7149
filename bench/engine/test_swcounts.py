"""swcounts.py's reading of `perf stat -x,` output (lines as perf 6.1 writes them here)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import swcounts  # noqa: E402

# perf 6.1 here (2026-11-29 06:57:58), `perf stat -x, -e EVENTS` (swcounts.EVENTS) of a Python
# one-liner that polls once, writes, reads a file and sends and receives a byte over a socketpair
PERF = """# started on Sun Nov 29 06:57:58 2026

198.35,msec,task-clock,198351328,100.00,0.940,CPUs utilized
92,,context-switches,198351328,100.00,463.823,/sec
9285,,raw_syscalls:sys_enter,198351328,100.00,46.811,K/sec
0,,syscalls:sys_enter_epoll_wait,198351328,100.00,0.000,/sec
1,,syscalls:sys_enter_poll,198351328,100.00,5.042,/sec
386,,syscalls:sys_enter_read,198351328,100.00,1.946,K/sec
30,,syscalls:sys_enter_write,198351328,100.00,151.247,/sec
1,,syscalls:sys_enter_recvfrom,198351328,100.00,5.042,/sec
1,,syscalls:sys_enter_sendto,198351328,100.00,5.042,/sec
39,,syscalls:sys_enter_futex,198351328,100.00,196.621,/sec
"""


def test_counts_by_name_task_clock_in_us():
    c = swcounts.parse(PERF)
    assert c == {"cpu_us": 198_350.0, "context_switches": 92.0, "syscalls": 9285.0, "epoll_wait": 0.0, "poll": 1.0,
                 "read": 386.0, "write": 30.0, "recvfrom": 1.0, "sendto": 1.0, "futex": 39.0}


def test_per_answered_and_the_ratio_to_the_baseline():
    c = swcounts.parse(PERF)
    r = swcounts.row(c, 43_000)
    assert r["context_switches_per_answered"] == pytest.approx(92 / 43_000)
    half = swcounts.row({k: v / 2 for k, v in c.items()}, 43_000)
    ratios = swcounts.ratios({"engine": [half, half], "engine-baseline": [r]})
    assert ratios["context_switches"]["ratio"] == pytest.approx(0.5)
    assert ratios["cpu_us"]["engine-baseline"] == pytest.approx(198_350 / 43_000)
    assert ratios["epoll_wait"]["ratio"] is None             # 0 in the baseline: no ratio, not a division error
    vs_cbench = swcounts.ratios({"engine": [half], "cbench": [r, r]}, "cbench")
    assert vs_cbench["read"] == {"engine": pytest.approx(193 / 43_000), "cbench": pytest.approx(386 / 43_000),
                                 "ratio": pytest.approx(0.5)}


def test_a_counter_perf_could_not_read_is_refused():
    with pytest.raises(ValueError, match="could not count context-switches"):
        swcounts.parse(PERF.replace("92,,context-switches", "<not supported>,,context-switches"))
    with pytest.raises(ValueError, match="without"):
        swcounts.parse(PERF.replace("0,,syscalls:sys_enter_epoll_wait", ""))


def test_wrap_counts_the_children_too():
    argv = swcounts.wrap(["sdnbench-engine", "--switches", "16"], "/tmp/x.csv")
    assert argv[:5] == ["perf", "stat", "-x,", "-o", "/tmp/x.csv"]
    assert "--no-inherit" not in argv and argv[-3:] == ["sdnbench-engine", "--switches", "16"]
