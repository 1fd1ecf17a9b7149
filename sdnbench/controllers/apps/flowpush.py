"""``osken:flowpush``: flows pushed through a small HTTP JSON API on 127.0.0.1 (os-ken 4.x ships
no REST apps), for RFC 8456 proactive path provisioning (§5.1.5/§5.1.7). It does nothing on its
own: no table-miss entry, packet-ins ignored, so a flow miss is dropped (1.3) or left unanswered
(1.0) and a path exists only once it is pushed.

API (bound to 127.0.0.1 on ``--sdnbench-api-port``):

    GET  /v1/switches   [dpid, ...]   (connected switches)
    POST /v1/flows      {"dpid": 1, "priority": 100, "match": {"eth_src": "..", "eth_dst": ".."},
                         "out_port": 2}  ->  200 {"ok": true}
                        400 {"error": "..."} for a body it cannot use, 404 for an unknown dpid
    GET  /v1/health     {"ok": true}
"""

import json

from os_ken import cfg
from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import DEAD_DISPATCHER, MAIN_DISPATCHER, set_ev_cls
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3

import jsonapi
import ofutil

CONF = cfg.CONF
MATCH_FIELDS = ("in_port", "eth_src", "eth_dst", "eth_type")


class FlowPush(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_0.OFP_VERSION, ofproto_v1_3.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.port = CONF.sdnbench_api_port
        self.server = None
        self.datapaths = {}

    @set_ev_cls(ofp_event.EventOFPStateChange, [MAIN_DISPATCHER, DEAD_DISPATCHER])
    def state(self, ev):
        dp = ev.datapath
        if ev.state == MAIN_DISPATCHER and dp.id is not None:
            self.datapaths[dp.id] = dp
        elif ev.state == DEAD_DISPATCHER and dp.id is not None:
            self.datapaths.pop(dp.id, None)

    def start(self):
        thread = super().start()
        self.server = jsonapi.serve(self, Handler, "/v1/flows")
        return thread

    def stop(self):
        jsonapi.close(self.server)
        super().stop()

    def push(self, body):
        """Install one flow; returns (HTTP status, answer)."""
        if not isinstance(body, dict):
            return 400, {"error": "the body must be a JSON object"}
        try:
            dpid, out_port = int(body["dpid"]), int(body["out_port"])
            priority = int(body.get("priority", 100))
            fields = dict(body.get("match") or {})
        except (KeyError, TypeError, ValueError) as e:
            return 400, {"error": f"need dpid, out_port (integers) and match: {e}"}
        unknown = sorted(set(fields) - set(MATCH_FIELDS))
        if unknown:
            return 400, {"error": f"unknown match fields {unknown}; known: {list(MATCH_FIELDS)}"}
        dp = self.datapaths.get(dpid)
        if dp is None:
            return 404, {"error": f"no switch with dpid {dpid}", "switches": sorted(self.datapaths)}
        ofutil.add_flow(dp, priority, fields, [ofutil.output(dp, out_port)])
        return 200, {"ok": True}


class Handler(jsonapi.Handler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        path = self.path_only().rstrip("/")
        if path == "/v1/switches":
            self.reply(200, sorted(self.app.datapaths))
        elif path == "/v1/health":
            self.reply(200, {"ok": True})
        else:
            self.reply(404, {"error": "not found", "paths": ["/v1/switches", "/v1/flows", "/v1/health"]})

    def do_POST(self):  # noqa: N802
        if self.path_only().rstrip("/") != "/v1/flows":
            return self.reply(404, {"error": "not found"})
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"null")
        except ValueError as e:
            return self.reply(400, {"error": f"not JSON: {e}"})
        self.reply(*self.app.push(body))
