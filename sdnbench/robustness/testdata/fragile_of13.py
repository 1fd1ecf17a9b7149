"""A deliberately fragile OF1.3 test controller for the robustness tests (a known answer for
each verdict): it answers packet-ins with a flow-mod naming the buffer id, echoes echo
requests, and
- exits with status 3 on a message of unknown type 0xee  (verdict: crashed),
- stops answering everyone for 2.5 s on a header of length 0 (verdict: hung),
- closes the session of a message with a version other than 0x04 (verdict: rejected).

Usage: python fragile_of13.py PORT"""

import asyncio
import os
import struct
import sys
import time

STALL_S = 2.5
stalled_until = 0.0


def flow_mod(xid: int, buffer_id: int) -> bytes:
    body = bytes(16) + struct.pack("!BBHHHIIIHH", 0, 0, 0, 0, 0x8000, buffer_id, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0)
    body += struct.pack("!HHI", 1, 4, 0)
    return struct.pack("!BBHI", 4, 14, 8 + len(body), xid) + body


async def serve(reader, writer):
    global stalled_until
    writer.write(struct.pack("!BBHI", 4, 0, 8, 1) + b"" + struct.pack("!BBHI", 4, 5, 8, 2))
    buf = b""
    while True:
        data = await reader.read(65536)
        if not data:
            break
        buf += data
        while len(buf) >= 8:
            ver, typ, length, xid = struct.unpack("!BBHI", buf[:8])
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
            if typ == 2:
                writer.write(bytes([4, 3]) + msg[2:])
            elif typ == 10:
                writer.write(flow_mod(xid, struct.unpack("!I", msg[8:12])[0]))
        await writer.drain()
    writer.close()


async def main(port: int):
    server = await asyncio.start_server(serve, "127.0.0.1", port)
    print(f"fragile_of13 listening on 127.0.0.1:{port}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
