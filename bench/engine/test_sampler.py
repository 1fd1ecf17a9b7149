"""`bench.py scale`'s sampler: its thread ahead of the run's processes once the sessions are
up, and what it cost.

At 1,000,000 sessions its thread, at nice 0 among ~100 busy processes on 2 cores, read every
~5 s and missed the load window (docs/million.md)."""

import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bench  # noqa: E402


def test_the_sampler_thread_alone_runs_at_its_nice():
    got = {}

    def sampler():
        got["given"] = bench.sampler_priority()
        got["thread"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = os.getpriority(os.PRIO_PROCESS, 0)
    th = threading.Thread(target=sampler)
    th.start()
    th.join()
    if os.geteuid() == 0:
        assert got == {"given": bench.SAMPLER_NICE, "thread": bench.SAMPLER_NICE}
    else:   # not allowed to raise it: left as it was, and said so
        assert got["given"] is None and got["thread"] == before
    assert os.getpriority(os.PRIO_PROCESS, 0) == before, "the process's other threads keep theirs"


def test_the_sampler_says_how_often_it_read_and_what_it_cost():
    samples = [{"t": t} for t in (0.5, 1.0, 6.0, 7.0, 7.5, 9.5, 10.0)]
    assert bench.sampler_figures(samples, -10, 7.0, 0.4321) == {
        "nice": -10, "nice_from_t_s": 7.0, "cpu_s": 0.432, "samples": 7,
        "longest_gap_s": 5.0, "longest_gap_from_nice_s": 2.0}
    never = bench.sampler_figures(samples, None, None, 0.1)
    assert (never["longest_gap_s"], never["longest_gap_from_nice_s"]) == (5.0, None)
    assert bench.sampler_figures([], None, None, 0.0)["longest_gap_s"] is None
