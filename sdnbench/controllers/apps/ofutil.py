"""Version-neutral OpenFlow helpers for sdnbench's os-ken apps (OpenFlow 1.0 and 1.3).

Runs inside the os-ken virtualenv, never in sdnbench's own: it imports only os_ken and the
standard library. The apps call these so that each one reads as its forwarding logic alone.
"""

from os_ken.ofproto import ofproto_v1_0

# os-ken's field names differ between 1.0 (dl_*) and 1.3 (OXM eth_*).
_OF10_FIELDS = {"in_port": "in_port", "eth_src": "dl_src", "eth_dst": "dl_dst", "eth_type": "dl_type"}


def is_of10(dp) -> bool:
    return dp.ofproto.OFP_VERSION == ofproto_v1_0.OFP_VERSION


def match(dp, **fields):
    """An OFPMatch from OXM-style names (in_port, eth_src, eth_dst, eth_type) for either version."""
    if is_of10(dp):
        return dp.ofproto_parser.OFPMatch(**{_OF10_FIELDS[k]: v for k, v in fields.items()})
    return dp.ofproto_parser.OFPMatch(**fields)


def in_port(msg) -> int:
    """The ingress port of a packet-in."""
    if is_of10(msg.datapath):
        return msg.in_port
    return msg.match["in_port"]


def output(dp, port: int):
    return dp.ofproto_parser.OFPActionOutput(port, 0xffff if port == dp.ofproto.OFPP_CONTROLLER else 0)


def add_flow(dp, priority: int, fields: dict, actions: list, table_id: int = 0,
             goto: int = None, idle_timeout: int = 0) -> None:
    """Install a flow; in 1.3 ``actions`` become apply-actions, ``goto`` a goto-table."""
    ofp, parser = dp.ofproto, dp.ofproto_parser
    m = match(dp, **fields)
    if is_of10(dp):
        assert table_id == 0 and goto is None, "OpenFlow 1.0 has one table"
        mod = parser.OFPFlowMod(datapath=dp, match=m, command=ofp.OFPFC_ADD, priority=priority,
                                idle_timeout=idle_timeout, actions=actions)
    else:
        inst = []
        if actions:
            inst.append(parser.OFPInstructionActions(ofp.OFPIT_APPLY_ACTIONS, actions))
        if goto is not None:
            inst.append(parser.OFPInstructionGotoTable(goto))
        mod = parser.OFPFlowMod(datapath=dp, table_id=table_id, priority=priority, match=m,
                                idle_timeout=idle_timeout, instructions=inst)
    dp.send_msg(mod)


def delete_all_flows(dp) -> None:
    """Start from an empty flow table (every table in 1.3)."""
    ofp, parser = dp.ofproto, dp.ofproto_parser
    if is_of10(dp):
        mod = parser.OFPFlowMod(datapath=dp, match=parser.OFPMatch(), command=ofp.OFPFC_DELETE)
    else:
        mod = parser.OFPFlowMod(datapath=dp, table_id=ofp.OFPTT_ALL, command=ofp.OFPFC_DELETE,
                                out_port=ofp.OFPP_ANY, out_group=ofp.OFPG_ANY, match=parser.OFPMatch())
    dp.send_msg(mod)


def table_miss_to_controller(dp, table_id: int = 0) -> None:
    """Send table misses to us, whole. OpenFlow 1.3 drops misses by default (§5.4), so we add a
    table-miss flow. 1.0 sends them already, but a switch may cut them to ``miss_send_len``
    (128 bytes by default, OpenFlow 1.0 §5.3.2), and if it also keeps no buffer we would
    packet-out a truncated frame; so ask for whole packets."""
    ofp = dp.ofproto
    if is_of10(dp):
        dp.send_msg(dp.ofproto_parser.OFPSetConfig(dp, ofp.OFPC_FRAG_NORMAL, 0xffff))
    else:
        add_flow(dp, 0, {}, [output(dp, ofp.OFPP_CONTROLLER)], table_id=table_id)


def packet_out(dp, msg, port_in: int, actions: list) -> None:
    """Send a packet-in's packet back out: by buffer id if the switch buffered it, else whole."""
    ofp, parser = dp.ofproto, dp.ofproto_parser
    buffered = msg.buffer_id != ofp.OFP_NO_BUFFER
    out = parser.OFPPacketOut(datapath=dp, buffer_id=msg.buffer_id, in_port=port_in,
                              actions=actions, data=None if buffered else msg.data)
    dp.send_msg(out)
