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
import struct
import time

OFP10 = 1
HELLO, ECHO_REQ, ECHO_REP, FEATURES_REQ, FEATURES_REP, PACKET_IN, PACKET_OUT = 0, 2, 3, 5, 6, 10, 13
LLDP_DST = bytes.fromhex("0180c200000e")


def msg(t: int, xid: int, body: bytes = b"") -> bytes:
    return struct.pack("!BBHI", OFP10, t, 8 + len(body), xid) + body


def tlv(t: int, value: bytes) -> bytes:
    return struct.pack("!H", (t << 9) | len(value)) + value


def lldp_frame(dpid: int, port: int) -> bytes:
    chassis = tlv(1, b"\x07" + f"dpid:{dpid:016x}".encode())
    port_id = tlv(2, b"\x02" + struct.pack("!I", port))
    ttl = tlv(3, struct.pack("!H", 120))
    frame = LLDP_DST + bytes.fromhex("020000000001") + b"\x88\xcc" + chassis + port_id + ttl + tlv(0, b"")
    return frame + b"\x00" * max(0, 60 - len(frame))


def parse_lldp(frame: bytes):
    """(dpid, port) of an LLDP frame this controller made, else None."""
    if len(frame) < 14 or frame[12:14] != b"\x88\xcc":
        return None
    i, dpid, port = 14, None, None
    while i + 2 <= len(frame):
        (h,) = struct.unpack_from("!H", frame, i)
        t, n = h >> 9, h & 0x1FF
        v = frame[i + 2:i + 2 + n]
        if t == 0:
            break
        if t == 1 and v[:6] == b"\x07dpid:":
            dpid = int(v[6:], 16)
        elif t == 2 and len(v) == 5:
            (port,) = struct.unpack("!I", v[1:])
        i += 2 + n
    return (dpid, port) if dpid is not None and port is not None else None


def packet_out(xid: int, port: int, frame: bytes) -> bytes:
    action = struct.pack("!HHHH", 0, 8, port, 0)
    return msg(PACKET_OUT, xid, struct.pack("!IHH", 0xFFFFFFFF, 0xFFFF, len(action)) + action + frame)


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
    writer.write(msg(HELLO, 1) + msg(FEATURES_REQ, 2))
    st.first_connect = st.first_connect or time.monotonic()
    dpid = None
    try:
        while True:
            head = await reader.readexactly(8)
            _, t, n, xid = struct.unpack("!BBHI", head)
            body = await reader.readexactly(n - 8)
            if t == ECHO_REQ:
                writer.write(msg(ECHO_REP, xid, body))
            elif t == FEATURES_REP:
                dpid = struct.unpack_from("!Q", body, 0)[0]
                ports = [struct.unpack_from("!H", body, 24 + 48 * k)[0] for k in range((len(body) - 24) // 48)]
                st.switches[dpid] = (writer, [p for p in ports if 0 < p < 0xFF00])
            elif t == PACKET_IN and dpid is not None:
                in_port = struct.unpack_from("!H", body, 6)[0]
                src = parse_lldp(body[10:])
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
                w.write(packet_out(xid, p, lldp_frame(dpid, p)))
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
