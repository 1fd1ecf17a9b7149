"""``osken:passthrough``: static flows port 1 <-> port 2 on every switch; nothing else.

As in the Zodiac FX study's "Pass Through" app: the controller only sets the switch up, so any
difference from ``learning`` is the cost of packet-in/packet-out. Everything that does not come
in on port 1 or 2 is dropped by an explicit lowest-priority rule, because OpenFlow 1.0 would
otherwise send table misses to the controller.
"""

from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, set_ev_cls
from os_ken.ofproto import ofproto_v1_0, ofproto_v1_3

import ofutil

PAIRS = ((1, 2), (2, 1))


class Passthrough(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_0.OFP_VERSION, ofproto_v1_3.OFP_VERSION]

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def switch_features(self, ev):
        dp = ev.msg.datapath
        ofutil.delete_all_flows(dp)
        for port_in, port_out in PAIRS:
            ofutil.add_flow(dp, 10, {"in_port": port_in}, [ofutil.output(dp, port_out)])
        ofutil.add_flow(dp, 0, {}, [])
        self.logger.info("passthrough: dpid %016x: port 1 <-> port 2", dp.id)
