#!/usr/bin/env python3
"""A scripted OpenFlow 1.0 controller that only discovers links, for the engine's network scale
benchmark: it answers echoes, asks every switch for its features, and every ``--interval``
seconds sends one LLDP packet-out on every port of every switch (chassis id = dpid, port id =
port). Each LLDP packet-in it gets back names one link direction (sender dpid/port → receiver
dpid/in_port).

    lldp_controller.py --port 6653 --status /tmp/status.json [--interval 5] [--rounds 0]

It writes its status (switches connected, LLDP sent, LLDP received, distinct link directions
seen, seconds since the first switch connected) to ``--status`` once a second and on SIGTERM.
Loopback only. It is a measuring peer, not a controller under test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from sdnbench.testing import lldp  # noqa: E402  (os-ken's LLDP frame: chassis dpid:%016x, port id)
from sdnbench.testing import openflow as of  # noqa: E402

V10 = of.V10


def packet_out(xid: int, port: int, frame: bytes) -> bytes:
    return of.packet_out(V10, xid, of.output(V10, port, 0), frame)


class State:
    def __init__(self):
        self.switches: dict[int, tuple[asyncio.StreamWriter, list[int]]] = {}
        self.lldp_out = 0
        self.lldp_in = 0
        self.links: set[tuple[int, int, int, int]] = set()
        self.first_connect = None
        self.all_links_at = None

    def status(self) -> dict:
        t0 = self.first_connect or time.monotonic()
        return {"switches": len(self.switches), "lldp_out": self.lldp_out, "lldp_in": self.lldp_in,
                "link_directions": len(self.links), "since_first_connect_s": round(time.monotonic() - t0, 3)}


async def serve(st: State, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
    writer.write(of.hello(V10, 1) + of.msg(V10, "FEATURES_REQUEST", 2))
    st.first_connect = st.first_connect or time.monotonic()
    dpid = None
    try:
        while True:
            head = await reader.readexactly(8)
            m = head + await reader.readexactly(of.header(head)[2] - 8)
            name = of.name_of(m)
            if name == "ECHO_REQUEST":
                writer.write(of.echo_reply(m))
            elif name == "FEATURES_REPLY":
                f = of.features(m)
                dpid = f["dpid"]
                st.switches[dpid] = (writer, [p for p in f["ports"] if p > 0])
            elif name == "PACKET_IN" and dpid is not None:
                pi = of.packet_in(m)
                in_port = pi["in_port"]
                src = lldp.origin(pi["frame"])
                if src:
                    st.lldp_in += 1
                    st.links.add((src[0], src[1], dpid, in_port))
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        if dpid is not None:
            st.switches.pop(dpid, None)
        writer.close()


async def probe(st: State, interval: float, rounds: int):
    xid, k = 1000, 0
    while rounds == 0 or k < rounds:
        await asyncio.sleep(interval)
        for dpid, (w, ports) in list(st.switches.items()):
            for p in ports:
                xid += 1
                w.write(packet_out(xid, p, lldp.frame(dpid, p)))
                st.lldp_out += 1
            if xid % 512 == 0:
                await asyncio.sleep(0)
        k += 1


async def report(st: State, path: str):
    while True:
        write_status(st, path)
        await asyncio.sleep(1)


def write_status(st: State, path: str):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(st.status(), f)
    os.replace(tmp, path)


async def main(a) -> None:
    st = State()
    server = await asyncio.start_server(lambda r, w: serve(st, r, w), a.host, a.port, backlog=4096)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for s in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(s, stop.set)
    tasks = [asyncio.create_task(probe(st, a.interval, a.rounds)), asyncio.create_task(report(st, a.status))]
    await stop.wait()
    for t in tasks:
        t.cancel()
    server.close()
    write_status(st, a.status)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=6653)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (a lab bridge's, for namespaces)")
    p.add_argument("--status", required=True)
    p.add_argument("--interval", type=float, default=5.0)
    p.add_argument("--rounds", type=int, default=0, help="probe rounds (0: until stopped)")
    asyncio.run(main(p.parse_args()))
