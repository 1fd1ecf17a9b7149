"""Known answers for the C client's load (cclient.py, hsclient.c) and the scale run's namespace
(scale_netns.py), against the real responder: what the floor reports is what the peer did."""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402
import cclient  # noqa: E402
import scale_netns  # noqa: E402


def _load(extra: tuple, prefix: tuple = ()) -> dict:
    with bench.Responder("1.3", procs=1, extra=extra, prefix=prefix) as r:
        net = f"/proc/{r.p.pid}/net" if prefix else "/proc/net"
        return cclient.run(r.port, 200, 1, r.p.pid, (400, 3, 500), prefix, net)


def test_every_tenth_echo_dropped_is_a_tenth_lost_and_every_request_answered():
    out = _load(("--drop-echo-one-in", "10"))
    ld = out["load"]
    assert out["sessions_up"] == 200 and out["failed"] == 0
    assert ld["sent"] == 1200 and ld["answered"] == 1200 and ld["lost"] == 0   # 400/s x 3 s
    assert ld["echo_sent"] == 1200                                            # 200 sessions, every 0.5 s, 3 s
    assert ld["echo_lost"] == 120 and ld["echo_answered"] == 1080
    assert ld["partial_io"] == 0 and 0 < ld["p50_us"] <= ld["p99_us"]


def test_every_tenth_packet_in_dropped_is_a_tenth_of_the_requests_lost():
    ld = _load(("--drop-one-in", "10"))["load"]
    assert ld["sent"] == 1200 and ld["lost"] == 120 and ld["echo_lost"] == 0


def test_a_namespace_of_its_own_with_the_table_sized_and_nothing_left():
    before = scale_netns.CHILD_EHASH.read_text()
    with scale_netns.ScaleNetns(3000) as ns:
        assert ns.entries == 8192                      # 2 x 3000 sockets: the next power of two
        assert scale_netns.CHILD_EHASH.read_text() == before
        ld = _load((), tuple(ns.prefix))["load"]
        assert ld["answered"] == ld["sent"] == 1200
        name = ns.name
    assert scale_netns.CHILD_EHASH.read_text() == before
    assert name not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout


def test_ehash_entries_and_the_idle_probe_above_the_keep_alive():
    assert [scale_netns.ehash_entries(n) for n in (1, 512, 513, 1_000_000, 10**8)] == \
        [1024, 1024, 2048, 2_097_152, 1 << 24]
    a = lambda probe, every: type("A", (), {"echo_interval_ms": probe, "echo_every_ms": every})
    assert bench.idle_probe_ms(a(60_000, 0)) == 60_000
    assert bench.idle_probe_ms(a(60_000, 120_000)) == 240_000
    assert bench.idle_probe_ms(a(60_000, 10_000)) == 60_000
