"""ONOS (REST API ``/onos/v1``, basic auth onos/rocks by default): GET /onos/v1/links gives
``{"links": [{"src": {"device": "of:0000000000000001", "port": "2"}, "dst": {...},
"type": "DIRECT", "state": "ACTIVE"}]}``, one entry per direction. Only ACTIVE links count (a
link ONOS still holds after its port went down is INACTIVE). Not run here (not installable from
the registries): tested against a fake server."""

PATH = "/onos/v1/links"
DEFAULT_AUTH = ("onos", "rocks")


def device(text: str) -> int:
    if not text.startswith("of:"):
        raise ValueError(f"device {text!r} is not an OpenFlow device (of:...)")
    return int(text[3:], 16)


def parse(doc) -> set:
    return {((device(l["src"]["device"]), int(l["src"]["port"])), (device(l["dst"]["device"]), int(l["dst"]["port"])))
            for l in doc["links"] if l.get("state", "ACTIVE") == "ACTIVE"}
