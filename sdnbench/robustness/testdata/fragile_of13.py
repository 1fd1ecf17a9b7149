"""A deliberately fragile OF1.3 test controller for the robustness tests (a known answer for
each verdict): it answers packet-ins with a flow-mod naming the buffer id, echoes echo
requests, and
- exits with status 3 on a message of unknown type 0xee  (verdict: crashed),
- stops answering everyone for 2.5 s on a header of length 0 (verdict: hung),
- closes the session of a message with a version other than 0x04 (verdict: rejected).

Usage: python fragile_of13.py PORT"""

import asyncio
import os
import sys
import time

from sdnbench.testing import openflow as of

STALL_S = 2.5
stalled_until = 0.0


async def serve(reader, writer):
    global stalled_until
    writer.write(of.hello(of.V13, 1) + of.msg(of.V13, "FEATURES_REQUEST", 2))
    buf = b""
    while True:
        data = await reader.read(65536)
        if not data:
            break
        buf += data
        while len(buf) >= 8:
            ver, typ, length, xid = of.header(buf)
            if length == 0:
                stalled_until = time.monotonic() + STALL_S
                buf = b""
                break
            if len(buf) < length:
                break
            msg, buf = buf[:length], buf[length:]
            if typ == 0xEE:
                print("fragile_of13: unknown type, exiting", flush=True)
                os._exit(3)
            if ver != 4:
                writer.close()
                return
            if time.monotonic() < stalled_until:
                await asyncio.sleep(stalled_until - time.monotonic())
            name = of.name_of(msg)
            if name == "ECHO_REQUEST":
                writer.write(of.echo_reply(msg))
            elif name == "PACKET_IN":
                writer.write(of.drop_flow(of.V13, xid, of.buffer_id(msg)))
        await writer.drain()
    writer.close()


async def main(port: int):
    server = await asyncio.start_server(serve, "127.0.0.1", port)
    print(f"fragile_of13 listening on 127.0.0.1:{port}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
