"""Pure: the documented properties of the test bed that explain an OVS-vs-engine difference,
each with the test that demonstrates it on this machine. A difference is explained only by the
noise floor (``noise.py``) or by one of these; never by a list of what one controller did.

- ``admin-down``: the ``link`` stimulus takes the link down on Mininet as ``ip link set dev IF
  down`` on both ends of the veth pair (a veth cannot lose carrier on both ends otherwise), so
  Open vSwitch reports both ports administratively down (config PORT_DOWN) and, on the way up, a
  transitional config 0 / state 0; the emulated link fails as a cable would (config 0, state
  LINK_DOWN then LIVE). Demonstrated by ``test_environment.py`` on a real OVS bridge pair (both
  ends down: PORT_DOWN + LINK_DOWN; only the peer down: config 0 + LINK_DOWN). It applies only
  to a port Open vSwitch reported administratively down in the same run: an engine PORT_STATUS
  where Open vSwitch sent none stays unexplained.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

PORT_DOWN = 1                   # ofp_port_config OFPPC_PORT_DOWN, 1.0 and 1.3
_PS = re.compile(r"^(s\S+) PORT_STATUS reason=2 port,config,state=\((\d+), (\d+), (\d+)\)$")


@dataclass(frozen=True)
class Evidence:
    key: str
    what: str
    proof: str                  # the test that demonstrates it
    applies: Callable           # (stimulus, side, cat, item, ovs_received) -> bool


def _port_status(item: str):
    m = _PS.match(item)
    return (m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))) if m else None


def admin_down_ports(ovs_received) -> set:
    """(switch, port) that Open vSwitch reported administratively down (config PORT_DOWN)."""
    out = set()
    for x in ovs_received:
        ps = _port_status(x)
        if ps and ps[2] & PORT_DOWN:
            out.add(ps[:2])
    return out


def _admin_down(stimulus: str, side: str, cat: str, item: str, ovs_received) -> bool:
    ps = _port_status(item)
    if stimulus != "link" or cat != "received" or ps is None or ps[:2] not in admin_down_ports(ovs_received):
        return False
    _sw, _port, config, state = ps
    if side == "only_ovs":
        return bool(config & PORT_DOWN) or (config, state) == (0, 0)
    return config == 0


EVIDENCE = (
    Evidence("admin-down", "Mininet's link down is both veth ends administratively down; the emulated "
             "link fails as a cable (config 0, LINK_DOWN)",
             "sdnbench/differential/test_environment.py::test_the_harness_link_down_is_administrative_on_ovs",
             _admin_down),
)


def explain(stimulus: str, side: str, cat: str, item: str, ovs_received) -> str:
    """The key of the evidence that explains an item, or ''."""
    return next((e.key for e in EVIDENCE if e.applies(stimulus, side, cat, item, ovs_received)), "")
