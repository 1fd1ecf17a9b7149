"""kernel_probe's parsers and the scale figure's arithmetic on fixed text (run with
`.venv/bin/python -m pytest -q bench/engine/test_kernel_probe.py`; outside the default testpaths)."""

import gzip
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402
import kernel_probe as kp  # noqa: E402


def test_sockstat_tcp_line():
    text = "sockets: used 50\nTCP: inuse 6 orphan 0 tw 1 alloc 6 mem 7\nUDP: inuse 0 mem 48\n"
    assert kp.parse_sockstat(text) == {"inuse": 6, "orphan": 0, "tw": 1, "alloc": 6, "mem": 7}


def test_counters_pair_header_and_value_lines():
    text = "TcpExt: SyncookiesSent ListenOverflows\nTcpExt: 3 9\nIpExt: InNoRoutes\nIpExt: 1\n"
    assert kp.parse_counters(text) == {("TcpExt", "SyncookiesSent"): 3, ("TcpExt", "ListenOverflows"): 9,
                                       ("IpExt", "InNoRoutes"): 1}


def test_stat_times_after_a_command_with_spaces_and_parens():
    fields = ["S"] + ["0"] * 10 + ["250", "75"] + ["0"] * 30
    assert kp.parse_stat_times("42 (a b) c) " + " ".join(fields)) == (250, 75)


def test_tenths_and_handshake_cpu():
    samples = [{"t": 0.5, "up": 0, "cpu_total_s": 1.0}, {"t": 1.0, "up": 500, "cpu_total_s": 2.0},
               {"t": 2.0, "up": 996, "cpu_total_s": 4.0}]
    rows = bench._milestones(samples, 1000)
    assert [r["up"] for r in rows] == [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]
    assert rows[0] == {"up": 100, "t_s": 1.0, "rate_per_s_in_tenth": 100}   # 100 sessions in 1.0 s
    assert rows[5]["rate_per_s_in_tenth"] == 100                             # 100 in the next 1.0 s
    assert bench._handshake_cpu(samples, 1000) == (3.0, 1.5)               # 99.6% counts as all up
    assert bench._handshake_cpu(samples[:2], 1000) is None


def test_context_switches_both_kinds():
    text = "Name:\tx\nvoluntary_ctxt_switches:\t120\nnonvoluntary_ctxt_switches:\t7\n"
    assert kp.parse_ctxt(text) == 127


def test_busy_seconds_leave_out_idle_and_iowait():
    # user nice system idle iowait irq softirq steal
    text = f"cpu  {kp.TICK * 3} 0 {kp.TICK} {kp.TICK * 50} {kp.TICK * 9} 0 {kp.TICK} 0 0 0\ncpu0 1 2 3\n"
    assert kp.parse_busy_s(text) == 5.0


def test_handshake_window_of_another_key():
    samples = [{"t": 0.5, "up": 0, "ctxt_total": 10}, {"t": 2.5, "up": 1000, "ctxt_total": 4010}]
    assert bench._handshake_cpu(samples, 1000, "ctxt_total") == (4000, 2.0)


def test_cpu_per_handshake_of_each_side():
    # 1,000 sessions up between the first sample and the third: the engine 0.3 s, the responder 0.1 s
    samples = [{"t": 0.5, "up": 0, "engine_cpu_s": 1.0, "responder_cpu_s": 2.0},
               {"t": 1.0, "up": 500, "engine_cpu_s": 1.1, "responder_cpu_s": 2.05},
               {"t": 2.0, "up": 1000, "engine_cpu_s": 1.3, "responder_cpu_s": 2.1}]
    got = bench._per_side_cpu_us(samples, 1000)
    assert got["engine"] == pytest.approx(300.0) and got["responder"] == pytest.approx(100.0)
    assert bench._per_side_cpu_us(samples[:2], 1000) == {"engine": None, "responder": None}


def test_idle_probes_counted_from_the_records_or_the_columnar_file(tmp_path):
    embedded = {"switches": [{"echo_rtt_us": [1.0, 2.0]}, {"echo_rtt_us": []}]}
    assert bench.idle_probe_round_trips(embedded, tmp_path) == 2
    # from 10,000 switches the records are beside the summary, whose `switches` is empty
    blocks = [{"rows": 2, "columns": {"echo_rtt_us": [[5.0], [6.0, 7.0]]}},
              {"rows": 2, "columns": {"echo_rtt_us": [None, [8.0]]}, "absent": ["echo_rtt_us"]}]
    with gzip.open(tmp_path / "r.switches.json.gz", "wt") as f:
        json.dump({"schema": "sdnbench.engine.switches/1", "rows": 4, "blocks": blocks}, f)
    summary = {"switches": [], "switches_file": {"name": "r.switches.json.gz", "rows": 4}}
    assert bench.idle_probe_round_trips(summary, tmp_path) == 4


def test_the_wait_for_time_wait_counts_what_a_run_left_and_gives_up_at_its_limit():
    import socket
    import time
    srv = socket.create_server(("127.0.0.1", 0))
    port = srv.getsockname()[1]
    for _ in range(50):   # the client closes first: its end of each stays in TIME_WAIT for 60 s
        c = socket.create_connection(("127.0.0.1", port))
        a, _ = srv.accept()
        c.close()
        time.sleep(0.001)
        a.close()
    srv.close()
    t0 = time.monotonic()
    w = kp.wait_time_wait(below=10, limit_s=1.0)
    assert w["before"] >= 50 and w["after"] >= 50 and 1.0 <= w["waited_s"] < 2.0 and time.monotonic() - t0 < 2.0
    assert kp.wait_time_wait(below=10**9)["waited_s"] == 0.0   # under the bound: no wait
