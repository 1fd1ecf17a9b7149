"""The topology app's JSON, built from os-ken's ``to_dict()`` output. Pure: no os_ken import, so
sdnbench's own tests check it without the os-ken environment.

os-ken reports DPIDs as 16 hex digits and port numbers as 8 hex digits; the API gives both as
integers (plus the DPID string), which is what pollers compare against Mininet's numbering.
"""

API_VERSION = 1


def port_view(d: dict) -> dict:
    return {"dpid": int(d["dpid"], 16), "port_no": int(d["port_no"], 16),
            "name": d.get("name"), "hw_addr": d.get("hw_addr")}


def switch_view(d: dict) -> dict:
    return {"dpid": int(d["dpid"], 16), "dpid_str": d["dpid"],
            "ports": sorted((port_view(p) for p in d.get("ports", [])), key=lambda p: p["port_no"])}


def link_view(d: dict) -> dict:
    return {"src": port_view(d["src"]), "dst": port_view(d["dst"])}


def host_view(d: dict) -> dict:
    port = port_view(d["port"])
    return {"mac": d["mac"], "ipv4": sorted(d.get("ipv4", [])), "ipv6": sorted(d.get("ipv6", [])),
            "dpid": port["dpid"], "port_no": port["port_no"]}


def topology_view(switches: list, links: list, hosts: list) -> dict:
    """The whole picture, sorted so that equal topologies give equal JSON."""
    sw = sorted((switch_view(s) for s in switches), key=lambda s: s["dpid"])
    ln = sorted((link_view(l) for l in links),
                key=lambda l: (l["src"]["dpid"], l["src"]["port_no"], l["dst"]["dpid"]))
    hs = sorted((host_view(h) for h in hosts), key=lambda h: (h["dpid"], h["port_no"], h["mac"]))
    return {"version": API_VERSION, "switches": sw, "links": ln, "hosts": hs}


def route(path: str):
    """Which part of the view a GET path asks for: (key or None for all, ok)."""
    parts = [p for p in path.split("/") if p]
    if parts[:1] != ["v1"] or len(parts) > 2:
        return None, False
    if len(parts) == 1 or parts[1] == "topology":
        return None, True
    if parts[1] in ("switches", "links", "hosts", "health"):
        return parts[1], True
    return None, False
