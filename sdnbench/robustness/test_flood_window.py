"""The connection flood's window (issue 31): long enough for the flood to reach the engine's
cap at 700 connections/s, the background lengthened so the loops before and after the window
are as for every other case; the engine accepts the params."""

from sdnbench.engine.params import check
from sdnbench.robustness.runner import AT_MS, BACKGROUND, OBSERVE_MS, WINDOW_MS, case_params


def test_connection_flood_window_scales_and_the_engine_takes_it():
    p = check(case_params("osken:learning", "connection-flood", "1.3", {}))
    w = p["robustness"]["observe_ms"]
    assert w == WINDOW_MS["connection-flood"] and 16_384 / (w / 1000) <= 700
    loop = BACKGROUND["loop_ms"]
    # as many loops after the window as any other case gets
    after = lambda q: q["loops"] * loop - AT_MS - q["robustness"]["observe_ms"]  # noqa: E731
    other = check(case_params("osken:learning", "unknown-type", "1.3", {}))
    assert other["robustness"]["observe_ms"] == OBSERVE_MS and other["loops"] == BACKGROUND["loops"]
    assert after(p) == after(other) > 0


def test_a_forced_loop_count_is_kept():
    p = case_params("osken:learning", "connection-flood", "1.3", {"loops": 200})
    assert p["loops"] == 200
