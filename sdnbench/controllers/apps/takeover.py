"""``osken:takeover``: the learning switch with OpenFlow 1.3 roles, for controller failover
(RFC 8456 §5.4.1). ``sdnbench controller failover`` runs two instances:

- A, ``--sdnbench-peer master:PORT``: asks every switch for the MASTER role (generation 1),
  installs the table-miss entry and forwards as ``learning`` does; it listens on loopback PORT
  and holds whatever connects there (its death closes those connections: the heartbeat).
- B, ``--sdnbench-peer slave:PORT``: asks every switch for the SLAVE role (generation 1), so it
  gets no packet-ins and may change nothing; it connects to A's PORT and waits. When that
  connection ends (A died: the kernel closes its sockets), B asks every switch for MASTER with
  generation 2, installs the table-miss entry and forwards from then on.

Without ``--sdnbench-peer`` it is a master on its own. OpenFlow 1.0 has no roles: 1.3 only.
"""

import socket

from os_ken import cfg
from os_ken.controller import ofp_event
from os_ken.controller.handler import CONFIG_DISPATCHER, DEAD_DISPATCHER, set_ev_cls
from os_ken.lib import hub
from os_ken.ofproto import ofproto_v1_3

import ofutil
from learning import Learning

CONF = cfg.CONF
RETRY_S = 0.05


def parse_peer(text):
    """``master:PORT`` / ``slave:PORT`` -> (is master, port); empty -> a lone master."""
    if not text:
        return True, 0
    role, _, port = text.partition(":")
    if role not in ("master", "slave") or not port.isdigit():
        raise SystemExit(f"takeover: --sdnbench-peer {text!r}: give master:PORT or slave:PORT")
    return role == "master", int(port)


class Takeover(Learning):
    OFP_VERSIONS = [ofproto_v1_3.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.master, self.peer_port = parse_peer(CONF.sdnbench_peer)
        self.generation = 1
        self.dps = {}
        self.held = []

    def start(self):
        thread = super().start()
        if self.peer_port:
            self.threads.append(hub.spawn(self._listen if self.master else self._watch))
        return thread

    @set_ev_cls(ofp_event.EventOFPSwitchFeatures, CONFIG_DISPATCHER)
    def switch_features(self, ev):
        dp = ev.msg.datapath
        self.dps[dp.id] = dp
        self._claim(dp)

    @set_ev_cls(ofp_event.EventOFPStateChange, DEAD_DISPATCHER)
    def dp_gone(self, ev):
        if ev.datapath.id is not None:
            self.dps.pop(ev.datapath.id, None)

    def _claim(self, dp):
        """Our role on ``dp`` (MASTER or SLAVE at our generation); a master also sends misses here."""
        ofp, parser = dp.ofproto, dp.ofproto_parser
        role = ofp.OFPCR_ROLE_MASTER if self.master else ofp.OFPCR_ROLE_SLAVE
        dp.send_msg(parser.OFPRoleRequest(dp, role, self.generation))
        if self.master:
            ofutil.table_miss_to_controller(dp)

    def _listen(self):
        """A: hold every connection to our loopback port; they close when we die."""
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", self.peer_port))
        srv.listen(8)
        while True:
            conn, _ = srv.accept()
            self.held.append(conn)

    def _watch(self):
        """B: connect to A's port (retrying until A listens), then wait for it to end."""
        while True:
            try:
                s = socket.create_connection(("127.0.0.1", self.peer_port), timeout=1)
                break
            except OSError:
                hub.sleep(RETRY_S)
        s.settimeout(None)
        self.logger.info("takeover: watching the master on 127.0.0.1:%d", self.peer_port)
        try:
            while s.recv(64):
                pass
        except OSError:
            pass
        self.master = True
        self.generation += 1
        self.logger.info("takeover: the master is gone; asking %d switches for MASTER (generation %d)",
                         len(self.dps), self.generation)
        for dp in list(self.dps.values()):
            self._claim(dp)
