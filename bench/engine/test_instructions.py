"""instructions.py's reading of cachegrind output (a file written here, in cachegrind's format)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import instructions  # noqa: E402

ONLY_IR = """desc: I1 cache:         32768 B, 64 B, 8-way associative
cmd: sdnbench-engine --switches 16
events: Ir
fl=./csu/../csu/libc-start.c
fn=main
0 10
summary: 2367542416
"""

WITH_CACHE_SIM = """cmd: cbench -t
events: Ir I1mr ILmr Dr D1mr
fn=main
1 2 3 4 5 6
summary: 900 1 2 300 4
"""


def test_ir_is_the_summary_column_named_ir():
    assert instructions.ir_of(ONLY_IR) == 2_367_542_416
    assert instructions.ir_of(WITH_CACHE_SIM) == 900


def test_a_file_without_a_summary_or_ir_is_refused():
    with pytest.raises(ValueError, match="not a cachegrind"):
        instructions.ir_of("events: Ir\nfn=main\n")
    with pytest.raises(ValueError, match="without an Ir"):
        instructions.ir_of("events: Dr\nsummary: 5\n")


def test_a_run_sums_every_process_and_needs_one(tmp_path):
    (tmp_path / "cg.101").write_text(ONLY_IR)
    (tmp_path / "cg.102").write_text(WITH_CACHE_SIM)
    (tmp_path / "valgrind.101.log").write_text("==101== I refs: 1\n")
    assert instructions.total_ir(tmp_path) == 2_367_542_416 + 900
    with pytest.raises(ValueError, match="no cachegrind output"):
        instructions.total_ir(tmp_path / "empty")


def test_per_answer_and_ratios():
    rows = {"engine": instructions.row(3000, 10), "cbench": instructions.row(2000, 10),
            "engine-baseline": instructions.row(6000, 10), "broken": instructions.row(5, 0)}
    s = instructions.summarize(rows)
    assert s["instructions_per_answered"] == {"engine": 300, "cbench": 200, "engine-baseline": 600, "broken": None}
    assert s["ratio_engine_over_cbench"] == 1.5
    assert s["ratio_engine_over_engine_baseline"] == 0.5
    assert "kernel work not counted" in s["figure"]


def test_the_wrapper_writes_one_file_per_process(tmp_path):
    argv = instructions.wrap(["cbench", "-t"], tmp_path)
    assert argv[:4] == instructions.VALGRIND and argv[-2:] == ["cbench", "-t"]
    assert f"--cachegrind-out-file={tmp_path}/cg.%p" in argv
