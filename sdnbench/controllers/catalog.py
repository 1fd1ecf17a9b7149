"""What sdnbench knows about controllers and apps, as plain data.

Used by ``parse_spec`` (valid names), by the launcher (which OpenFlow versions an app speaks)
and by ``sdnbench controllers list`` (what to tell the user).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class App:
    name: str
    summary: str
    of_versions: tuple          # the OpenFlow versions the app implements
    modules: tuple = ()         # os-ken app modules the launcher loads (default: the name)

    def module_list(self) -> tuple:
        return self.modules or (self.name,)


# The os-ken apps shipped in sdnbench/controllers/apps/ (written for os-ken 4.x).
OSKEN_APPS = {a.name: a for a in (
    App("learning", "L2 learning switch: packet-in, learn, flow-mod and packet-out", ("1.0", "1.3")),
    App("hub", "floods every packet from the controller; installs no flows", ("1.0", "1.3")),
    App("passthrough", "static flows port 1 <-> port 2; no packet-ins after set-up", ("1.0", "1.3")),
    App("multitable", "learning switch over a 4-table pipeline (filter, source, destination, flood)",
        ("1.3",)),
    App("topology", "LLDP discovery plus learning switch; HTTP JSON API on 127.0.0.1", ("1.0", "1.3"),
        modules=("topology", "learning")),
)}

# Ryu 4.34's bundled apps that make sense as a controller under test (ryu:APP); other module
# names are passed through to ryu-manager as they are.
RYU_APPS = {a.name: a for a in (
    App("simple_switch", "Ryu's L2 learning switch for OpenFlow 1.0", ("1.0",)),
    App("simple_switch_13", "Ryu's L2 learning switch for OpenFlow 1.3", ("1.3",)),
    App("simple_switch_stp_13", "learning switch with spanning tree, OpenFlow 1.3", ("1.3",)),
)}

# Controllers that cannot be installed here but are reached by address with tcp:HOST:PORT.
EXTERNAL = (
    ("POX", "./pox.py forwarding.l2_learning openflow.of_01 --address=127.0.0.1 --port=6633",
     "tcp:127.0.0.1:6633"),
    ("Floodlight", "java -jar target/floodlight.jar (OpenFlow on 6653)", "tcp:127.0.0.1:6653"),
    ("ONOS", "onos-service start; app activate org.onosproject.fwd", "tcp:127.0.0.1:6653"),
    ("OpenDaylight", "karaf; feature:install odl-openflowplugin-flow-services", "tcp:127.0.0.1:6633"),
    ("hardware or remote lab", "any OpenFlow controller reachable from this machine",
     "tcp:HOST:PORT"),
)


def of_versions_for(kind: str, app: str | None) -> tuple:
    """The OpenFlow versions a controller speaks, as far as sdnbench knows ("" = unknown)."""
    if kind == "osken":
        return OSKEN_APPS[app].of_versions
    if kind == "ryu":
        known = RYU_APPS.get(app or "")
        return known.of_versions if known else ()
    if kind == "faucet":
        return ("1.3",)
    if kind == "ovs-testcontroller":
        return ("1.0", "1.3")
    return ()
