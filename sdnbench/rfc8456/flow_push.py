"""Northbound flow requests for proactive provisioning (RFC 8456 §5.1.5/§5.1.7): one adapter per
controller API, each with ``switches() -> [dpid]`` and ``add(dpid, src_mac, dst_mac, out_port)``.

- ``RyuOfctl``: Ryu's ``ofctl_rest`` (``ryu:ofctl_rest``; real, runs here):
  ``GET /stats/switches``, ``POST /stats/flowentry/add`` with ``{"dpid", "priority", "match":
  {"dl_src", "dl_dst"}, "actions": [{"type": "OUTPUT", "port"}]}``.
- ``OsKenFlowPush``: our os-ken app (``osken:flowpush``, ``sdnbench/controllers/apps/flowpush.py``):
  ``GET /v1/switches``, ``POST /v1/flows`` with ``{"dpid", "priority", "match", "out_port"}``.

- ``FloodlightStaticFlowPusher``: ``GET /wm/core/controller/switches/json``,
  ``POST /wm/staticflowpusher/json`` (``{"switch", "name", "priority", "eth_src", "eth_dst",
  "active", "actions": "output=N"}``; success is ``{"status": "Entry pushed"}``).
- ``OnosFlows``: ``GET /onos/v1/devices``, ``POST /onos/v1/flows/of:DPID?appId=...`` with a
  selector (ETH_SRC, ETH_DST) and an OUTPUT treatment; basic auth.
The last two are tested against fakes that answer as the documentation says (``fake_northbound.py``);
neither controller runs here.

A request the API refuses is one line naming the request and the answer (``NorthboundRefused``,
a ``UserError``).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from ..controllers.kinds import kind_of, with_role
from ..controllers.spec import parse_spec
from ..errors import UserError
from ..redact import request

PRIORITY = 100


class NorthboundRefused(UserError):
    pass


def _call(method: str, url: str, body=None, timeout: float = 5.0, auth: str = ""):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"Authorization": auth} if auth else {})}
    req = request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            text = r.read().decode(errors="replace")
    except urllib.error.HTTPError as e:
        answer = e.read().decode(errors="replace").strip().replace("\n", " ")[:200]
        raise NorthboundRefused(f"northbound refused {method} {url} {json.dumps(body) if body else ''}: "
                                f"HTTP {e.code} {answer}".rstrip())
    except (urllib.error.URLError, OSError) as e:
        raise NorthboundRefused(f"northbound {method} {url}: no answer ({getattr(e, 'reason', e)})")
    return json.loads(text) if text.strip() else None


class RyuOfctl:
    name = "ryu-ofctl_rest"

    def __init__(self, base_url: str):
        self.base = base_url.rstrip("/")

    def switches(self) -> list:
        return sorted(_call("GET", f"{self.base}/stats/switches") or [])

    def add(self, dpid: int, src_mac: str, dst_mac: str, out_port: int) -> None:
        _call("POST", f"{self.base}/stats/flowentry/add",
              {"dpid": dpid, "priority": PRIORITY, "match": {"dl_src": src_mac, "dl_dst": dst_mac},
               "actions": [{"type": "OUTPUT", "port": out_port}]})


class OsKenFlowPush:
    name = "osken-flowpush"

    def __init__(self, base_url: str):
        self.base = base_url.rstrip("/")

    def switches(self) -> list:
        return sorted(_call("GET", f"{self.base}/v1/switches") or [])

    def add(self, dpid: int, src_mac: str, dst_mac: str, out_port: int) -> None:
        _call("POST", f"{self.base}/v1/flows", {"dpid": dpid, "priority": PRIORITY, "out_port": out_port,
                                                 "match": {"eth_src": src_mac, "eth_dst": dst_mac}})


def _colon_dpid(dpid: int) -> str:
    return ":".join(f"{(dpid >> s) & 255:02x}" for s in range(56, -8, -8))


class FloodlightStaticFlowPusher:
    """Floodlight's static flow pusher (v1.2 REST API; tested against a fake that answers as
    documented, Floodlight does not run here)."""
    name = "floodlight-staticflowpusher"

    def __init__(self, base_url: str):
        self.base = base_url.rstrip("/")
        self.n = 0

    def switches(self) -> list:
        return sorted(int(s["switchDPID"].replace(":", ""), 16)
                      for s in _call("GET", f"{self.base}/wm/core/controller/switches/json") or [])

    def add(self, dpid: int, src_mac: str, dst_mac: str, out_port: int) -> None:
        self.n += 1
        body = {"switch": _colon_dpid(dpid), "name": f"sdnbench-{self.n}", "priority": str(PRIORITY),
                "eth_src": src_mac, "eth_dst": dst_mac, "active": "true", "actions": f"output={out_port}"}
        url = f"{self.base}/wm/staticflowpusher/json"
        answer = _call("POST", url, body)
        status = str((answer or {}).get("status", ""))
        if not status.startswith("Entry pushed"):
            # Floodlight answers some refusals with 200 and an error status
            raise NorthboundRefused(f"northbound refused POST {url} {json.dumps(body)}: {status or answer}")


class OnosFlows:
    """ONOS's flows API (REST v1; tested against a fake that answers as documented, ONOS does
    not run here). Basic auth onos/rocks, ONOS's default."""
    name = "onos-flows"
    APP_ID = "org.sdnbench.provisioning"

    def __init__(self, base_url: str, user: str = "onos", password: str = "rocks"):
        self.base = base_url.rstrip("/")
        import base64
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def switches(self) -> list:
        devs = (_call("GET", f"{self.base}/onos/v1/devices", auth=self.auth) or {}).get("devices", [])
        return sorted(int(d["id"][3:], 16) for d in devs if d.get("available") and d["id"].startswith("of:"))

    def add(self, dpid: int, src_mac: str, dst_mac: str, out_port: int) -> None:
        device = f"of:{dpid:016x}"
        body = {"priority": PRIORITY, "timeout": 0, "isPermanent": True, "deviceId": device,
                "treatment": {"instructions": [{"type": "OUTPUT", "port": str(out_port)}]},
                "selector": {"criteria": [{"type": "ETH_SRC", "mac": src_mac}, {"type": "ETH_DST", "mac": dst_mac}]}}
        _call("POST", f"{self.base}/onos/v1/flows/{device}?appId={self.APP_ID}", body, auth=self.auth)


# The flow-push APIs by the name ``--api`` gives (and a controller kind's record names its own
# by: ``ControllerKind.flow_api``): the one registry that provisioning's parameters, its command
# line and the RFC 8456 suite read. A new API is a class here and one line.
FLOW_APIS = {"osken": OsKenFlowPush, "ryu": RyuOfctl, "floodlight": FloodlightStaticFlowPusher, "onos": OnosFlows}


def own_api(spec: str):
    """The flow-push API (a name of ``FLOW_APIS``) a launched controller serves itself, or None."""
    parsed = parse_spec(spec)
    return kind_of(parsed).own_flow_api(parsed)


def adapter_for(spec: str, api_url, api: str = ""):
    """The adapter for controller ``spec`` (its API at ``api_url``): its own (``ryu:*``,
    ``osken:flowpush``), else the one ``api`` names (for controllers sdnbench does not launch)."""
    name = own_api(spec) or api
    if name and api_url:
        return FLOW_APIS[name](api_url)
    raise UserError(f"proactive provisioning: no northbound flow API known for {spec!r} "
                    f"(use {' or '.join(with_role('proactive'))}, or --api {'|'.join(FLOW_APIS)} with --api-url)")
