"""Ryu ``ryu.app.rest_topology`` (with ``--observe-links``): GET /v1.0/topology/links gives
``[{"src": {"dpid": "0000000000000001", "port_no": "00000002", "hw_addr", "name"}, "dst": {...}}]``,
one entry per direction; dpid and port are hex strings (``ryu.topology.switches`` ``to_dict``)."""

PATH = "/v1.0/topology/links"


def _end(p: dict) -> tuple:
    return int(p["dpid"], 16), int(p["port_no"], 16)


def parse(doc) -> set:
    return {(_end(l["src"]), _end(l["dst"])) for l in doc}
