"""Known answer for docs/robustness.md's "Faucet" section, against the real Faucet: the engine's
packet-in (cookie 0, table miss, untagged) gets nothing back; one as OVS would send it under
Faucet's own pipeline (Faucet's cookie, reason ACTION, VLAN 100) makes Faucet learn the host
with flow-mods that name no buffer, and no packet-out, so no request would count as answered."""

import struct

from sdnbench.controllers import launch
from sdnbench.robustness import faucet_probe
from sdnbench.engine.params import check, launch_spec


def test_packet_in_bytes():
    m = faucet_probe.packet_in(7, 1, faucet_probe.FAUCET_COOKIE, 3, faucet_probe.frame(b"\x02" * 6, 100), 9)
    assert struct.unpack("!BBHI", m[:8]) == (4, 10, len(m), 9)
    assert struct.unpack("!IHBBQ", m[8:24]) == (7, 64, 1, 0, 0x5ADC15C0)
    assert struct.unpack("!HHII", m[24:36]) == (1, 12, 0x80000004, 3)     # match: OXM in_port 3
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
