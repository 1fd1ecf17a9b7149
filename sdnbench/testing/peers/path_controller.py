"""A scripted OpenFlow 1.0 controller for the provisioning known-answer tests: a flooding
"path provisioner" with a known install delay and a known table cap.

On a packet-in of a unicast frame it waits ``delay_s`` (the known cost), then sends a flow-mod
matching (dl_src, dl_dst) with action FLOOD, unless it already installed ``install_cap`` flows
on that switch (the known cap: after it, packet-outs only), and a packet-out of the frame to
FLOOD. Broadcast frames (the destinations' announcements) are flooded at once, never installed.
On a loop-free topology (linear,N) flooding carries every frame to its destination, so a K-switch
path costs K x (delay + the measured floor). Counts flow-mods sent and TABLE_FULL errors seen,
and records the delay each reply really waited (``applied_s``: asyncio timers fire late).

With ``push_api`` it is a proactive controller instead: misses are ignored and flows arrive
through an HTTP API shaped like ``osken:flowpush``'s, applied ``delay_s`` after each request.

Runs an asyncio loop on a thread on 127.0.0.1 and a free port.
"""

from __future__ import annotations

import asyncio
from typing import Optional

from sdnbench.testing.peers.loop_server import LoopServer, read_message
from sdnbench.testing import openflow as of
from sdnbench.testing.http import FakeHttp

FLOOD = of.FLOOD[of.V10]
NO_BUFFER = of.NO_BUFFER
TABLE_FULL = (3, 0)              # OFPET_FLOW_MOD_FAILED, OFPFMFC_ALL_TABLES_FULL


def flow_mod(src: bytes, dst: bytes, xid: int, port: int = FLOOD) -> bytes:
    return of.flow_mod10(xid, of.match10_macs(src, dst), 0x8000, of.output(of.V10, port, 0))


def packet_out(in_port: int, data: bytes, xid: int) -> bytes:
    return of.packet_out(of.V10, xid, of.output(of.V10, FLOOD, 0), data, in_port=in_port)


class Of10Controller(LoopServer):
    """What the scripted 1.0 controllers here do with every switch: the handshake, echo
    answered, the switch's writer kept by its dpid (``_writers``; ``_on_switch`` called after);
    any other message goes to ``_on_message`` with a dict of that connection's own."""

    def __init__(self) -> None:
        super().__init__()
        self._writers: dict = {}

    def _on_switch(self) -> None:
        pass

    def _on_message(self, writer: asyncio.StreamWriter, m: bytes, conn: dict) -> None:
        raise NotImplementedError

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(of.hello(of.V10, 1) + of.msg(of.V10, "FEATURES_REQUEST", 2))
        conn: dict = {}
        try:
            while True:
                m = await read_message(reader)
                kind = of.name_of(m)
                if kind == "ECHO_REQUEST":
                    writer.write(of.echo_reply(m))
                elif kind == "FEATURES_REPLY":
                    self._writers[of.features(m)["dpid"]] = writer
                    self._on_switch()
                else:
                    self._on_message(writer, m, conn)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            writer.close()


class PathController(Of10Controller):
    def __init__(self, delay_s: float = 0.0, install_cap: Optional[int] = None, push_api: bool = False):
        super().__init__()
        self.delay_s = delay_s
        self.install_cap = install_cap
        # push_api: proactive mode. Packet-ins are ignored; flows come through an HTTP API shaped
        # like osken:flowpush's (GET /v1/switches, POST /v1/flows), answered at once and applied
        # ``delay_s`` later (the known cost of a northbound request).
        self.push_api = push_api
        self.api_url: Optional[str] = None
        self._pushed: dict = {}         # push_api: requests per dpid (install_cap refuses beyond)
        self._http = None
        self.flow_mods = 0
        self.table_full_errors = 0
        self.packet_ins = 0
        self.applied_s: list = []       # per delayed reply: the delay actually applied

    def __enter__(self) -> "PathController":
        super().__enter__()
        if self.push_api:
            self._start_api()
        return self

    def _start_api(self) -> None:
        self._http = _PushApi(self).__enter__()
        self.api_url = self._http.url

    def __exit__(self, *exc) -> None:
        if self._http is not None:
            self._http.__exit__(*exc)
        super().__exit__(*exc)

    def _send(self, writer: asyncio.StreamWriter, msg: bytes, t_in: float) -> None:
        # the delay really applied (the timer fires late by up to a few ms under load)
        self.applied_s.append(self._loop.time() - t_in)
        writer.write(msg)

    def _on_message(self, writer: asyncio.StreamWriter, m: bytes, conn: dict) -> None:
        kind, xid = of.name_of(m), of.xid_of(m)
        if kind == "PACKET_IN" and self.push_api:
            self.packet_ins += 1                                         # a miss: dropped
        elif kind == "ERROR" and len(m) >= 12 and of.error(m) == TABLE_FULL:
            self.table_full_errors += 1
        elif kind == "PACKET_IN":
            self.packet_ins += 1
            pi = of.packet_in(m)
            in_port, data = pi["in_port"], pi["frame"]
            if data[0] & 1:
                writer.write(packet_out(in_port, data, xid))
                return
            msg = b""
            installed = conn.get("installed", 0)
            if self.install_cap is None or installed < self.install_cap:
                conn["installed"] = installed + 1
                self.flow_mods += 1
                msg = flow_mod(data[6:12], data[0:6], xid)
            msg += packet_out(in_port, data, xid)
            if self.delay_s > 0:
                self._loop.call_later(self.delay_s, self._send, writer, msg, self._loop.time())
            else:
                writer.write(msg)


class _PushApi(FakeHttp):
    """``osken:flowpush``'s shape: a GET lists the connected dpids; a POST of {dpid, match:
    {eth_src, eth_dst}, out_port} is answered at once and its flow-mod sent ``delay_s`` later,
    refused (400) past ``install_cap`` requests for that switch."""

    def __init__(self, ctl: PathController) -> None:
        self.ctl = ctl
        super().__init__()

    def answer(self, method: str, path: str, headers, b) -> tuple:
        ctl = self.ctl
        if method == "GET":
            return 200, sorted(ctl._writers)
        if method != "POST":
            return 405, {"error": f"{method} is not served"}
        w = ctl._writers.get(b["dpid"])
        if w is None:
            return 404, {"error": f"no switch with dpid {b['dpid']}"}
        n = ctl._pushed[b["dpid"]] = ctl._pushed.get(b["dpid"], 0) + 1
        if ctl.install_cap is not None and n > ctl.install_cap:
            return 400, {"error": f"flow table full ({ctl.install_cap} flows)"}
        m = b["match"]
        msg = flow_mod(bytes.fromhex(m["eth_src"].replace(":", "")), bytes.fromhex(m["eth_dst"].replace(":", "")),
                       7, b["out_port"])
        t_in = ctl._loop.time()
        ctl._loop.call_soon_threadsafe(ctl._loop.call_later, ctl.delay_s, ctl._send, w, msg, t_in)
        return 200, {"ok": True}
