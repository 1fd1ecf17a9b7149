"""``osken:topology``: LLDP discovery with a small read-only HTTP JSON API on 127.0.0.1.

Discovery is os-ken's own ``switches`` service with link observation on (the launcher registers
``--observe-links``; we turn it on here): it floods LLDP out of every port and learns links from
the LLDP it receives, and learns hosts from the packet-ins of ordinary traffic. sdnbench loads
this app together with ``learning``, so the network also forwards.

API (GET only, JSON, bound to 127.0.0.1 on ``--sdnbench-api-port``):

    /v1/topology   {"version", "switches", "links", "hosts"}   (also /v1)
    /v1/switches   [{"dpid", "dpid_str", "ports": [{"dpid", "port_no", "name", "hw_addr"}]}]
    /v1/links      [{"src": port, "dst": port}]      one entry per direction
    /v1/hosts      [{"mac", "ipv4", "ipv6", "dpid", "port_no"}]
    /v1/health     {"ok": true}

RFC 8456's topology discovery tests (§5.1.2) poll this until the view matches the network.
"""

from os_ken import cfg
from os_ken.base import app_manager
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3
from os_ken.topology import api

import jsonapi
from topology_view import route, topology_view

CONF = cfg.CONF
CONF.set_override("observe_links", True)
PATHS = ["/v1/topology", "/v1/switches", "/v1/links", "/v1/hosts", "/v1/health"]


class Topology(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_0.OFP_VERSION, ofproto_v1_3.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.port = CONF.sdnbench_api_port
        self.server = None

    def start(self):
        thread = super().start()
        self.server = jsonapi.serve(self, Handler, "/v1/topology")
        return thread

    def stop(self):
        jsonapi.close(self.server)
        super().stop()

    def view(self):
        return topology_view([s.to_dict() for s in api.get_all_switch(self)],
                             [l.to_dict() for l in api.get_all_link(self)],
                             [h.to_dict() for h in api.get_all_host(self)])


class Handler(jsonapi.Handler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        key, ok = route(self.path_only())
        if not ok:
            self.reply(404, {"error": "not found", "paths": PATHS})
        elif key == "health":
            self.reply(200, {"ok": True})
        else:
            view = self.app.view()
            self.reply(200, view if key is None else view[key])
