"""A scripted OF1.3 test controller with known flaws, for the robustness known-answer tests
(issue 31). It answers every packet-in with a flow-mod naming its buffer id and echoes echo
requests, and, as asked:

- ``--hang-on-long``: a packet-in whose frame is longer than its ``total_len`` (what
  ``length-long`` makes of a packet-in: its length field covers 64 bytes of the next message)
  stops it answering anyone for 2.5 s (verdict: hung);
- ``--view HTTP_PORT``: keeps a topology and host view and serves it as JSON at
  ``http://127.0.0.1:HTTP_PORT/v1/topology`` (the shape of ``sdnbench.controllers.apps.topology``):
  a host is placed where its last gratuitous ARP came in, with no check that it moved (so it
  re-learns a hijacked host: ``host-hijack`` reads fooled), and every LLDP packet-in whose
  chassis ID reads ``dpid:%016x`` adds a link from that datapath's port to where it came in,
  with no check that the controller sent it (``fabricated-lldp`` reads fooled).

Usage: python scripted_view_of13.py PORT [--hang-on-long] [--view HTTP_PORT]"""

import argparse
import asyncio
import json
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STALL_S = 2.5
state = {"stalled_until": 0.0, "hosts": {}, "links": set(), "switches": set()}


def flow_mod(xid: int, buffer_id: int) -> bytes:
    body = bytes(16) + struct.pack("!BBHHHIIIHH", 0, 0, 0, 0, 0x8000, buffer_id, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0)
    body += struct.pack("!HHI", 1, 4, 0)
    return struct.pack("!BBHI", 4, 14, 8 + len(body), xid) + body


def parse_packet_in(msg: bytes) -> tuple:
    """(buffer_id, total_len, in_port, frame) of a 1.3 packet-in."""
    buffer_id, total_len = struct.unpack("!IH", msg[8:14])
    mlen = struct.unpack("!H", msg[26:28])[0]
    oxms, in_port = msg[28:24 + mlen], None
    while len(oxms) >= 4:
        cls, field, n = struct.unpack("!HBB", oxms[:4])
        if cls == 0x8000 and field >> 1 == 0 and n == 4:
            in_port = struct.unpack("!I", oxms[4:8])[0]
        oxms = oxms[4 + n:]
    return buffer_id, total_len, in_port, msg[24 + mlen + (-mlen % 8) + 2:]


def lldp_origin(frame: bytes):
    """(dpid, port) an LLDP frame claims to have left, else None."""
    if len(frame) < 14 or frame[12:14] != b"\x88\xcc":
        return None
    tlvs, got = frame[14:], {}
    while len(tlvs) >= 2:
        head = struct.unpack("!H", tlvs[:2])[0]
        typ, n = head >> 9, head & 0x1FF
        got[typ], tlvs = tlvs[2:2 + n], tlvs[2 + n:]
        if typ == 0:
            break
    chassis, port = got.get(1, b""), got.get(2, b"")
    if not chassis.startswith(b"\x07dpid:") or len(port) != 5:
        return None
    return int(chassis[6:].decode(), 16), struct.unpack("!I", port[1:])[0]


def learn(dpid: int, in_port: int, frame: bytes) -> None:
    origin = lldp_origin(frame)
    if origin:
        state["links"].add((origin, (dpid, in_port)))
    elif len(frame) >= 14 and frame[12:14] == b"\x08\x06":          # ARP: the host is here now
        mac = ":".join(f"{b:02x}" for b in frame[6:12])
        state["hosts"][mac] = (dpid, in_port)


async def serve(reader, writer, args):
    writer.write(struct.pack("!BBHI", 4, 0, 8, 1) + struct.pack("!BBHI", 4, 5, 8, 2))
    buf, dpid = b"", None
    while True:
        data = await reader.read(65536)
        if not data:
            break
        buf += data
        while len(buf) >= 8:
            ver, typ, length, xid = struct.unpack("!BBHI", buf[:8])
            if length < 8 or ver != 4:
                writer.close()
                return
            if len(buf) < length:
                break
            msg, buf = buf[:length], buf[length:]
            if time.monotonic() < state["stalled_until"]:
                await asyncio.sleep(state["stalled_until"] - time.monotonic())
            if typ == 2:
                writer.write(bytes([4, 3]) + msg[2:])
            elif typ == 6:
                dpid = struct.unpack("!Q", msg[8:16])[0]
                state["switches"].add(dpid)
            elif typ == 10:
                buffer_id, total_len, in_port, frame = parse_packet_in(msg)
                if args.hang_on_long and len(frame) > total_len:
                    state["stalled_until"] = time.monotonic() + STALL_S
                    continue
                if args.view and dpid is not None and in_port is not None:
                    learn(dpid, in_port, frame)
                writer.write(flow_mod(xid, buffer_id))
        await writer.drain()
    writer.close()


class View(BaseHTTPRequestHandler):
    def do_GET(self):   # noqa: N802 - http.server's name
        port = lambda d, p: {"dpid": d, "port_no": p}  # noqa: E731
        doc = {"version": 1, "switches": sorted(state["switches"]),
               "links": [{"src": port(*a), "dst": port(*b)} for a, b in sorted(state["links"])],
               "hosts": [{"mac": m, "dpid": d, "port_no": p} for m, (d, p) in sorted(state["hosts"].items())]}
        body = json.dumps(doc).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


async def main(args):
    if args.view:
        http = ThreadingHTTPServer(("127.0.0.1", args.view), View)
        threading.Thread(target=http.serve_forever, daemon=True).start()
    server = await asyncio.start_server(lambda r, w: serve(r, w, args), "127.0.0.1", args.port)
    print(f"scripted_view_of13 listening on 127.0.0.1:{args.port}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("--hang-on-long", action="store_true")
    ap.add_argument("--view", type=int, metavar="HTTP_PORT")
    asyncio.run(main(ap.parse_args()))
