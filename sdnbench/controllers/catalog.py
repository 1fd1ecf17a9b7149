"""What sdnbench knows about controllers and apps, as plain data.

Read by the kinds that run these apps (``kinds/osken.py``, ``kinds/ryu.py``: valid names, the
OpenFlow versions an app speaks, their rows in ``sdnbench controllers list``) and by
``inventory`` (the controllers sdnbench does not install).
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
    App("flowpush", "installs only the flows pushed to its HTTP JSON API on 127.0.0.1 (proactive "
        "provisioning); misses dropped", ("1.0", "1.3")),
    App("reroute", "shortest paths over LLDP-discovered links, moved off a link when it goes down "
        "(RFC 8456 §5.4.2); never floods", ("1.0", "1.3")),
    App("takeover", "learning switch with OpenFlow 1.3 roles: master, or a slave that takes the master "
        "role when its peer dies (RFC 8456 §5.4.1; `controller failover` runs two)", ("1.3",)),
)}

# Ryu 4.34's bundled apps that make sense as a controller under test (ryu:APP); other module
# names are passed through to ryu-manager as they are.
RYU_APPS = {a.name: a for a in (
    App("simple_switch", "Ryu's L2 learning switch for OpenFlow 1.0", ("1.0",)),
    App("simple_switch_13", "Ryu's L2 learning switch for OpenFlow 1.3", ("1.3",)),
    App("simple_switch_stp_13", "learning switch with spanning tree, OpenFlow 1.3", ("1.3",)),
)}

# Controllers sdnbench does not install: run from the user's own copy with a cmd: spec (managed:
# started, sampled, watched and stopped per cell), or reached by address with tcp:HOST:PORT.
# (name, variable naming the user's copy, spec, note)
EXTERNAL = (
    ("POX", "POX_DIR",
     "cmd:python3 pox.py openflow.of_01 --address={host} --port={port} forwarding.l2_learning"
     ";cwd=${POX_DIR};of=1.0;name=pox;stop=INT",
     "its current branch runs on Python 3.11; OpenFlow 1.0 only (use --of 1.0)"),
    ("Floodlight", "FLOODLIGHT_DIR",
     "cmd:java -Dnet.floodlightcontroller.core.internal.OFSwitchManager.openFlowPort={port} "
     "-Dnet.floodlightcontroller.restserver.RestApiServer.httpPort={http_port} "
     "-jar target/floodlight.jar -cf ${FLOODLIGHT_CONF};cwd=${FLOODLIGHT_DIR};of=1.0,1.3;name=floodlight;grace=15"
     ";http=http://{host}:{http_port}/wm/core/controller/summary/json",
     "FLOODLIGHT_CONF: a properties file with its listeners on 127.0.0.1 (docs/floodlight.md); "
     "ready when its REST API answers"),
    ("ONOS", "ONOS_DIR",
     "cmd:${ONOS_DIR}/bin/onos-service server;port=6653;of=1.0,1.3;name=onos;grace=30"
     ";http=http://{host}:8181/onos/ui",
     "activate org.onosproject.openflow and org.onosproject.fwd in its config first"),
    ("OpenDaylight", "ODL_DIR",
     "cmd:${ODL_DIR}/bin/karaf server;port=6633;of=1.0,1.3;name=opendaylight;grace=30"
     ";http=http://{host}:8181/restconf/operational/network-topology:network-topology",
     "with odl-openflowplugin-flow-services and l2switch installed as boot features"),
    ("hardware or remote lab", "", "tcp:HOST:PORT",
     "any OpenFlow controller reachable from this machine; sdnbench only connects"),
)

