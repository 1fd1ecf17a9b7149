"""``osken:reroute``: shortest-path forwarding that moves traffic off a link when it goes down
(the managed controller of RFC 8456 §5.4.2, network re-provisioning).

- Links come from os-ken's own LLDP discovery (the ``switches`` service with link observation
  on): ``EventLinkAdd`` / ``EventLinkDelete``. A PORT_STATUS saying a port is down (or gone)
  removes its link at once, without waiting for discovery to notice.
- Hosts are learned from the packet-ins of their own frames on ports that carry no link.
- A unicast packet-in for a known destination installs the shortest path (match eth_src, eth_dst;
  output to the next hop) on every switch of it, egress first, and sends the frame on.
  Nothing is ever flooded (rings loop): a frame for an unknown destination is dropped.
- When a link goes away, every installed path that crossed it is recomputed: the new path is
  installed egress first, then the entries left on switches off the new path are deleted.
"""

from collections import deque

from os_ken import cfg
from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, DEAD_DISPATCHER, MAIN_DISPATCHER, set_ev_cls
from os_ken.lib.packet import ether_types, ethernet, packet
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3
from os_ken.topology import api as _api  # noqa: F401  (loads os-ken's switches service)
from os_ken.topology import event

import ofutil

cfg.CONF.set_override("observe_links", True)
PRIORITY = 10


class Reroute(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_0.OFP_VERSION, ofproto_v1_3.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.dps = {}          # dpid -> datapath
        self.adj = {}          # dpid -> {port: (peer dpid, peer port)}
        self.hosts = {}        # mac -> (dpid, port)
        self.paths = {}        # (src mac, dst mac) -> [(dpid, out port), ...], ingress first

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def switch_features(self, ev):
        dp = ev.msg.datapath
        self.dps[dp.id] = dp
        ofutil.table_miss_to_controller(dp)

    @set_ev_cls(ofp_event.EventOFPStateChange, DEAD_DISPATCHER)
    def switch_gone(self, ev):
        if ev.datapath.id is not None:
            self.dps.pop(ev.datapath.id, None)

    @set_ev_cls(event.EventLinkAdd)
    def link_add(self, ev):
        s, d = ev.link.src, ev.link.dst
        self.adj.setdefault(s.dpid, {})[s.port_no] = (d.dpid, d.port_no)

    @set_ev_cls(event.EventLinkDelete)
    def link_delete(self, ev):
        self._link_gone(ev.link.src.dpid, ev.link.src.port_no)

    @set_ev_cls(ofp_event.EventOFPPortStatus, MAIN_DISPATCHER)
    def port_status(self, ev):
        msg = ev.msg
        ofp = msg.datapath.ofproto
        down = msg.desc.state & ofp.OFPPS_LINK_DOWN or msg.desc.config & ofp.OFPPC_PORT_DOWN
        if msg.reason == ofp.OFPPR_DELETE or down:
            self._link_gone(msg.datapath.id, msg.desc.port_no)

    def _link_gone(self, dpid, port):
        peer = self.adj.get(dpid, {}).pop(port, None)
        if peer is None:
            return
        self.adj.get(peer[0], {}).pop(peer[1], None)
        ends = {(dpid, port), peer}
        for key, path in list(self.paths.items()):
            if any((d, p) in ends for d, p in path):
                self._reroute(key, path)

    def _reroute(self, key, old):
        src, dst = key
        new = self._path(self.hosts[src][0], self.hosts[dst])
        if new is None:
            del self.paths[key]
        else:
            self._install(src, dst, new)
        keep = {d for d, _ in new or []}
        for d, _ in old:
            if d not in keep and d in self.dps:
                _delete(self.dps[d], src, dst)

    def _path(self, a, dst_loc):
        """Shortest path from switch ``a`` to the host at ``dst_loc``: [(dpid, out port), ...]."""
        b, host_port = dst_loc
        prev, q = {a: None}, deque([a])
        while q and b not in prev:
            u = q.popleft()
            for port, (v, _) in sorted(self.adj.get(u, {}).items()):
                if v not in prev:
                    prev[v] = (u, port)
                    q.append(v)
        if b not in prev:
            return None
        hops, v = [(b, host_port)], b
        while prev[v] is not None:
            u, port = prev[v]
            hops.append((u, port))
            v = u
        return hops[::-1]

    def _install(self, src, dst, path):
        for d, out in reversed(path):
            dp = self.dps.get(d)
            if dp is not None:
                ofutil.add_flow(dp, PRIORITY, {"eth_src": src, "eth_dst": dst}, [ofutil.output(dp, out)])
        self.paths[(src, dst)] = path

    @set_ev_cls(ofp_event.EventOFPPacketIn, MAIN_DISPATCHER)
    def packet_in(self, ev):
        msg = ev.msg
        dp = msg.datapath
        eth = packet.Packet(msg.data).get_protocol(ethernet.ethernet)
        if eth is None or eth.ethertype == ether_types.ETH_TYPE_LLDP:
            return
        port_in = ofutil.in_port(msg)
        if port_in not in self.adj.get(dp.id, {}) and self.hosts.get(eth.src) != (dp.id, port_in):
            self.hosts[eth.src] = (dp.id, port_in)
        if int(eth.dst.split(":")[0], 16) & 1 or eth.dst not in self.hosts or eth.src not in self.hosts:
            return          # broadcast, or a destination not seen yet: dropped, never flooded
        path = self.paths.get((eth.src, eth.dst))
        if path is None:
            path = self._path(self.hosts[eth.src][0], self.hosts[eth.dst])
            if path is None:
                return
            self._install(eth.src, eth.dst, path)
        out = dict(path).get(dp.id)
        if out is not None:
            ofutil.packet_out(dp, msg, port_in, [ofutil.output(dp, out)])


def _delete(dp, src, dst):
    """Remove our (src, dst) entry from ``dp``."""
    ofp, parser = dp.ofproto, dp.ofproto_parser
    m = ofutil.match(dp, eth_src=src, eth_dst=dst)
    if ofutil.is_of10(dp):
        mod = parser.OFPFlowMod(datapath=dp, match=m, command=ofp.OFPFC_DELETE_STRICT, priority=PRIORITY,
                                out_port=ofp.OFPP_NONE)
    else:
        mod = parser.OFPFlowMod(datapath=dp, command=ofp.OFPFC_DELETE_STRICT, priority=PRIORITY, match=m,
                                out_port=ofp.OFPP_ANY, out_group=ofp.OFPG_ANY)
    dp.send_msg(mod)
