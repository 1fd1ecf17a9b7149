"""Which app of a controller runs which RFC 8456 test, and why a test cannot apply.

A controller under evaluation is named by one spec (``osken:learning``, ``ryu:simple_switch_13``,
``cmd:...;name=pox``). Most tests load its forwarding app. Four need something a plain learning
switch lacks, so they run the same controller with a sibling app, or are listed as not applicable:

- ``topology``: a northbound API that shows the discovered links (§5.1.1, §5.1.8, §5.2.2);
- ``proactive``: a northbound API that installs flows (§5.1.5, §5.1.7, §5.2.3 proactive);
- ``reroute``: an app that moves paths off a failed link (§5.4.2);
- ``takeover``: two instances with OpenFlow roles, one taking over when the other dies (§5.4.1).

Pure data and one function; the report shows the app each test used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..controllers.kinds import with_role
from ..controllers.spec import display_name, needed_traffic, parse_spec, sibling, spoken_versions
from .flow_push import FLOW_APIS

ROLES = ("forwarding", "topology", "proactive", "reroute", "takeover")

# The sibling app of each role is in its controller kind's record (``ControllerKind.roles``):
# same controller, same install. The apps that already are a role's sibling keep it
# (osken:topology is its own topology app).
WHY_NOT = {
    "topology": "no northbound API showing the discovered topology is known for {spec} "
                f"({', '.join(with_role('topology'))} have one; or give --api and --api-url)",
    "proactive": "no proactive (northbound flow-push) API is known for {spec} "
                 f"({', '.join(with_role('proactive'))} have one; or give --api {'|'.join(FLOW_APIS)} "
                 "and --api-url)",
    "reroute": "no app that moves paths off a failed link is known for {spec} "
               f"({', '.join(with_role('reroute'))} is sdnbench's)",
    "takeover": "single instance only: no OpenFlow-role takeover between two instances is known for {spec} "
                f"({', '.join(with_role('takeover'))} runs two)",
}


@dataclass(frozen=True)
class RoleSpec:
    role: str
    spec: Optional[str]          # None: the test cannot apply
    reason: str = ""             # why not, when spec is None


def for_role(spec: str, role: str, api: Optional[list] = None) -> RoleSpec:
    """The spec a role's tests run, or None with the reason. ``api`` ([adapter, base URL], from
    ``--api``/``--api-url``) gives a controller without a known topology app its northbound view:
    the discovery tests then run the controller itself, read through that adapter."""
    if role == "forwarding":
        return RoleSpec(role, spec)
    own = sibling(spec, role)
    if own is not None:
        return RoleSpec(role, own)
    if role == "topology" and api:
        return RoleSpec(role, spec)
    if role == "proactive" and api and api[0] in FLOW_APIS:
        return RoleSpec(role, spec)       # the controller itself, its flows pushed through --api
    return RoleSpec(role, None, WHY_NOT[role].format(spec=display_name(spec)))


def of_version(spec: str) -> str:
    """The OpenFlow version the suite asks for: 1.3 when the controller speaks it (or nobody
    knows), else the one it speaks (POX and Ryu's simple_switch: 1.0)."""
    versions = spoken_versions(parse_spec(spec))
    if not versions or "1.3" in versions:
        return "1.3"
    return versions[0]


def traffic(spec: str) -> dict:
    """Extra engine parameters a controller needs for the packet-in tests: Faucet takes only the
    packet-ins its own pipeline raises (``traffic: faucet``, docs/robustness.md "Faucet")."""
    profile = needed_traffic(spec)
    return {"traffic": profile} if profile else {}
