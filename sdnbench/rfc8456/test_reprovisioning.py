"""Network re-provisioning (RFC 8456 §5.4.2): pure parts, the known answer against the scripted
reroute controller (a known delay between PORT_STATUS and the new path), and osken:reroute.

Known answer: a controller that installs the new path d after the link's PORT_STATUS (as it
really waited, recorded by itself) makes traffic flow again d after the failure, plus what the
same controller costs at d = 0 (the measured floor): read within 5% of d plus the floor; the
frames lost are the stream's frames in that time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ..errors import UserError
from ..net.engine_network import network_for
from . import reprovisioning as rp
from . import streams
from .reroute_controller import RerouteController


def test_the_link_and_pair_are_chosen_and_a_topology_without_redundancy_is_refused():
    link, pair = rp.pick(network_for("ring,6"))
    assert (link, pair) == ([1, 2, 2, 2], (0, 1)), "h1-h2 cross link s1-s2; the other way round is 5 hops"
    link, pair = rp.pick(network_for("ring,6"), (4, 3))
    assert link == [3, 3, 4, 2] and {network_for("ring,6")["hosts"][i]["dpid"] for i in pair} == {3, 4}
    with pytest.raises(UserError, match="linear,4 has no redundant path for any link"):
        rp.pick(network_for("linear,4"))
    with pytest.raises(UserError, match="no link between switches 1 and 4"):
        rp.pick(network_for("ring,6"), (1, 4))
    with pytest.raises(UserError, match="DPID-DPID"):
        rp.parse_link("1:2")


def test_gap_around_an_instant_reads_the_raw_record():
    pair = {"received": 5, "first_seq": 0, "first_rx_ns": 10, "last_rx_ns": 90,
            "gaps": [{"before_seq": 1, "before_ns": 20, "after_seq": 5, "after_ns": 60}]}
    assert streams.gap_around(pair, 30) == {"before_seq": 1, "before_ns": 20, "after_seq": 5, "after_ns": 60, "lost": 3}
    assert streams.gap_around(pair, 70) is None, "no break there"
    assert streams.gap_around(pair, 95) is None, "nothing after it"
    assert streams.gap_around(dict(pair, first_seq=4, first_rx_ns=40, gaps=[]), 30)["lost"] == 4, "the stream began late"


def _trial(delay_s: float) -> tuple:
    net, _, pairs, _ = rp.trial_network("ring,6", warmup_ms=500, fail_after_ms=300, after_ms=800)
    with RerouteController(net, pairs, delay_s=delay_s) as c:
        doc = streams.run_engine([c.address], net, "1.0", rp.run_seconds(net))
        applied = c.applied_s
    s = rp.summarize(doc, net)
    assert s["invariant"] == "ok" and s["network_invariant"] == "ok", s
    assert rp.verdict(s) == "re-provisioned", s
    return s, applied


def test_known_reroute_delay_is_read_within_5_percent_plus_the_floor():
    floor, _ = _trial(0.0)
    s, applied = _trial(0.300)
    assert len(applied) == 1 and applied[0] >= 0.300, "one reroute, after the known delay"
    want = applied[0] * 1000
    base = sum(p["reprovisioning_ms"] for p in floor["pairs"]) / 2
    for p in s["pairs"]:
        assert abs(p["reprovisioning_ms"] - want) <= 0.05 * want + base, (p, want, base)
        assert want - 2 <= p["rfc_ms"] <= want + 0.05 * want + base + 2, "T2 - T1: one interval more at most"
        assert abs(p["lost"] - p["reprovisioning_ms"]) <= 0.05 * want + 2, "1 frame per ms lost while rerouting"
    assert base < 0.1 * want, f"the floor ({base:.1f} ms) is small beside the delay (a known answer, not noise)"


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sdnbench", "controller", *args], capture_output=True, text=True,
                          timeout=120)


def test_a_topology_without_a_redundant_path_is_one_line_before_anything_starts():
    cp = _cli("reprovisioning", "--topo", "linear,3", "--reps", "1")
    assert cp.returncode == 1 and "Traceback" not in cp.stderr
    assert cp.stderr.strip().endswith("(use a ring, e.g. ring,6)") and cp.stderr.count("\n") == 1


def test_osken_reroute_moves_the_streams_off_a_failed_link():
    cp = _cli("reprovisioning", "--controller", "osken:reroute", "--topo", "ring,6", "--reps", "1",
              "--warmup-ms", "1500", "--fail-after-ms", "500", "--after-ms", "500", "--json")
    assert cp.returncode == 0, cp.stderr
    [r] = json.loads(cp.stdout)
    c = r["counters"]
    assert c["verdict"] == "re-provisioned" and c["invariant"] == "ok"
    [t] = [s for s in r["series"] if s["metric"] == "reprovisioning_time"]
    assert len(t["values"]) == 2 and all(0 < v < 500 for v in t["values"])
    assert all(p["received"] > 0.9 * p["sent"] for p in c["pairs"]), "the streams flowed before and after"


def test_resilience_cell_parameters_are_checked():
    from .resilience_cell import validate_param
    assert validate_param("test", "failover") is None and validate_param("link", "1-2") is None
    assert validate_param("test", "flood") == "must be one of reprovisioning, failover, got 'flood'"
    assert validate_param("warmup_ms", 0) == "must be a whole number (ms), 1 or more, got 0"
    assert validate_param("flows", 3).startswith("unknown resilience parameter 'flows'")
