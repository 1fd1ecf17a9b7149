"""os-ken ``osken:topology`` (our app, ``sdnbench/controllers/apps/topology.py``): GET /v1/links
gives ``[{"src": {"dpid": 1, "port_no": 2, ...}, "dst": {...}}]``, one entry per direction,
integers."""

PATH = "/v1/links"


def parse(doc) -> set:
    return {((int(l["src"]["dpid"]), int(l["src"]["port_no"])), (int(l["dst"]["dpid"]), int(l["dst"]["port_no"])))
            for l in doc}
