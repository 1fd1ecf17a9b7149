"""Northbound flow requests for proactive provisioning (RFC 8456 §5.1.5/§5.1.7): one adapter per
controller API, each with ``switches() -> [dpid]`` and ``add(dpid, src_mac, dst_mac, out_port)``.

- ``RyuOfctl``: Ryu's ``ofctl_rest`` (``ryu:ofctl_rest``; real, runs here):
  ``GET /stats/switches``, ``POST /stats/flowentry/add`` with ``{"dpid", "priority", "match":
  {"dl_src", "dl_dst"}, "actions": [{"type": "OUTPUT", "port"}]}``.
- ``OsKenFlowPush``: our os-ken app (``osken:flowpush``, ``sdnbench/controllers/apps/flowpush.py``):
  ``GET /v1/switches``, ``POST /v1/flows`` with ``{"dpid", "priority", "match", "out_port"}``.

A request the API refuses is one line naming the request and the answer (``NorthboundRefused``,
a ``UserError``).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from ..errors import UserError

PRIORITY = 100


class NorthboundRefused(UserError):
    pass


def _call(method: str, url: str, body=None, timeout: float = 5.0):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
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


def adapter_for(spec: str, api_url):
    """The adapter for controller ``spec`` (its API at ``api_url``)."""
    if spec.startswith("ryu:") and api_url:
        return RyuOfctl(api_url)
    if spec == "osken:flowpush" and api_url:
        return OsKenFlowPush(api_url)
    raise UserError(f"proactive provisioning: no northbound flow API known for {spec!r} "
                    "(use ryu:ofctl_rest or osken:flowpush)")
