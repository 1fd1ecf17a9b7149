"""Faucet's view from its Prometheus text: the parser by hand (lines as Faucet 1.10.12 writes
them, copied from a run), and against the real Faucet with a stacked config: a host it learns
appears at the port it came in on, a host seen again on another datapath moves there (what
``host-hijack`` is judged from), its stack ports are listed with their state."""

import time

import pytest

from sdnbench.controllers import launch
from sdnbench.controllers.faucet_config import chain, faucet_config_for
from sdnbench.testing.peers import faucet_probe as fp
from sdnbench.robustness import faucet_view as fv
from sdnbench.robustness.verdicts import host_move_check, stack_check, view_check
from sdnbench.testing import openflow as of

TEXT = '''# HELP learned_l2_port learned port of l2 entries
# TYPE learned_l2_port gauge
learned_l2_port{dp_id="0x1",dp_name="s1",eth_src="02:aa:00:00:00:42",vid="100"} 1.0
learned_l2_port{dp_id="0x5",dp_name="s5",eth_src="00:00:00:00:00:01",vid="100"} 1.0
port_stack_state{dp_id="0x1",dp_name="s1",port="port4",port_description="port4"} 1.0
port_stack_state{dp_id="0x5",dp_name="s5",port="port3",port_description="port3"} 3.0
stack_cabling_errors_total{dp_id="0x1",dp_name="s1"} 2.0
stack_probes_received_total{dp_id="0x1",dp_name="s1"} 7.0
stack_probes_received_created{dp_id="0x1",dp_name="s1"} 1.7956287646575775e+09
dp_status{dp_id="0x1",dp_name="s1"} 1.0
faucet_pbr_version{version="1.10.12"} 1.0
'''


def test_parse_samples_and_labels():
    s = fv.parse(TEXT)
    assert s[0] == ("learned_l2_port", {"dp_id": "0x1", "dp_name": "s1", "eth_src": "02:aa:00:00:00:42", "vid": "100"}, 1.0)
    assert len(s) == 9
    assert fv.parse('m{a="x\\"y"} 2\n')[0][1] == {"a": 'x"y'}
    assert fv.parse("up 1 1700000000000\n") == [("up", {}, 1.0)]   # a timestamp is allowed


@pytest.mark.parametrize("bad", ["learned_l2_port{dp_id=\"0x1\"}", "x{a=\"1\"} notanumber"])
def test_parse_refuses_non_samples(bad):
    with pytest.raises(fv.MetricsError):
        fv.parse(bad)


def test_views():
    v = fv.view(TEXT)
    assert v["hosts"] == [
        {"mac": "02:aa:00:00:00:42", "dpid": 1, "dp_name": "s1", "port_no": 1, "vid": 100},
        {"mac": "00:00:00:00:00:01", "dpid": 5, "dp_name": "s5", "port_no": 1, "vid": 100}]
    assert v["stack"] == {"ports": {(1, 4): 1, (5, 3): 3}, "probes": {1: 7}, "cabling_errors": {1: 2}}


def test_stack_change_and_its_verdict():
    before = fv.view(TEXT.replace('port="port3",port_description="port3"} 3.0', 'port="port3",port_description="port3"} 1.0')
                     .replace("} 7.0", "} 4.0"))
    after = fv.view(TEXT)
    ch = fv.stack_change(before, after, {1, 5})
    assert ch == {"came_up": [(5, 3)], "states": {(1, 4): (1, 1), (5, 3): (1, 3)}, "probes": 3, "cabling_errors": 0}
    fooled, text = stack_check(ch, 1, 5)
    assert fooled and text.startswith("stack port(s) 5:3 came up") and "5:3 INIT → UP" in text
    same = fv.stack_change(after, after, {1, 5})
    assert stack_check(same, 1, 5) == (False, "stack ports 1:4 INIT → INIT, 5:3 UP → UP; stack probes received +0, "
                                               "cabling errors +0")
    assert stack_check(same, 2, 6) is None       # neither has a stack port: not applicable
    # a port an emulated link reaches coming up is the stack working, not the attacker's doing
    cabled = dict(ch, cabled=[(5, 3)])
    assert stack_check(cabled, 1, 5) == (False, "stack ports 1:4 INIT → INIT, 5:3 INIT → UP (cabled); stack probes "
                                                 "received +3, cabling errors +0")
    assert stack_check(dict(ch, cabled=[(1, 4)]), 1, 5)[0] is True


