"""First-packet service time: how long a switch takes to forward the first packet of a new flow
(table miss: packet-in, the controller's flow-mod and packet-out) against the packets after it
(table hit), measured inside each switch on the path (the OVS-vs-ofsoftswitch study's method).

For a host pair on a freshly built network, tcpdump captures (``--immediate-mode
--time-stamp-precision=nano``) run on every path switch's ingress port (towards the source) and
egress port (towards the destination) in the root namespace. ``ping`` then sends echo requests;
ARP comes first (not ICMP, so not captured), so echo request 1 is the flow's first packet. A
request is matched across the two ports of one switch by (ICMP id, sequence); its service time
is egress timestamp minus ingress timestamp. Both timestamps come from the same kernel clock.

Series (µs; labels ``switch, src, dst, rep``):
- ``service_time``: every request by sequence (``None`` when it was not seen on both ports),
  ``t`` = scheduled send offset;
- ``first_packet_time``: request 1 alone; ``next_packet_time``: requests 2..N.

The path is the shortest one in the topology; on topologies with loops the controller may choose
another, and the run carries a note saying so.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from .. import proc
from ..errors import UserError
from .pcap import echoes


def path_hops(topo, src: str, dst: str) -> list:
    """[(switch, previous node, next node)] along a shortest path from src to dst."""
    adj: dict = {}
    for l in topo.links:
        adj.setdefault(l.a, []).append(l.b)
        adj.setdefault(l.b, []).append(l.a)
    prev = {src: None}
    queue = deque([src])
    while queue:
        n = queue.popleft()
        if n == dst:
            break
        for m in adj.get(n, []):
            if m not in prev and (m == dst or topo.is_switch(m)):
                prev[m] = n
                queue.append(m)
    if dst not in prev:
        raise UserError(f"no path from {src} to {dst} in topology {topo.spec}")
    path = [dst]
    while path[-1] != src:
        path.append(prev[path[-1]])
    path.reverse()
    return [(path[i], path[i - 1], path[i + 1]) for i in range(1, len(path) - 1)]


def match_service_times(ingress: list, egress: list, src_ip: str, dst_ip: str,
                        count: int) -> list:
    """Service time in ns per request sequence 1..count (None where unmatched)."""
    def firsts(seen: list) -> dict:
        out: dict = {}
        for e in seen:
            if e.icmp_type == 8 and e.src == src_ip and e.dst == dst_ip:
                out.setdefault((e.ident, e.seq), e.ts_ns)
        return out

    tin, tout = firsts(ingress), firsts(egress)
    by_seq: dict = {}
    for key, ts in tin.items():
        if key in tout and tout[key] >= ts:
            by_seq.setdefault(key[1], tout[key] - ts)
    return [by_seq.get(seq) for seq in range(1, count + 1)]


def _capture_argv(intf: str, path) -> list:
    return ["tcpdump", "-i", intf, "-w", str(path), "-U", "--immediate-mode",
            "--time-stamp-precision=nano", "-n", "-s", "128", "icmp"]


def measure_first_packet(net, result, pairs: list, count: int, interval: float, rep: int,
                         progress: Callable[[str], None] = lambda s: None) -> None:
    if net.topology.has_loop():
        note = ("first-packet: the topology has loops; captures follow the shortest path, "
                "which the controller may not use")
        if note not in result.notes:
            result.notes.append(note)
    for src, dst, _switch in pairs:
        progress(f"first-packet {src}->{dst}")
        hops = path_hops(net.topology, src, dst)
        captures = []
        try:
            for sw, before, after in hops:
                for side, peer in (("in", before), ("out", after)):
                    port = net.port_towards(sw, peer)
                    path = net.workdir / f"fp-{src}-{dst}-{sw}-{side}-r{rep}.pcap"
                    t = net.spawn_root(f"tcpdump {port.intf}", _capture_argv(port.intf, path),
                                       log_path=net.workdir / f"{path.name}.log")
                    captures.append((sw, side, path, t))
            for *_x, t in captures:
                proc.wait_until(lambda t=t: "listening on" in t.log_tail(5) or not t.alive(),
                                15, f"{t.name} to start")
                if not t.alive():
                    raise UserError(f"{t.name} failed: {t.log_tail(3)}")
            cp = net.run_in(src, ["ping", "-n", "-c", str(count), "-i", f"{interval:g}", "-W", "2",
                                  net.host_ip(dst)], timeout=count * interval + 15)
            if " 0 received" in cp.stdout:
                raise UserError(f"first-packet: {src} cannot reach {dst} (ping got no reply)")
        finally:
            for *_x, t in captures:
                t.stop(grace=3)
        files = {(sw, side): path for sw, side, path, _t in captures}
        for sw, _before, _after in hops:
            ins = echoes(files[(sw, "in")].read_bytes())
            outs = echoes(files[(sw, "out")].read_bytes())
            ns = match_service_times(ins, outs, net.host_ip(src), net.host_ip(dst), count)
            us = [None if v is None else v / 1000 for v in ns]
            labels = dict(switch=sw, src=src, dst=dst, rep=rep)
            result.add("service_time", "us", us, t=[round(i * interval, 6) for i in range(count)], **labels)
            result.add("first_packet_time", "us", us[:1], **labels)
            result.add("next_packet_time", "us", us[1:], **labels)
