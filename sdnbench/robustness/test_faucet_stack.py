"""Faucet's stack comes up over the engine's emulated links (issue 31), against the real Faucet
1.10.12 with ``faucet:auto`` stacked as a robustness run configures it: each stack link is an
emulated link, Faucet's LLDP beacon sent out of one end runs the other switch's flow table, and
Faucet's stack LLDP flow raises it as Open vSwitch would (its cookie, reason ACTION), so every
cabled stack port reaches UP in ``port_stack_state``. The two ports towards the attacker, which
no link reaches, stay down. (Before: every link frame came up as cookie 0, NO_MATCH, which
Faucet drops, and every port stayed INIT.) Then ``fabricated-lldp`` in Faucet's own beacon
format is read by Faucet's cabling check, not dropped by its parser. And ``host-hijack`` is a
move: Faucet knew the victim's host on the victim before the forged ARP."""

import re

from sdnbench.engine.params import check
from sdnbench.engine.result_types import engine_result
from sdnbench.robustness import faucet_view as fv
from sdnbench.robustness import runner


def test_faucet_stack_comes_up_over_the_emulated_links():
    # 40 loops of 250 ms: 10 s, two of Faucet's 5 s beacon rounds at least
    p = check(runner.case_params("faucet:auto", "no-hello", None, {"loops": 40}))
    links, cabled = runner.stack_cabling(p)
    assert links == [[1, 6, 2, 5], [2, 6, 3, 5], [3, 6, 4, 5], [4, 6, 5, 5]]
    assert cabled == [(1, 6), (2, 5), (2, 6), (3, 5), (3, 6), (4, 5)]
    m = runner._Managed(p)
    ctl = m.start()
    try:
        with fv.Watch(ctl.info["metrics"]) as w:
            doc, why = runner.run_one(ctl, p)
    finally:
        m.stop()
    assert doc is not None, why
    seen = fv.merged(w.views)
    states = seen["stack"]["ports"]
    assert {k: states.get(k) for k in cabled} == {k: fv.UP for k in cabled}, states
    assert states.get((4, 6)) != fv.UP and states.get((5, 5)) != fv.UP, states
    assert sum(seen["stack"]["probes"].values()) >= len(cabled)
    assert sum(seen["stack"]["cabling_errors"].values()) == 0
    switches = engine_result(doc).switches
    outs = [s.lldp_packet_outs for s in switches]
    ins = [s.lldp_packet_ins for s in switches]
    assert all(n > 0 for n in outs) and ins[0] > 0 and all(n > 0 for n in ins), (outs, ins)


def test_fabricated_lldp_in_faucets_format_meets_its_cabling_check():
    """The forged beacon (the victim's stack port 1:6, UP, on the attacker's stack port 5:5,
    whose configured peer is s4:6) is parsed as Faucet's own and refused by its check: the
    port goes BAD, one cabling error per forged LLDP; not fooled."""
    (r, v), = runner.run_cases("faucet:auto", ["fabricated-lldp"], reps=1)
    assert v.verdict == "ignored", v.evidence
    assert "5:5 INIT → BAD" in v.evidence and "cabling errors +3" in v.evidence, v.evidence


def test_host_hijack_moves_a_host_faucet_knew_on_the_victim():
    """Known answer for ``host-hijack`` on Faucet's stack (1.10.12): the ``faucet`` background
    announces each switch's host 1 once before the measured phase (its learning phase, dressed
    as Faucet's packet-ins), so Faucet has the victim's host 00:00:00:00:00:01 on datapath 1
    port 1 at a read before the forged ARP; the attacker's gratuitous ARP on datapath 5 port 1
    is then learned there too (Faucet keeps a host table per datapath and checks nothing of
    the earlier place): fooled, decided from ``learned_l2_port``. Both learning ARPs of each
    switch were answered (Faucet's two flow-mods)."""
    (r, v), = runner.run_cases("faucet:auto", ["host-hijack"], reps=1)
    assert v.verdict == "fooled", v.evidence
    m = re.search(r"host 00:00:00:00:00:01 at dpid 1 port 1 from ([\d.]+) s; .*at ([\d.]+) s: dpid 1 port 1, "
                  r"dpid 5 port 1: learned on the attacker", v.evidence)
    assert m and float(m.group(1)) < float(m.group(2)), v.evidence
    assert v.evidence.startswith("Faucet's Prometheus (learned_l2_port"), v.evidence
    assert r.counters["learning_replies"] >= 4, r.counters.get("learning_replies")
