"""The differential run itself, a small part of the matrix (docs/conformance.md), for real:
Mininet + Open vSwitch (userspace datapath) and the engine's emulated network side by side,
each with a fresh controller, tcpdump on its port, the flow tables read over OpenFlow.

- the scripted table-miss + LLDP controller of issue 27 at 1.3 (``tablemiss``): the same
  handshake, table-miss entries in tables 0-3, LLDP packet-ins (NO_MATCH, table 0) and tables;
- Ryu's simple_switch_13 with frames between the hosts: the same packet-ins, packet-outs,
  flow-mods and learned flows.

Each cell must compare identical after normalisation (what is left out, and why, is in the
module docs of ``normalise``); a difference prints what differs."""

import json

from .harness import cell
from sdnbench.testing.peers.tablemiss import spec as tablemiss


def _check(c: dict) -> None:
    assert c["identical"], json.dumps({k: c[k] for k in ("only_ovs", "only_engine", "notes")}, indent=1)
    assert c["noise"] == [0, 0], "a frame no stimulus sent reached the controller (IPv6 from a host?)"
    assert c["counts"]["ovs"][0] > 3 and c["counts"]["ovs"][1] > 3, c["counts"]   # something was compared


def test_tablemiss_controller_sees_the_same_network_on_ovs_and_the_engine():
    c = cell(tablemiss(), "1.3", "connect")
    _check(c)
    assert c["counts"]["ovs"][2] == 8, "four table-miss entries on each of two switches"


def test_ryu_simple_switch_13_frames_are_handled_the_same():
    _check(cell("ryu:simple_switch_13", "1.3", "frames"))
