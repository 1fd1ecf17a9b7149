"""A controller's own count of the answers it wrote, read from its northbound API while a tool
loads it (``fidelity.py --own-count KIND``): a referee for the two tools' figures that neither
tool computes. ``fidelity.py`` samples it every 0.1 s during each run and reports the median of
its busy 1-s windows (``steady_rate``) beside cbench's and sdnbench's figures.

Kinds:

- ``floodlight``: Floodlight's debug counters, ``GET {api}/wm/core/counter/OFSwitchManager/all/json``
  (``core/web/CounterResource.java``): one counter per connection and message type written,
  ``"<dpid>:<aux>/write/PACKET_OUT"`` and ``…/write/FLOW_MOD``, counted in
  ``OFConnectionCounters.updateWriteStats`` as ``OFConnection.write`` hands each message to Netty.
  The count is their sum over every connection: the packet-outs and flow-mods Floodlight wrote,
  cbench's unit when every answer is one of them. A connection's counters are removed when it
  closes (``OFConnectionCounters.uninstallCounters``) and registered again, reset, when the
  switch comes back, so a window that spans a tool's reconnection reads low (or negative) and
  is left out as not busy.
  Needs the spec's ``http=`` (``ctl.api_url``) and the ``DebugCounterServiceImpl`` and
  ``RestApiServer`` modules (both in docs/floodlight.md's property files).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Callable, Optional

FLOODLIGHT_PATH = "/wm/core/counter/OFSwitchManager/all/json"
FLOODLIGHT_WRITES = ("/write/PACKET_OUT", "/write/FLOW_MOD")
KINDS = ("floodlight",)


class OwnCountError(Exception):
    """The controller's count cannot be read (no API, wrong kind, an unreadable answer)."""


def floodlight_writes(body: dict) -> int:
    """The packet-outs and flow-mods written, summed over Floodlight's per-connection counters."""
    return sum(int(v) for k, v in body.items() if k.endswith(FLOODLIGHT_WRITES))


def reader(kind: str, api_url: Optional[str], timeout: float = 1.0) -> Callable[[], Optional[int]]:
    """``served()`` for fidelity.py: the controller's count now, or None when a read failed (no
    answer, or not the map of counters Floodlight answers)."""
    if kind not in KINDS:
        raise OwnCountError(f"--own-count {kind}: known kinds are {', '.join(KINDS)}")
    if not api_url:
        raise OwnCountError(f"--own-count {kind}: the controller spec has no http= API to read it from")
    url = api_url.rstrip("/") + FLOODLIGHT_PATH

    def served() -> Optional[int]:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                body = json.load(r)
        except (OSError, ValueError):
            return None
        return floodlight_writes(body) if isinstance(body, dict) else None
    return served
