"""Controller failover (RFC 8456 §5.4.1): the known answer against the scripted takeover
controllers (a known delay between the master's death and the standby's MASTER request), bad
input, and osken:takeover.

Known answer: a standby that asks for MASTER d after it sees the master die makes every switch
see it as master d after the kill, plus what the same pair costs at d = 0 (the measured floor);
read within 5% of d plus the floor. The scripted pair forwards every frame through the master
(a hub), so the streams' gap T2 - T1 and the first new flow read d too (within one frame or one
flow interval more)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ..controllers import launch
from ..controllers.ofhello import free_port
from ..errors import UserError
from . import failover as fo
from .stored import FailoverCounters

SCRIPTED = (f"cmd:{sys.executable} -m sdnbench.testing.peers.takeover_controller --port {{port}} --role {{role}} "
            "--peer {peer} --delay-ms %d;of=1.3;name=scripted-takeover")


def _trial(delay_ms: int) -> dict:
    net, _, kill_ms = fo.trial_network("linear,2", interval_us=5000, warmup_ms=500, fail_after_ms=500,
                                       after_ms=1000, flow_rate=100)
    spec_a, spec_b = fo.instance_specs(SCRIPTED % delay_ms, free_port())
    with launch(spec_a, of_version="1.3") as a, launch(spec_b, of_version="1.3") as b:
        doc, kill_mono = fo.run(a, b, net, kill_ms)
        assert not a.alive() and b.alive(), "A was killed by its PID, B serves"
    s = fo.summarize(doc, net, kill_mono)
    assert s["invariant"] == s["network_invariant"] == s["provisioning_invariant"] == "ok", s
    assert fo.verdict(s) == "taken over", s
    return s


def test_known_takeover_delay_is_read_within_5_percent_plus_the_floor():
    floor = _trial(0)
    s = _trial(200)
    want = 200.0
    base = floor["role_change_ms"]
    assert base < 0.1 * want, f"the floor ({base:.1f} ms) is small beside the delay"
    for sw, r in s["roles"].items():
        assert r["a_master"], f"switch {sw}: A was master before the kill"
        assert abs(r["b_master_ms"] - want) <= 0.05 * want + base, (sw, r, base)
    interval_ms, flow_ms = 5.0, 10.0
    assert abs(s["new_flow_ms"] - want) <= 0.05 * want + floor["new_flow_ms"] + flow_ms, (s["new_flow_ms"], floor)
    for p in s["pairs"]:
        assert abs(p["gap_ms"] - want) <= 0.05 * want + floor["rfc_failover_ms"] + interval_ms, (p, floor["pairs"])
        assert abs(p["lost"] - want / interval_ms) <= 0.05 * want / interval_ms + 2, "1 frame per 5 ms lost"
    assert s["flows_lost"] >= 15, "the flows started while no master answered are lost"


def test_bad_input_is_one_line_before_anything_starts():
    with pytest.raises(UserError, match="cannot be run as a master and a standby"):
        fo.instance_specs("osken:learning", 1)
    with pytest.raises(UserError, match="roles need OpenFlow 1.3"):
        fo.check_of("1.0")
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "failover", "--of", "1.0", "--reps", "1"],
                        capture_output=True, text=True, timeout=60)
    assert cp.returncode == 1 and cp.stderr.count("\n") == 1 and "give --of 1.3" in cp.stderr


def test_osken_takeover_standby_becomes_master_and_provisions_new_flows():
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "failover", "--controller", "osken:takeover",
                         "--topo", "linear,3", "--reps", "1", "--warmup-ms", "1500", "--fail-after-ms", "500",
                         "--after-ms", "700", "--json"], capture_output=True, text=True, timeout=120)
    assert cp.returncode == 0, cp.stderr
    [r] = json.loads(cp.stdout)
    c = r["counters"]
    assert c["verdict"] == "taken over" and c["switches_with_b_master"] == 3
    assert FailoverCounters.problems(c) == []
    # B is SLAVE until it takes over (no packet-ins, its flow-mods refused): a flow started after
    # the kill is provisioned only once B was master somewhere, and it was delivered while the
    # engine still ran (to --after-ms past the kill, then a flow timeout, then 0.5 s)
    assert 0 < c["role_change_first_ms"] <= c["role_change_ms"], c
    assert c["role_change_first_ms"] <= c["new_flow_ms"] <= 700 + fo.FLOW_TIMEOUT_MS + 500, c
    assert c["lost"] == 0, "the learning paths A installed keep forwarding while no master answers"
