"""``osken:learning``: the classic L2 learning switch, for OpenFlow 1.0 and 1.3.

On each packet-in: learn (switch, source MAC) -> ingress port; if the destination is known,
install a flow for (in_port, src, dst) -> that port; send the packet out (flooding if unknown).
This is the behaviour of the simple_switch apps the seed studies ran, so cbench-style loads see
one packet-in -> one flow-mod + one packet-out.

LLDP frames are left alone: when this app runs beside ``topology``, discovery owns them.
"""

from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, DEAD_DISPATCHER, MAIN_DISPATCHER, set_ev_cls
from os_ken.lib.packet import ether_types, ethernet, packet
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3

import ofutil


class Learning(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_0.OFP_VERSION, ofproto_v1_3.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mac_to_port = {}        # dpid -> {mac: port}

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def switch_features(self, ev):
        ofutil.table_miss_to_controller(ev.msg.datapath)

    @set_ev_cls(ofp_event.EventOFPStateChange, DEAD_DISPATCHER)
    def switch_gone(self, ev):
        if ev.datapath.id is not None:
            self.mac_to_port.pop(ev.datapath.id, None)

    @set_ev_cls(ofp_event.EventOFPPacketIn, MAIN_DISPATCHER)
    def packet_in(self, ev):
        msg = ev.msg
        dp = msg.datapath
        eth = packet.Packet(msg.data).get_protocol(ethernet.ethernet)
        if eth is None or eth.ethertype == ether_types.ETH_TYPE_LLDP:
            return
        port_in = ofutil.in_port(msg)
        table = self.mac_to_port.setdefault(dp.id, {})
        table[eth.src] = port_in
        out_port = table.get(eth.dst, dp.ofproto.OFPP_FLOOD)
        actions = [ofutil.output(dp, out_port)]
        if out_port != dp.ofproto.OFPP_FLOOD:
            ofutil.add_flow(dp, 1, {"in_port": port_in, "eth_src": eth.src, "eth_dst": eth.dst}, actions)
        ofutil.packet_out(dp, msg, port_in, actions)
