#!/usr/bin/env python3
"""Reply mix: what a controller sent back, message by message, read from a packet capture.

    .venv/bin/python bench/engine/replymix.py CAPTURE.pcap --port 6653 [--json]

Two tools can only measure the same thing when they ask the controller for the same work. This
reads a capture of the controller's OpenFlow port (``tcpdump -i lo -s 0 -w F --immediate-mode
'tcp port P'``), reassembles every TCP stream, splits it into OpenFlow messages and sorts each
message into a *kind*: its type and length plus what decides the controller's work, e.g.
``PACKET_OUT len=24 buffered actions=0`` (a drop), ``FLOW_MOD ADD len=80 buffered``.

The mix is, over the requests (buffered packet-ins) the controller answered, the share that got
each set of reply kinds: two captures of different lengths and rates compare, and requests
still queued when a capture ends do not count. ``mixes_differ`` names every set whose share
differs by more than ``tolerance`` (absolute), or that one side has and the other lacks.
"""

from __future__ import annotations

import argparse
import bisect
import json
import struct
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Optional

_COMMON = ["HELLO", "ERROR", "ECHO_REQUEST", "ECHO_REPLY", "VENDOR", "FEATURES_REQUEST", "FEATURES_REPLY",
           "GET_CONFIG_REQUEST", "GET_CONFIG_REPLY", "SET_CONFIG", "PACKET_IN", "FLOW_REMOVED", "PORT_STATUS",
           "PACKET_OUT", "FLOW_MOD"]
# message type names by number: OpenFlow 1.0 (spec §5.1 ofp_type) and 1.3 (§7.1)
TYPES = dict(enumerate(_COMMON + ["PORT_MOD", "STATS_REQUEST", "STATS_REPLY", "BARRIER_REQUEST", "BARRIER_REPLY"]))
TYPES13 = dict(enumerate(_COMMON + ["GROUP_MOD", "PORT_MOD", "TABLE_MOD", "MULTIPART_REQUEST", "MULTIPART_REPLY",
                                    "BARRIER_REQUEST", "BARRIER_REPLY"]))
FLOW_COMMANDS = {0: "ADD", 1: "MODIFY", 2: "MODIFY_STRICT", 3: "DELETE", 4: "DELETE_STRICT"}
NO_BUFFER = 0xFFFFFFFF


def pcap_packets(path: Path):
    """(ts, ip payload) of every IPv4 packet of a libpcap file (Ethernet, cooked or raw links)."""
    data = path.read_bytes()
    if len(data) < 24:
        return
    magic = data[:4]
    endian = {b"\xd4\xc3\xb2\xa1": "<", b"\xa1\xb2\xc3\xd4": ">", b"\x4d\x3c\xb2\xa1": "<",
              b"\xa1\xb2\x3c\x4d": ">"}.get(magic)
    if endian is None:
        raise ValueError(f"{path}: not a libpcap capture")
    link = struct.unpack(endian + "I", data[20:24])[0]
    skip = {1: 14, 113: 16, 101: 0, 228: 0, 0: 4}.get(link)
    if skip is None:
        raise ValueError(f"{path}: link type {link} is not read here")
    at = 24
    while at + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(endian + "IIII", data[at:at + 16])
        frame = data[at + 16:at + 16 + caplen]
        at += 16 + caplen
        ethertype = struct.unpack(">H", frame[12:14])[0] if link == 1 else 0x0800
        if ethertype == 0x0800 and len(frame) > skip + 20:
            yield sec + frac / 1e6, frame[skip:]


def tcp_streams(path: Path) -> dict:
    """{(src, sport, dst, dport): (bytes, marks)}: each stream's payload in sequence order, once,
    and ``marks``, the (offset, capture time) at which each segment's new bytes begin."""
    segs = defaultdict(dict)
    first = {}
    for ts, ip in pcap_packets(path):
        if ip[9] != 6:
            continue
        ihl = (ip[0] & 15) * 4
        total = struct.unpack(">H", ip[2:4])[0]
        tcp = ip[ihl:total]
        sport, dport, seq = struct.unpack(">HHI", tcp[:8])
        payload = tcp[(tcp[12] >> 4) * 4:]
        if payload:
            key = (ip[12:16], sport, ip[16:20], dport)
            rel = (seq - first.setdefault(key, seq)) % 2**32     # sequence numbers wrap
            segs[key].setdefault(rel, (ts, payload))
    out = {}
    for key, by_seq in segs.items():
        buf, end, marks = bytearray(), 0, []
        for s in sorted(by_seq):  # in order; overlapping retransmissions keep the first copy's bytes
            ts, p = by_seq[s]
            if s + len(p) <= end:
                continue
            if s > end:     # a hole: the capture lost bytes; stop this stream there
                break
            marks.append((len(buf), ts))
            buf += p[end - s:]
            end = s + len(p)
        out[key] = (bytes(buf), marks)
    return out


def messages(stream: bytes):
    """Every whole OpenFlow message of a stream, in order."""
    at = 0
    while at + 8 <= len(stream):
        n = struct.unpack(">H", stream[at + 2:at + 4])[0]
        if n < 8 or at + n > len(stream):
            return
        yield stream[at:at + n]
        at += n


def timed_messages(stream: bytes, marks: list):
    """(capture time of the segment that carried its first byte, message) for every message."""
    offsets = [o for o, _ in marks]
    at = 0
    for m in messages(stream):
        yield marks[bisect.bisect_right(offsets, at) - 1][1], m
        at += len(m)


