"""Known answers of `bench.py held` end to end: the C client and the engine (this tree's build,
target/release) against the real responder answering every packet-in a fixed delay after it
came (`--delay-us`; echoes at once), 200 switches at 200 requests/s (one a second each, far
under capacity), an echo from each every second, 3 loads of 1 s, timeout 1 s, so both sides
drain 1 s. Predicted before the runs:

- delay 0.7 s (under the timeout): both `held`; every request answered, none late, none
  lost, none unsettled; the C client's median 0.7 s.
- delay 1.2 s (over it): every answer late on both sides; the requests due in the load's last
  0.2 s (200/s x 0.2 s = 40) have no answer when the drain ends 1 s after the load, and their
  timeout has passed: both `lost`, about 40 lost each; the echoes all answered in time.
"""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RATE = 200


def held_run(delay_us: int) -> tuple:
    """`bench.py held` at RATE with the responder's delay: (its JSON, its printed table)."""
    cp = subprocess.run([sys.executable, str(HERE / "bench.py"), "held", "--switches", "200", "--rates", str(RATE),
                         "--echo-every-ms", "1000", "--load-loops", "3", "--timeout-ms", "1000",
                         "--responder-delay-us", str(delay_us)], capture_output=True, text=True, timeout=300)
    assert cp.returncode == 0, cp.stderr[-2000:]
    return json.loads(cp.stdout)["held"], cp.stderr


def test_a_delay_under_the_timeout_is_held_by_both_with_nothing_late():
    j, table = held_run(700_000)
    assert j["rule"] == {"timeout_ms": 1000, "drain_ms": 1000}
    row = j["rates"][0]
    # the C client sends exactly 3 s x 200/s; the engine what its staggered schedule has due in
    # the 3 s (599 in the first run: a switch's send falls just past the end)
    sent = {"c_client": 3 * RATE, "engine": j["raw"][0]["load"]["sent"] + j["raw"][0]["load"]["after_loops"]["sent"]}
    assert 3 * RATE - 3 <= sent["engine"] <= 3 * RATE
    for side in ("engine", "c_client"):
        s = row[side]
        assert s["verdict"] == "held", (side, s)
        assert s["requests"] == {"answered": sent[side], "late": 0, "lost": 0, "unsettled": 0}, (side, s)
        assert 3 * 200 - 3 <= s["echoes"]["answered"] <= 600 and s["echoes"]["lost"] == 0, (side, s)
    assert 700_000 <= row["p99_us"]["c_client_whole_load"] and 650_000 <= j["raw"][0]["c_client"]["load"]["p50_us"] <= 760_000
    assert j["highest_held_round_trips_per_s"] == {"engine": RATE + 200, "c_client": RATE + 200}
    assert j["engine_over_c_client"] == 1.0
    assert "C client held" in " ".join(table.split()) and "engine held" in " ".join(table.split())


def test_a_delay_over_the_timeout_is_late_everywhere_and_the_last_fifth_of_a_second_lost():
    j, table = held_run(1_200_000)
    row = j["rates"][0]
    for side in ("engine", "c_client"):
        s, q = row[side], row[side]["requests"]
        assert s["verdict"] == "lost", (side, s)
        assert 35 <= q["lost"] + q["unsettled"] <= 45 and q["lost"] >= 30, (side, q)
        assert q["late"] == q["answered"] and 3 * RATE - 3 <= q["answered"] + q["lost"] + q["unsettled"] <= 3 * RATE, (side, q)
        assert s["echoes"]["lost"] == s["echoes"]["unsettled"] == 0, (side, s)
    assert j["highest_held_round_trips_per_s"] == {"engine": None, "c_client": None}
    assert j["engine_over_c_client"] is None
    assert "not held" in table
