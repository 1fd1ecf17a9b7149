"""Known answer for docs/robustness.md's "Faucet" section, against the real Faucet: the engine's
packet-in (cookie 0, table miss, untagged) gets nothing back; one as OVS would send it under
Faucet's own pipeline (Faucet's cookie, reason ACTION, VLAN 100) makes Faucet learn the host
with flow-mods that name no buffer, and no packet-out, so no request would count as answered."""

import json
import socket
from pathlib import Path

from sdnbench.controllers import launch
from sdnbench.testing.peers import faucet_probe
from sdnbench.engine.params import check, launch_spec
from sdnbench.testing import openflow as of

# What the probe sent when it packed its messages by hand (captured at 75bb559 from the old
# builders for these arguments): the shared encoder must send the same bytes.
SENT = json.loads((Path(__file__).parent / "testdata" / "faucet_probe_sends.json").read_text())


def test_the_switch_sends_the_bytes_it_sent_when_written_by_hand():
    """Over a real socket: HELLO, then the answers to a features request, an echo with data, a
    barrier and the port-desc, desc and flow multipart requests (dpid 7, ports 1-4)."""
    with socket.create_server(("127.0.0.1", 0)) as srv:
        sw = faucet_probe.Switch("127.0.0.1", srv.getsockname()[1], 7)
        conn, _ = srv.accept()
        try:
            conn.sendall(of.msg(of.V13, "FEATURES_REQUEST", 0x11) + of.msg(of.V13, "ECHO_REQUEST", 0x12, b"ping")
                         + of.msg(of.V13, "BARRIER_REQUEST", 0x13) + of.port_desc_request(0x14)
                         + of.multipart_request(0x15, of.MP_DESC) + of.multipart_request(0x16, of.MP_FLOW))
            got = sw.pump(0.5)
            conn.settimeout(2)
            data = b""
            want = len(SENT["hello"] + "".join(SENT["answers"])) // 2
            while len(data) < want:
                data += conn.recv(65536)
        finally:
            sw.close()
            conn.close()
    assert [faucet_probe.name(m) for m in got] == ["features_request", "echo_request", "barrier_request"] + \
        ["multipart_request"] * 3
    sent, _ = of.split(data)
    assert [m.hex() for m in sent] == [SENT["hello"]] + SENT["answers"]


def test_the_packet_ins_are_the_bytes_sent_when_written_by_hand():
    built = []
    for i, (variant, cookie, reason, vid, buffered) in enumerate(faucet_probe.VARIANTS):
        mac_i = i if variant != "the same host again" else i - 1
        bid = 0x100 + i if buffered else faucet_probe.NO_BUFFER
        mac = bytes([0x02, 0xaa, 0, 0, 0, 0x10 + mac_i])
        built.append(faucet_probe.packet_in(bid, reason, cookie, 1, faucet_probe.frame(mac, vid), 0x900 + i))
    built.append(faucet_probe.packet_in(faucet_probe.NO_BUFFER, faucet_probe.R_ACTION, faucet_probe.FAUCET_COOKIE, 5,
                                        bytes(range(60)), 77))
    assert [m.hex() for m in built] == SENT["packet_ins"]


def test_a_reply_is_summarized_by_its_type_and_the_buffer_it_names():
    fm = of.flow_mod13(1, of.ADD, 3, buffer_id=0x101)
    po = of.packet_out(of.V13, 2, of.output(of.V13, 1), b"", buffer_id=0x102)
    assert faucet_probe.summarize([fm, po, b""], 0x101) == {
        "replies": {"flow_mod": 1, "packet_out": 1, "closed": 1}, "names_the_request": True, "flow_mod_tables": [3]}
    assert faucet_probe.summarize([fm, po], 0x102)["names_the_request"] is True
    assert faucet_probe.summarize([fm, po], 0x103)["names_the_request"] is False


def test_packet_in_bytes():
    m = faucet_probe.packet_in(7, 1, faucet_probe.FAUCET_COOKIE, 3, faucet_probe.frame(b"\x02" * 6, 100), 9)
    assert of.header(m) == (4, 10, len(m), 9)
    pi = of.packet_in(m)
    assert (pi["buffer_id"], pi["total_len"], pi["reason"], pi["table_id"], pi["cookie"]) == (7, 64, 1, 0, 0x5ADC15C0)
    assert pi["in_port"] == 3 and m[24:36].hex() == "0001000c8000000400000003"     # match: OXM in_port 3
    assert m[42 + 12:42 + 16] == b"\x81\x00\x00\x64"                        # 802.1Q tag, VID 100


def test_faucet_answers_no_request_of_the_background():
    with launch(launch_spec(check({"controller": "faucet:auto", "switches": 4})), of_version="1.3") as ctl:
        rows = {r["variant"]: r for r in faucet_probe.probe(ctl.host, ctl.port, wait=0.5, setup_s=2.0)}
    assert rows["switch comes up"]["replies"]["flow_mod"] > 10                      # the DP came up
    assert rows["engine's packet-in (cookie 0, NO_MATCH, untagged, buffered)"]["replies"] == {}
    learned = rows["Faucet's cookie, ACTION, VLAN 100 (as OVS sends it), buffered"]
    assert learned["replies"].get("flow_mod", 0) >= 1 and "packet_out" not in learned["replies"]
    assert not learned["names_the_request"]
    assert rows["the same host again"]["replies"] == {}