def kind(msg: bytes) -> str:
    """The message's kind: type, length, and what decides the work it stands for."""
    version, ty = msg[0], msg[1]
    name = (TYPES if version == 1 else TYPES13).get(ty, f"TYPE{ty}")
    n = len(msg)
    if ty == 14 and version == 1 and n >= 72:
        cmd = FLOW_COMMANDS.get(struct.unpack(">H", msg[56:58])[0], "?")
        buf = struct.unpack(">I", msg[68:72])[0]
        return f"FLOW_MOD {cmd} len={n} {'unbuffered' if buf == NO_BUFFER else 'buffered'}"
    if ty == 14 and version == 4 and n >= 56:
        cmd = FLOW_COMMANDS.get(msg[25], "?")
        buf = struct.unpack(">I", msg[36:40])[0]
        return f"FLOW_MOD {cmd} table={msg[24]} len={n} {'unbuffered' if buf == NO_BUFFER else 'buffered'}"
    if ty == 13 and n >= 16:
        hdr = 16 if version == 1 else 24
        buf = struct.unpack(">I", msg[8:12])[0]
        alen = struct.unpack(">H", msg[14:16] if version == 1 else msg[16:18])[0]
        nact = _count_actions(msg[hdr:hdr + alen])
        data = n - hdr - alen
        return (f"PACKET_OUT len={n} {'unbuffered' if buf == NO_BUFFER else 'buffered'} actions={nact}"
                + (f" data={data}" if data else ""))
    if ty == 10 and version == 1 and n >= 18:
        buf, total, port, reason = struct.unpack(">IHHB", msg[8:17])
        return (f"PACKET_IN len={n} total_len={total} in_port={port} reason={reason} "
                f"{'unbuffered' if buf == NO_BUFFER else 'buffered'}")
    return f"{name} len={n}"


def _count_actions(actions: bytes) -> int:
    at, count = 0, 0
    while at + 4 <= len(actions):
        alen = struct.unpack(">H", actions[at + 2:at + 4])[0]
        if alen < 4:
            break
        at, count = at + alen, count + 1
    return count


def buffer_id(msg: bytes) -> Optional[int]:
    """The buffer id a packet-in carries, or a flow-mod or packet-out names (None: another
    message, or none named)."""
    ty, version, n = msg[1], msg[0], len(msg)
    if ty in (10, 13) and n >= 12:
        bid = struct.unpack(">I", msg[8:12])[0]
    elif ty == 14 and version == 1 and n >= 72:
        bid = struct.unpack(">I", msg[64:68])[0]
    elif ty == 14 and version == 4 and n >= 56:
        bid = struct.unpack(">I", msg[36:40])[0]
    else:
        return None
    return None if bid == NO_BUFFER else bid


def mix(path: Path, port: int) -> dict:
    """The capture's reply mix.

    Each buffered packet-in is a request; the controller's flow-mods and packet-outs naming its
    buffer id on the same connection are its replies (a reply belongs to the latest packet-in
    with its buffer id captured before it: cbench wraps buffer ids at 100,000). ``per_answered`` is the share of answered
    requests that got each *set* of reply kinds (e.g. ``FLOW_MOD ADD len=80 buffered +
    PACKET_OUT ...``): what the controller did per request, whatever the rate and however many
    requests were still queued when the capture ended. ``unmatched`` counts the controller's
    other messages by kind (handshake, echo, replies naming no buffer)."""
    streams = tcp_streams(path)
    requests, answered, unmatched = 0, Counter(), Counter()
    for (src, sport, dst, dport), (stream, marks) in streams.items():
        if dport != port:
            continue
        # when each buffer id was asked: cbench wraps buffer ids at 100,000, so a reply belongs
        # to the latest packet-in with its id sent before it
        asked = defaultdict(list)
        for ts, m in timed_messages(stream, marks):
            if m[1] == 10 and (bid := buffer_id(m)) is not None:
                asked[bid].append(ts)
                requests += 1
        replies = defaultdict(list)
        back, back_marks = streams.get((dst, dport, src, sport), (b"", []))
        for ts, m in timed_messages(back, back_marks):
            bid = buffer_id(m) if m[1] in (13, 14) else None
            k = bisect.bisect_right(asked[bid], ts) - 1 if bid in asked else -1
            if k >= 0:
                replies[(bid, k)].append(kind(m))
            else:
                unmatched[kind(m)] += 1
        answered.update(" + ".join(sorted(ks)) for ks in replies.values())
    n = sum(answered.values())
    return {"requests": requests, "answered": n, "per_answered": {k: v / n for k, v in answered.items()} if n else {},
            "unmatched": dict(unmatched)}


def mixes_differ(a: dict, b: dict, tolerance: float = 0.1) -> list:
    """The reply sets whose share of answered requests differs by more than ``tolerance``
    (absolute) between two mixes, as lines; and a side that answered nothing."""
    if not a["answered"] or not b["answered"]:
        return [f"answered requests: {a['answered']} vs {b['answered']}"]
    pa, pb = a["per_answered"], b["per_answered"]
    return [f"{k}: {pa.get(k, 0.0):.3f} vs {pb.get(k, 0.0):.3f} of answered requests"
            for k in sorted(set(pa) | set(pb)) if abs(pa.get(k, 0.0) - pb.get(k, 0.0)) > tolerance]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture")
    ap.add_argument("--port", type=int, required=True, help="the controller's port")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    try:
        m = mix(Path(a.capture), a.port)
    except (OSError, ValueError) as e:
        print(f"replymix: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(m, indent=1))
        return 0
    print(f"requests (buffered packet-ins): {m['requests']}, answered: {m['answered']}")
    for k, share in sorted(m["per_answered"].items(), key=lambda kv: -kv[1]):
        print(f"  {share:7.3f} of answered  {k}")
    for k, v in sorted(m["unmatched"].items(), key=lambda kv: -kv[1]):
        print(f"  {v:9d}  other  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
