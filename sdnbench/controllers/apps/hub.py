"""``osken:hub``: every packet goes to the controller and is flooded back out; no flows.

The heaviest possible control-plane load per data packet, a useful upper bound next to
``learning`` and the zero-packet-in ``passthrough``.
"""

from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, MAIN_DISPATCHER, set_ev_cls
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3

import ofutil


class Hub(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_0.OFP_VERSION, ofproto_v1_3.OFP_VERSION]

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def switch_features(self, ev):
        ofutil.table_miss_to_controller(ev.msg.datapath)

    @set_ev_cls(ofp_event.EventOFPPacketIn, MAIN_DISPATCHER)
    def packet_in(self, ev):
        msg = ev.msg
        dp = msg.datapath
        ofutil.packet_out(dp, msg, ofutil.in_port(msg), [ofutil.output(dp, dp.ofproto.OFPP_FLOOD)])
