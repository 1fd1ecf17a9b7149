"""Host pairs for path provisioning, from a network dict (the engine's network JSON).

A pair's path length K is the number of switches a shortest path crosses (RFC 8456 §5.1.4's
"path of k devices"); the pairs chosen are the farthest apart, so K is the network's diameter
between hosts: linear,N gives K = N, fat-tree k=4 gives K = 5 (edge, agg, core, agg, edge).
Pure functions, no I/O.
"""

from __future__ import annotations

from collections import deque

from ..errors import UserError


def _graph(net: dict) -> dict:
    g = {s["dpid"]: set() for s in net["switches"]}
    for a, _, b, _ in net.get("links", []):
        g[a].add(b)
        g[b].add(a)
    return g


def _hops(g: dict, src: int) -> dict:
    """Switches crossed (including both ends) from switch ``src`` to every reachable switch."""
    seen, q = {src: 1}, deque([src])
    while q:
        u = q.popleft()
        for v in g[u]:
            if v not in seen:
                seen[v] = seen[u] + 1
                q.append(v)
    return seen


def farthest_pairs(net: dict, limit: int = 64) -> tuple:
    """``(pairs, k)``: up to ``limit`` (source, destination) host-index pairs whose shortest path
    crosses the most switches, and that number. Each source host appears at most once."""
    hosts = net.get("hosts", [])
    if len(hosts) < 2:
        raise UserError(f"topology {net.get('spec', '')}: provisioning needs at least 2 hosts")
    g = _graph(net)
    dist = {d: _hops(g, d) for d in {h["dpid"] for h in hosts}}
    best, pairs = 0, []
    for i, hi in enumerate(hosts):
        for j, hj in enumerate(hosts):
            k = dist[hi["dpid"]].get(hj["dpid"], 0)
            if i == j or k == 0:
                continue
            if k > best:
                best, pairs = k, [(i, j)]
            elif k == best:
                pairs.append((i, j))
    if not pairs:
        raise UserError(f"topology {net.get('spec', '')}: no two hosts are connected")
    one_per_source, used = [], set()
    for s, d in pairs:
        if s not in used:
            used.add(s)
            one_per_source.append((s, d))
    return one_per_source[:limit], best


def path_switches(net: dict, src: int, dst: int) -> set:
    """The dpids of every switch on some shortest path between hosts ``src`` and ``dst``."""
    g = _graph(net)
    a, b = net["hosts"][src]["dpid"], net["hosts"][dst]["dpid"]
    da, db = _hops(g, a), _hops(g, b)
    k = da[b]
    return {s for s in g if s in da and s in db and da[s] + db[s] - 1 == k}


def port_path(net: dict, src: int, dst: int) -> list:
    """One shortest path from host ``src`` to host ``dst`` as ``[(dpid, out_port), ...]``, ingress
    switch first; the last out_port is the destination host's port (what a proactive request
    installs on each switch)."""
    hosts = net["hosts"]
    a, b = hosts[src]["dpid"], hosts[dst]["dpid"]
    out = {}
    for da, pa, db, pb in net.get("links", []):
        out.setdefault(da, []).append((db, pa))
        out.setdefault(db, []).append((da, pb))
    prev, q = {a: None}, deque([a])
    while q:
        u = q.popleft()
        for v, port in sorted(out.get(u, [])):
            if v not in prev:
                prev[v] = (u, port)
                q.append(v)
    if b not in prev:
        raise UserError(f"topology {net.get('spec', '')}: no path from host {src} to host {dst}")
    hops, v = [(b, hosts[dst]["port"])], b
    while prev[v] is not None:
        u, port = prev[v]
        hops.append((u, port))
        v = u
    return hops[::-1]
