"""Network re-provisioning time (RFC 8456 §5.4.2) on the engine's emulated network
(docs/rfc8456-provisioning.md).

Workload ``reprovisioning`` (what the controller must do): sequence-numbered frames flow both
ways between two hosts whose every shortest path crosses one link, while another path exists;
the controller must provision the path (as it likes: reactively on the first frames, or
proactively), and when the link goes down (PORT_STATUS from both its ends) move the traffic to
the other path. Nothing is flooded for it and nothing announces the hosts: their own frames do.

Per direction (forward = the first host to the second, reverse = back), from the engine's raw
record around the failure: T1 the last frame before the break, T2 the first after it, F the
failure instant (applied by the engine, CLOCK_MONOTONIC):
- re-provisioning time = T2 - F (when traffic flows again, counted from the failure);
- the RFC's per-direction time = T2 - T1 (FDRT, RDRT) and its figure (FDRT + RDRT) / 2;
- frames lost = the sequence numbers missing between T1 and T2 (counted at the receiving host:
  forward loss at the second host, which the RFC's labels swap).
"""

from __future__ import annotations

from collections import deque
from typing import Optional

from ..engine.result_types import engine_result
from ..errors import UserError
from ..net.engine_network import network_for
from . import streams


def _graph(links: list) -> dict:
    g: dict = {}
    for a, _, b, _ in links:
        g.setdefault(a, set()).add(b)
        g.setdefault(b, set()).add(a)
    return g


def _dist(g: dict, a: int, b: int) -> Optional[int]:
    seen, q = {a: 0}, deque([a])
    while q:
        u = q.popleft()
        if u == b:
            return seen[u]
        for v in sorted(g.get(u, ())):
            if v not in seen:
                seen[v] = seen[u] + 1
                q.append(v)
    return None


def parse_link(text: str) -> tuple:
    """``"1-2"`` -> (1, 2): the link between two switches, by dpid."""
    try:
        a, b = (int(x) for x in text.split("-"))
    except ValueError:
        raise UserError(f"--link {text!r}: give the link as DPID-DPID (e.g. 1-2)") from None
    return a, b


def pick(net: dict, link: Optional[tuple] = None) -> tuple:
    """``(link, (src, dst))``: the link to fail ([a, pa, b, pb] of ``net``) and a host pair whose
    every shortest path crosses it and which stays connected without it. ``link`` (dpids) names
    it; else the first link that has such a pair. The pair is the closest such (on a ring, the
    hosts of the link's two ends). Refused, naming why, when there is none."""
    links = net.get("links", [])
    cands = [l for l in links if link is None or {l[0], l[2]} == set(link)]
    if link is not None and not cands:
        raise UserError(f"--link {link[0]}-{link[1]}: topology {net.get('spec', '')} has no link between "
                        f"switches {link[0]} and {link[1]}")
    hosts = net.get("hosts", [])
    g = _graph(links)
    for l in cands:
        rest = _graph([x for x in links if x is not l])
        found = []
        for i, hi in enumerate(hosts):
            for j, hj in enumerate(hosts):
                if i >= j:
                    continue
                a, b = hi["dpid"], hj["dpid"]
                d, d2 = _dist(g, a, b), _dist(rest, a, b)
                if d is not None and d2 is not None and d2 > d:
                    found.append((d, i, j))
        if found:
            _, i, j = min(found)        # the closest pair: the hosts of the link's own ends if it has them
            return l, (i, j)
    where = f"link {link[0]}-{link[1]}" if link else "any link"
    raise UserError(f"topology {net.get('spec', '')} has no redundant path for {where}: no two hosts have "
                    "every shortest path across it and another path around it (use a ring, e.g. ring,6)")


def trial_network(topo: str, link: Optional[tuple] = None, interval_us: int = 1000, warmup_ms: int = 3000,
                  fail_after_ms: int = 1000, after_ms: int = 2000) -> tuple:
    """``(net, link, pairs, fail_ms)``: ``topo`` with streams both ways between the chosen pair from
    ``warmup_ms`` on, and the link down at ``fail_ms`` = warmup + fail_after."""
    net = network_for(topo)
    l, (s, d) = pick(net, link)
    pairs = [(s, d), (d, s)]
    fail_ms = warmup_ms + fail_after_ms
    net["stream"] = streams.stream_block(pairs, interval_us, warmup_ms, fail_ms + after_ms)
    net["events"] = [{"at_ms": fail_ms, "link": list(l), "state": "down"}]
    return net, l, pairs, fail_ms


def run_seconds(net: dict) -> float:
    return net["stream"]["stop_ms"] / 1000 + 0.25


def summarize(doc: dict, net: dict) -> dict:
    """The figures of one trial from the engine's raw stream record (times in ms)."""
    res = engine_result(doc)
    st = streams.stream_section(res)
    per_pair = []
    for p in st.pairs:
        ev = (p.events or [None])[0]
        row = {"pair": streams.pair_name(net, p), "sent": p.sent, "received": p.received,
               "missing": streams.missing(p), "reordered": p.reordered, "before_failure": False,
               "reprovisioning_ms": None, "rfc_ms": None, "lost": None,
               "sender_late_ms": p.max_late_ns / 1e6}     # the timing error of the figures above
        if ev is not None:
            row["before_failure"] = ev.before_seq is not None
            if ev.after_ns and ev.before_seq is not None:
                row.update(reprovisioning_ms=(ev.after_ns - ev.at_ns) / 1e6,
                           rfc_ms=(ev.after_ns - ev.before_ns) / 1e6,
                           lost=ev.after_seq - ev.before_seq - 1)
        per_pair.append(row)
    done = [r for r in per_pair if r["rfc_ms"] is not None]
    events = [e for e in res.network.events if e.state == "down"]
    return {
        "pairs": per_pair, "interval_us": st.interval_us,
        "failure_ms": events[0].actual_ms if events else None,
        "rfc_reprovisioning_ms": sum(r["rfc_ms"] for r in done) / len(done) if len(done) == len(per_pair) else None,
        "reprovisioning_ms": max((r["reprovisioning_ms"] for r in done), default=None) if len(done) == len(per_pair) else None,
        "lost_forward": per_pair[0]["lost"], "lost_reverse": per_pair[1]["lost"] if len(per_pair) > 1 else None,
        "invariant": st.invariant, "network_invariant": res.network.invariant,
    }


def verdict(s: dict) -> str:
    rows = s["pairs"]
    if not all(r["before_failure"] for r in rows):
        return "never provisioned: no frame crossed before the failure"
    if not all(r["rfc_ms"] is not None for r in rows):
        return "not re-provisioned: no frame crossed after the failure"
    return "re-provisioned"
