"""Fake northbound servers for the controllers that cannot run here (Floodlight, ONOS): they
answer like the documented APIs, check each request's shape as the real one would, and record
what they were asked. For unit tests of the adapters in ``flow_push.py`` only; they install
nothing anywhere.

- Floodlight (v1.2 REST): ``GET /wm/core/controller/switches/json`` -> ``[{"switchDPID"}]``;
  ``POST /wm/staticflowpusher/json`` -> ``{"status": "Entry pushed"}``, or (200!) an
  ``{"status": "Error! ..."}`` for a body without switch/name, as Floodlight does.
- ONOS (REST v1): ``GET /onos/v1/devices`` -> ``{"devices": [{"id": "of:...", "available"}]}``;
  ``POST /onos/v1/flows/{deviceId}?appId=`` -> 201 Created with a Location header; 401 without
  basic auth, 400 for a body whose deviceId differs from the path's, 404 for an unknown device.
"""

from __future__ import annotations

from urllib.parse import urlparse

from sdnbench.testing.http import FakeHttp


class FakeNorthbound(FakeHttp):
    def __init__(self, kind: str, dpids: list, auth: str = "Basic b25vczpyb2Nrcw=="):
        assert kind in ("floodlight", "onos")
        self.kind, self.dpids, self.auth = kind, list(dpids), auth
        self.requests: list = []             # (method, path, body)
        super().__init__()

    def answer(self, method: str, path: str, headers, body) -> tuple:
        self.requests.append((method, path, body))
        u = urlparse(path)
        if self.kind == "floodlight":
            if method == "GET" and u.path == "/wm/core/controller/switches/json":
                return 200, [{"switchDPID": ":".join(f"{(d >> s) & 255:02x}" for s in range(56, -8, -8))}
                             for d in self.dpids]
            if method == "POST" and u.path == "/wm/staticflowpusher/json":
                if not isinstance(body, dict) or "switch" not in body or "name" not in body:
                    return 200, {"status": "Error! Must specify switch and name"}
                return 200, {"status": "Entry pushed"}
            return 404, {"error": "not found"}
        if headers.get("Authorization") != self.auth:
            return 401, {"code": 401, "message": "Unauthorized"}
        if method == "GET" and u.path == "/onos/v1/devices":
            return 200, {"devices": [{"id": f"of:{d:016x}", "available": True, "type": "SWITCH"} for d in self.dpids]}
        if method == "POST" and u.path.startswith("/onos/v1/flows/"):
            device = u.path.rsplit("/", 1)[1]
            if device not in {f"of:{d:016x}" for d in self.dpids}:
                return 404, {"code": 404, "message": f"Device {device} not found"}
            if not isinstance(body, dict) or body.get("deviceId") != device:
                return 400, {"code": 400, "message": "Invalid flow rule: deviceId does not match"}
            return 201, None, {"Location": f"{self.url}{u.path}/1"}
        return 404, {"code": 404, "message": "not found"}
