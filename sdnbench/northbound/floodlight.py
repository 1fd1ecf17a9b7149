"""Floodlight (v1.x REST API, ``LinksResource``): GET /wm/topology/links/json gives
``[{"src-switch": "00:00:00:00:00:00:00:01", "src-port": 3, "dst-switch": "...", "dst-port": 1,
"type": "internal", "direction": "bidirectional"}]``; a ``bidirectional`` entry stands for both
directions, ``unidirectional`` for src→dst only. Ports may come as numbers or strings. Not run
here (not installable from the registries): tested against a fake server."""

from .links import directed

PATH = "/wm/topology/links/json"


def dpid(text) -> int:
    return int(str(text).replace(":", ""), 16)


def parse(doc) -> set:
    out: set = set()
    for l in doc:
        a = (dpid(l["src-switch"]), int(l["src-port"]))
        b = (dpid(l["dst-switch"]), int(l["dst-port"]))
        if str(l.get("direction", "bidirectional")).lower() == "bidirectional":
            out |= directed(a, b)
        else:
            out.add((a, b))
    return out
