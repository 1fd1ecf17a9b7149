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
import time

from sdnbench.testing import lldp, openflow as of
from sdnbench.testing.http import FakeHttp

STALL_S = 2.5
state = {"stalled_until": 0.0, "hosts": {}, "links": set(), "switches": set()}


def learn(dpid: int, in_port: int, frame: bytes) -> None:
    origin = lldp.origin(frame)
    if origin:
        state["links"].add((origin, (dpid, in_port)))
    elif len(frame) >= 14 and frame[12:14] == b"\x08\x06":          # ARP: the host is here now
        mac = ":".join(f"{b:02x}" for b in frame[6:12])
        state["hosts"][mac] = (dpid, in_port)


async def serve(reader, writer, args):
    writer.write(of.hello(of.V13, 1) + of.msg(of.V13, "FEATURES_REQUEST", 2))
    buf, dpid = b"", None
    while True:
        data = await reader.read(65536)
        if not data:
            break
        buf += data
        while len(buf) >= 8:
            ver, typ, length, xid = of.header(buf)
            if length < 8 or ver != 4:
                writer.close()
                return
            if len(buf) < length:
                break
            msg, buf = buf[:length], buf[length:]
            if time.monotonic() < state["stalled_until"]:
                await asyncio.sleep(state["stalled_until"] - time.monotonic())
            name = of.name_of(msg)
            if name == "ECHO_REQUEST":
                writer.write(of.echo_reply(msg))
            elif name == "FEATURES_REPLY":
                dpid = of.features(msg)["dpid"]
                state["switches"].add(dpid)
            elif name == "PACKET_IN":
                pi = of.packet_in(msg)
                buffer_id, in_port, frame = pi["buffer_id"], pi["in_port"], pi["frame"]
                if args.hang_on_long and len(frame) > pi["total_len"]:
                    state["stalled_until"] = time.monotonic() + STALL_S
                    continue
                if args.view and dpid is not None and in_port is not None:
                    learn(dpid, in_port, frame)
                writer.write(of.drop_flow(of.V13, xid, buffer_id))
        await writer.drain()
    writer.close()


class View(FakeHttp):
    """The view as JSON at any path (the test reads /v1/topology)."""

    def answer(self, method, path, headers, body):
        port = lambda d, p: {"dpid": d, "port_no": p}  # noqa: E731
        return 200, {"version": 1, "switches": sorted(state["switches"]),
                     "links": [{"src": port(*a), "dst": port(*b)} for a, b in sorted(state["links"])],
                     "hosts": [{"mac": m, "dpid": d, "port_no": p} for m, (d, p) in sorted(state["hosts"].items())]}


async def main(args):
    if args.view:
        View(args.view).__enter__()                  # serves until the process ends
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