def test_host_hijack_judged_from_the_host_view():
    v = fv.view(TEXT)
    assert view_check("host-hijack", 5, dict(v, source="Faucet"), 1)[0] is True
    moved_back = dict(v, hosts=[h for h in v["hosts"] if h["dpid"] != 5])
    assert view_check("host-hijack", 5, moved_back, 1) == \
        (False, "view places host 00:00:00:00:00:01 at nowhere")


def test_host_hijack_is_a_move_only_after_the_host_was_known_on_the_victim():
    """``host_move_check`` over the reads of a case: the victim's host known on the victim
    (dpid 1) at a read before the attacker (dpid 5) has it is a move: fooled when a later read
    places it on the attacker, not fooled when none does; first seen on the attacker, or
    never seen, is no move (not applicable, with the reason)."""
    h = "00:00:00:00:00:01"
    views = [(0.25, {"hosts": []}), (0.5, {"hosts": [{"mac": h, "dpid": 1, "port_no": 1}]}),
             (2.0, {"hosts": [{"mac": h, "dpid": 1, "port_no": 1}, {"mac": h, "dpid": 5, "port_no": 1},
                              {"mac": "02:aa:00:00:00:42", "dpid": 5, "port_no": 2}]}),
             (3.0, {"hosts": [{"mac": h, "dpid": 1, "port_no": 1}]})]
    reads = fv.host_reads(views, h)
    assert reads == [(0.25, []), (0.5, [(1, 1)]), (2.0, [(1, 1), (5, 1)]), (3.0, [(1, 1)])]
    fooled, text = host_move_check(reads, 1, 5)
    assert fooled is True and text == (
        "host 00:00:00:00:00:01 at dpid 1 port 1 from 0.50 s; at the last read before the forged ARP was taken "
        "(0.50 s): dpid 1 port 1; at 2.00 s: dpid 1 port 1, dpid 5 port 1: learned on the attacker (dpid 5) while "
        "known on the victim; at the last read (3.00 s): dpid 1 port 1")
    kept = [r for r in reads if r[0] != 2.0]
    assert host_move_check(kept, 1, 5) == (False, "host 00:00:00:00:00:01 at dpid 1 port 1 from 0.50 s; at the last "
                                                  "read (3.00 s): dpid 1 port 1; never on the attacker (dpid 5): the "
                                                  "forged ARP did not move it")
    same_read = [(0.25, []), (2.0, [(1, 1), (5, 1)])]      # no read shows the victim's place first
    fooled, text = host_move_check(same_read, 1, 5)
    assert fooled is None and text.endswith("with no earlier read placing it on the victim (dpid 1): a new host, not a move")
    assert host_move_check([(0.25, [])], 1, 5)[0] is None
    # as judge reads it (the attacker's dpid from the engine's observation): the view's reads
    # decide, with the exporter named
    view = {"source": "Faucet's Prometheus", "hosts": [], "host_reads": reads}
    o = 5
    assert view_check("host-hijack", o, view, 1)[0] is True
    assert view_check("host-hijack", o, dict(view, host_reads=kept), 1)[0] is False
    assert view_check("host-hijack", o, dict(view, host_reads=same_read), 1)[0] is None


def _learn(sw, mac: bytes, xid: int) -> list:
    sw.s.sendall(fp.packet_in(fp.NO_BUFFER, fp.R_ACTION, fp.FAUCET_COOKIE, 1, fp.frame(mac, fp.VID), xid))
    return [fp.name(m) for m in sw.pump(1.0)]


