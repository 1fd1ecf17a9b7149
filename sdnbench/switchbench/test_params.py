"""Bad ``switch bench`` input: refused by ``params.build`` through the real command line, one
line naming the flag, before a switch, bridge or ``sdnbench-switch`` starts (issue 29)."""

import pytest


@pytest.mark.parametrize("argv, words", [
    (["--test", "capacity", "--batch", "0"], "--batch: want a whole number, 1 or more, got 0"),
    (["--probe-pps", "-1"], "--probe-pps: want a whole number, not a negative one, got '-1'"),
    (["--test", "capacity", "--max-flows", "0"], "--max-flows: "),
    (["--timeout", "0"], "--timeout: want a number of seconds above 0"),
    (["--accept-timeout", "-1"], "--accept-timeout: "),
    (["--frame-size", "10"], "--frame-size: "),
    (["--test", "nope"], "--test: unknown nope"),
])
def test_a_bad_switch_bench_flag_is_one_line_naming_it(refused, argv, words):
    assert words in refused(["switch", "bench", *argv])


def test_a_campaign_cell_uses_the_same_check():
    from .cell import validate_param
    assert validate_param("batch", 0) == "want a whole number, 1 or more, got 0"
    assert validate_param("batch", 10) is None
