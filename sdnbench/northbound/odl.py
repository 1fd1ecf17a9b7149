"""OpenDaylight (RESTCONF, openflowplugin's ``flow:1`` topology; basic auth admin/admin by
default): GET /rests/data/network-topology:network-topology/topology=flow%3A1?content=nonconfig
(RFC 8040) gives ``{"network-topology:topology": [{"topology-id": "flow:1", "link": [{"link-id",
"source": {"source-node": "openflow:1", "source-tp": "openflow:1:2"}, "destination":
{"dest-node": "openflow:2", "dest-tp": "openflow:2:1"}}]}]}`` (the network-topology YANG model),
one entry per direction. The older ``/restconf/operational/...`` answer (key ``topology``) parses
too. A topology with no links has no ``link`` key. Not run here (not installable from the
registries): tested against a fake server."""

PATH = "/rests/data/network-topology:network-topology/topology=flow%3A1?content=nonconfig"
DEFAULT_AUTH = ("admin", "admin")


def tp(text: str) -> tuple:
    """``openflow:DPID:PORT`` (DPID decimal) as (dpid, port)."""
    kind, dp, port = text.split(":")
    if kind != "openflow":
        raise ValueError(f"termination point {text!r} is not openflow:DPID:PORT")
    return int(dp), int(port)


def parse(doc) -> set:
    topologies = doc.get("network-topology:topology") or doc.get("topology")
    if topologies is None:
        raise KeyError("network-topology:topology")
    out: set = set()
    for t in topologies:
        for l in t.get("link", []):
            out.add((tp(l["source"]["source-tp"]), tp(l["destination"]["dest-tp"])))
    return out
