"""The link path against Open vSwitch, for real (``linkpath``): Faucet's beacon sent out of one
switch's port, over a link, into a switch whose table has Faucet's stack LLDP flow; then a frame
no flow matches, without and with a table-miss entry. Open vSwitch 3.1 (two netdev bridges on a
veth pair) is the known answer; the engine's emulated link (``Switch::frame_from_link``) must
raise the same packet-ins: reason, cookie, table, in_port, buffer id, length and frame."""

from sdnbench.testing.peers import linkpath as lp

ACTION, NO_MATCH, NO_BUFFER = 1, 0, 0xFFFFFFFF
WANT = [("faucet-flow", 2, ACTION, lp.FAUCET_COOKIE, 0, lp.PEER, NO_BUFFER, 60, lp.BEACON.hex()),
        ("table-miss", 2, NO_MATCH, lp.MISS_COOKIE, 0, lp.PEER, NO_BUFFER, 60, lp.OFF_MASK.hex())]


def test_a_frame_over_a_link_raises_on_the_engine_what_it_raises_on_open_vswitch():
    ovs = lp.run_ovs()
    engine = lp.run_engine()
    for side in (ovs, engine):
        assert side["done"] and side["ready"] == [1, 2] and not side["errors"], side
    assert ovs["seen"] == WANT, "Open vSwitch: ACTION with Faucet's cookie; nothing without a flow; NO_MATCH with 0x77"
    assert engine["seen"] == ovs["seen"]
    # the scripted controller answers none of the engine's background requests: that is the only failure
    assert engine["engine_error"].startswith("nothing measured"), engine["engine_error"]
