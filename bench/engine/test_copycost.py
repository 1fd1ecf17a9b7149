"""bench.py copy: the summary's arithmetic, and the real program receiving what it was asked."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import copycost  # noqa: E402


def test_per_byte_medians_and_the_ratio_to_the_aligned_offset():
    row = lambda sys_s: {"bytes": 10**9, "sys_s": sys_s, "user_s": 0.0}
    s = copycost.summarize({0: [row(0.2), row(0.3), row(0.25)], 16: [row(0.6), row(0.7), row(0.5)]})
    assert s["median"] == pytest.approx({"0": 0.25, "16": 0.6})
    assert s["over_aligned"] == pytest.approx({"0": 1.0, "16": 2.4})
    assert s["sys_ns_per_byte"]["16"] == pytest.approx([0.6, 0.7, 0.5])


def test_the_program_receives_the_bytes_asked_at_the_offset_asked(tmp_path):
    exe = copycost.build(str(tmp_path))
    r = copycost.one(exe, 16, 81_920, 8)
    assert (r["offset"], r["chunk"], r["bytes"]) == (16, 81_920, 8 << 20)
    assert r["sys_s"] >= 0 and r["user_s"] >= 0
    if len(os.sched_getaffinity(0)) >= 2:
        assert r["reader_cpu"] != r["writer_cpu"]
