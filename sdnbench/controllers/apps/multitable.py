"""``osken:multitable``: a learning switch spread over a 4-table pipeline (OpenFlow 1.3 only).

The Zodiac FX study compared a one-table learning switch with a four-table one (SS2) to see
what pipeline depth costs. This app keeps the learning state in the switch:

  table 0  filter       drop LLDP and frames with a multicast source MAC; else goto 1
  table 1  source       (in_port, eth_src) learned -> goto 2;
                        miss -> copy to the controller (packet-in) and goto 2
  table 2  destination  eth_dst learned -> output port; miss -> goto 3
  table 3  flood        output FLOOD

A packet-in only teaches the controller a source; the packet itself continues through the
pipeline, so no packet-out is needed. Every packet crosses at least three tables.
"""

from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, MAIN_DISPATCHER, set_ev_cls
from os_ken.lib.packet import ether_types, ethernet, packet
from os_ken.ofproto import ofproto_v1_3

import ofutil

FILTER, SOURCE, DESTINATION, FLOOD = 0, 1, 2, 3


class MultiTable(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_3.OFP_VERSION]

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def switch_features(self, ev):
        dp = ev.msg.datapath
        ofp = dp.ofproto
        ofutil.delete_all_flows(dp)
        ofutil.add_flow(dp, 100, {"eth_type": ether_types.ETH_TYPE_LLDP}, [], table_id=FILTER)
        ofutil.add_flow(dp, 100, {"eth_src": ("01:00:00:00:00:00", "01:00:00:00:00:00")}, [],
                        table_id=FILTER)
        ofutil.add_flow(dp, 0, {}, [], table_id=FILTER, goto=SOURCE)
        ofutil.add_flow(dp, 0, {}, [ofutil.output(dp, ofp.OFPP_CONTROLLER)], table_id=SOURCE,
                        goto=DESTINATION)
        ofutil.add_flow(dp, 0, {}, [], table_id=DESTINATION, goto=FLOOD)
        ofutil.add_flow(dp, 0, {}, [ofutil.output(dp, ofp.OFPP_FLOOD)], table_id=FLOOD)

    @set_ev_cls(ofp_event.EventOFPPacketIn, MAIN_DISPATCHER)
    def packet_in(self, ev):
        msg = ev.msg
        dp = msg.datapath
        eth = packet.Packet(msg.data).get_protocol(ethernet.ethernet)
        if eth is None:
            return
        port_in = ofutil.in_port(msg)
        ofutil.add_flow(dp, 10, {"in_port": port_in, "eth_src": eth.src}, [], table_id=SOURCE,
                        goto=DESTINATION)
        # An ADD with an identical match replaces the old entry, so a moved host is re-learned.
        ofutil.add_flow(dp, 10, {"eth_dst": eth.src}, [ofutil.output(dp, port_in)],
                        table_id=DESTINATION)