def test_real_faucet_host_view_follows_a_host_across_the_stack(tmp_path):
    """Known answer against Faucet 1.10: a host learned on datapath 1 port 1 is at (1, 1) in
    ``learned_l2_port``; the same MAC then seen on datapath 3 port 1 (another member of the
    stack, as the attacker of ``host-hijack``) is at (3, 1); every configured stack port is
    listed (ports 5 and 6, which the probe switches do not have: as in a robustness run), and
    none is up (no LLDP crossed a link)."""
    dpids = [1, 2, 3]
    cfg = faucet_config_for(dpids, ports=range(1, 7), max_hosts=0, stack=chain(dpids, 5, 6), path=tmp_path / "f.yaml")
    host = bytes([0x02, 0xaa, 0, 0, 0, 0x42])
    with launch(f"faucet:{cfg}", of_version="1.3") as ctl:
        url = ctl.info["metrics"]
        assert url.startswith("http://127.0.0.1:")
        s1, s3 = fp.Switch(ctl.host, ctl.port, 1), fp.Switch(ctl.host, ctl.port, 3)
        try:
            s1.pump(2.0), s3.pump(1.0)
            assert "flow_mod" in _learn(s1, host, 1)
            v = fv.read(url)
            assert [(h["dpid"], h["port_no"]) for h in v["hosts"] if h["mac"] == "02:aa:00:00:00:42"] == [(1, 1)]
            assert "flow_mod" in _learn(s3, host, 2)
            v = fv.read(url)
            at = sorted((h["dpid"], h["port_no"]) for h in v["hosts"] if h["mac"] == "02:aa:00:00:00:42")
        finally:
            s1.close(), s3.close()
    assert (3, 1) in at
    assert set(v["stack"]["ports"]) == {(1, 6), (2, 5), (2, 6), (3, 5)}
    assert fv.UP not in v["stack"]["ports"].values()
    assert v["stack"]["probes"] == {1: 0, 2: 0, 3: 0}


def _beacon(got: list, port: int):
    """The LLDP frame of a packet-out Faucet sent out of ``port``, or None."""
    for m in got:
        if fp.name(m) == "packet_out":
            po = of.packet_out_fields(m)
            outs = [p for t, p in of.actions(po["actions"]) if t == 0]
            if outs[:1] == [port] and po["data"][12:14] == b"\x88\xcc":
                return po["data"]
    return None


def test_real_faucet_takes_a_replayed_beacon_as_a_stack_link(tmp_path):
    """Known answer for the stack judgment against Faucet 1.10: datapath 1's own LLDP beacon
    (sent out of its stack port 6, peer s2:5) replayed by datapath 3 on its stack port 5
    (configured peer s2:6) is a cabling error: the port goes BAD and ``stack_check`` says not
    fooled; the same beacon replayed by datapath 2 on port 5, where the configured peer is
    s1:6, brings the port UP though no link carried it: fooled. One LLDP is enough, and
    nothing in it is authenticated."""
    dpids, ports = [1, 2, 3], (1, 2, 3, 4, 5, 6)
    cfg = faucet_config_for(dpids, ports=ports, max_hosts=0, stack=chain(dpids, 5, 6), path=tmp_path / "f.yaml")
    with launch(f"faucet:{cfg}", of_version="1.3") as ctl:
        sw = {d: fp.Switch(ctl.host, ctl.port, d, ports=ports) for d in dpids}
        try:
            frame, t0 = None, time.monotonic()
            while frame is None and time.monotonic() - t0 < 20:   # beacons every 5 s
                for d, s in sw.items():
                    got = s.pump(0.3)
                    frame = frame or (_beacon(got, 6) if d == 1 else None)
            assert frame is not None, "Faucet sent no LLDP beacon out of s1's stack port in 20 s"
            before = fv.read(ctl.info["metrics"])
            sw[3].s.sendall(fp.packet_in(fp.NO_BUFFER, fp.R_ACTION, fp.FAUCET_COOKIE, 5, frame, 77))
            [s.pump(0.5) for s in sw.values()]
            mid = fv.read(ctl.info["metrics"])
            sw[2].s.sendall(fp.packet_in(fp.NO_BUFFER, fp.R_ACTION, fp.FAUCET_COOKIE, 5, frame, 78))
            [s.pump(0.5) for s in sw.values()]
            after = fv.read(ctl.info["metrics"])
        finally:
            [s.close() for s in sw.values()]
    wrong = fv.stack_change(before, mid, set(dpids))
    assert wrong["states"][(3, 5)] == (1, 2) and wrong["cabling_errors"] == 1 and wrong["probes"] == 1
    assert stack_check(wrong, 1, 3) == (False, "stack ports 1:6 INIT → INIT, 3:5 INIT → BAD; stack probes received +1, "
                                                "cabling errors +1")
    right = fv.stack_change(mid, after, set(dpids))
    assert right["came_up"] == [(2, 5)] and right["cabling_errors"] == 0
    fooled, text = stack_check(right, 1, 2)
    assert fooled and text.startswith("stack port(s) 2:5 came up with no link behind them")
