"""Small network JSON generators for the engine's emulated network (``crates/engine/src/network``):
ring, linear and fat-tree, with one host per edge port. The topology module (``sdnbench.net``)
is the general writer of this JSON; these exist so the engine's own tests and benchmarks do not
depend on it. Format: see ``crates/engine/src/network/spec.rs``."""

from __future__ import annotations


def _host(dpid: int, port: int, k: int) -> dict:
    return {"dpid": dpid, "port": port, "mac": "02:%02x:%02x:%02x:%02x:%02x" % (
        k >> 32 & 255, k >> 24 & 255, k >> 16 & 255, k >> 8 & 255, k & 255),
        "ip": "10.%d.%d.%d" % (k >> 16 & 255, k >> 8 & 255, k & 255)}


def ring(n: int) -> dict:
    """Switch d: port 1 to the previous, port 2 to the next, a host on port 3."""
    return {"spec": f"ring,{n}", "switches": [{"dpid": d, "ports": 3} for d in range(1, n + 1)],
            "links": [[d, 2, d % n + 1, 1] for d in range(1, n + 1)],
            "hosts": [_host(d, 3, d) for d in range(1, n + 1)]}


def linear(n: int) -> dict:
    """Switch d: port 1 to the previous, port 2 to the next, a host on port 3."""
    return {"spec": f"linear,{n}", "switches": [{"dpid": d, "ports": 3} for d in range(1, n + 1)],
            "links": [[d, 2, d + 1, 1] for d in range(1, n)],
            "hosts": [_host(d, 3, d) for d in range(1, n + 1)]}


def fat_tree(k: int) -> dict:
    """k-ary fat-tree: (k/2)^2 cores, k pods of k/2 aggregation and k/2 edge switches, k ports
    each; edge ports 1..k/2 carry hosts. dpids: cores first, then per pod aggs, then edges."""
    h = k // 2
    cores = list(range(1, h * h + 1))
    aggs = [[h * h + 1 + p * k + a for a in range(h)] for p in range(k)]
    edges = [[h * h + 1 + p * k + h + e for e in range(h)] for p in range(k)]
    links = []
    for p in range(k):
        for a in range(h):
            for e in range(h):
                links.append([edges[p][e], h + 1 + a, aggs[p][a], 1 + e])
            for i in range(h):
                links.append([aggs[p][a], h + 1 + i, cores[a * h + i], 1 + p])
    switches = [{"dpid": d, "ports": k} for d in cores + [x for pod in aggs + edges for x in pod]]
    hosts, n = [], 0
    for p in range(k):
        for e in range(h):
            for port in range(1, h + 1):
                n += 1
                hosts.append(_host(edges[p][e], port, n))
    return {"spec": f"fattree,{k}", "switches": switches, "links": links, "hosts": hosts}


def directed_links(net: dict) -> set:
    """Every link in both directions: {(dpid, port, dpid, port)}."""
    out = set()
    for a, pa, b, pb in net["links"]:
        out |= {(a, pa, b, pb), (b, pb, a, pa)}
    return out
