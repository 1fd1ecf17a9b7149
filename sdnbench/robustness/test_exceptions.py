"""§5.3.1 summary: change (negative for a drop), reconnection counters and significance against
the clean runs, by hand."""

from sdnbench.result import Result
from sdnbench.robustness.exceptions import VARIANTS, summarize, table_rows


def run(values, invalid=0, lost=0, reconnects=0, down_ms=0.0):
    r = Result(kind="controller", benchmark="exceptions")
    r.add("throughput", "flows/s", values)
    r.counters.update({"invalid_packet_ins_sent": invalid, "disconnects": min(lost, 4), "sessions_lost": lost,
                       "reconnects": reconnects, "disconnected_ms": down_ms, "latency_p50_us": 100.0,
                       "engine_measured_answered": sum(values)})
    return r


def test_variants_are_one_and_two_percent():
    assert {k: 1 / (v + 1) if v else 0 for k, v in VARIANTS.items()} == {"clean": 0, "1%": 0.01, "2%": 0.02}


def test_drop_and_p_value():
    rows = summarize({"clean": [run([100, 101, 102]), run([99, 100, 98])],
                      "1%": [run([90, 91, 92], invalid=30), run([89, 90, 88], invalid=29)],
                      "2%": [run([100, 101, 99], invalid=60, lost=1)]})
    by = {r["variant"]: r for r in rows}
    assert by["clean"]["drop"] is None and by["clean"]["answered_per_s"] == 100
    assert abs(by["1%"]["drop"] - 0.10) < 1e-9
    assert abs(by["1%"]["change"] + 0.10) < 1e-9, "a drop is a negative change"
    assert by["1%"]["p_value"] < 0.01              # 6 vs 6 with no overlap: exact p = 0.0022
    assert by["2%"]["p_value"] > 0.5 and by["2%"]["sessions_lost"] == 1
    assert by["1%"]["invalid_sent"] == 59


def test_a_drop_prints_negative_and_reconnects_are_summed():
    rows = summarize({"clean": [run([100, 100, 100])],
                      "1%": [run([0, 0, 0], lost=9, reconnects=5, down_ms=2500.0),
                             run([0, 0, 0], lost=7, reconnects=4, down_ms=1500.0)]})
    head, body, _ = table_rows(rows)
    one = dict(zip(head, body[1]))
    assert one["change"] == "-100.0%", one               # the issue: it printed "+100.0%"
    assert (one["sessions lost"], one["re-established"], one["disconnected s"]) == ("16", "9", "4.0")
    assert dict(zip(head, body[0]))["change"] == "-"
    assert one["p50 µs"] == "-", "no request answered: no latency, not 0"
    gain = summarize({"clean": [run([100, 100])], "2%": [run([110, 110])]})
    assert table_rows(gain)[1][1][2] == "+10.0%"
