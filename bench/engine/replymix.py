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

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from sdnbench.testing import openflow as of  # noqa: E402  (the OpenFlow reader)

FLOW_COMMANDS = {0: "ADD", 1: "MODIFY", 2: "MODIFY_STRICT", 3: "DELETE", 4: "DELETE_STRICT"}
NO_BUFFER = of.NO_BUFFER


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
    """Every whole OpenFlow message of a stream, in order (up to the first with a length under 8).

    Walks an offset (``of.split`` copies the rest of the buffer per message: quadratic, minutes
    for the tens of MB a throughput run's capture holds)."""
    at, end = 0, len(stream)
    while at + 8 <= end:
        n = struct.unpack_from("!H", stream, at + 2)[0]
        if n < 8 or at + n > end:
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


def _buffered(bid: int) -> str:
    return "unbuffered" if bid == NO_BUFFER else "buffered"


def kind(msg: bytes) -> str:
    """The message's kind: type, length, and what decides the work it stands for."""
    version, name, n = msg[0], of.name_of(msg), len(msg)
    if name == "FLOW_MOD" and n >= (72 if version == of.V10 else 56):
        fm = of.flow_mod(msg)
        table = "" if version == of.V10 else f" table={fm['table_id']}"
        return f"FLOW_MOD {FLOW_COMMANDS.get(fm['command'], '?')}{table} len={n} {_buffered(fm['buffer_id'])}"
    if name == "PACKET_OUT" and n >= (16 if version == of.V10 else 24):
        po = of.packet_out_fields(msg)
        data = len(po["data"])
        return (f"PACKET_OUT len={n} {_buffered(po['buffer_id'])} actions={len(of.actions(po['actions']))}"
                + (f" data={data}" if data else ""))
    if name == "PACKET_IN" and version == of.V10 and n >= 18:
        pi = of.packet_in(msg)
        return (f"PACKET_IN len={n} total_len={pi['total_len']} in_port={pi['in_port']} reason={pi['reason']} "
                f"{_buffered(pi['buffer_id'])}")
    return f"{name} len={n}"


def buffer_id(msg: bytes) -> Optional[int]:
    """The buffer id a packet-in carries, or a flow-mod or packet-out names (None: another
    message, or none named)."""
    name, n = of.name_of(msg), len(msg)
    if name in ("PACKET_IN", "PACKET_OUT") and n >= 12:
        bid = of.buffer_id(msg)
    elif name == "FLOW_MOD" and n >= (72 if msg[0] == of.V10 else 56):
        bid = of.flow_mod(msg)["buffer_id"]
    else:
        return None
    return None if bid == NO_BUFFER else bid


def counted_by_cbench(msg: bytes) -> bool:
    """Whether cbench's fakeswitch.c counts this controller message as a response (its
    ``RESULT`` figure): a flow-mod ADD or MODIFY_STRICT, or a packet-out whose frame is not LLDP,
    whatever buffer either names. Floodlight's learning switch answers a known destination with
    a buffered packet-out and two unbuffered flow-mods: three responses for one request."""
    name = of.name_of(msg)
    if name == "FLOW_MOD" and len(msg) >= (72 if msg[0] == of.V10 else 56):
        return of.flow_mod(msg)["command"] in (0, 2)
    if name == "PACKET_OUT" and len(msg) >= (16 if msg[0] == of.V10 else 24):
        data = of.packet_out_fields(msg)["data"]
        return data[12:14] != b"\x88\xcc"
    return False


def _median(xs: list):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def mix(path: Path, port: int) -> dict:
    """The capture's reply mix.

    Each buffered packet-in is a request; the controller's flow-mods and packet-outs naming its
    buffer id on the same connection are its replies (a reply belongs to the latest packet-in
    with its buffer id captured before it: cbench wraps buffer ids at 100,000). ``per_answered`` is the share of answered
    requests that got each *set* of reply kinds (e.g. ``FLOW_MOD ADD len=80 buffered +
    PACKET_OUT ...``): what the controller did per request, whatever the rate and however many
    requests were still queued when the capture ended. ``unmatched`` counts the controller's
    other messages by kind (handshake, echo, replies naming no buffer).

    And how the tool paced the controller: ``counted_per_answered``, the controller's messages
    cbench counts (``counted_by_cbench``, buffered or not) over the requests answered;
    ``delay_ms_median``, a request's wait from its packet-in to its first reply (the queue the
    tool keeps in front of the controller); ``write_bytes_median``, the size of the tool's TCP
    segments to the controller (on loopback about one write each)."""
    streams = tcp_streams(path)
    requests, answered, unmatched = 0, Counter(), Counter()
    counted, delays, writes = 0, [], []
    for (src, sport, dst, dport), (stream, marks) in streams.items():
        if dport != port:
            continue
        # when each buffer id was asked: cbench wraps buffer ids at 100,000, so a reply belongs
        # to the latest packet-in with its id sent before it
        asked = defaultdict(list)
        writes += [b - a for (a, _), (b, _) in zip(marks, marks[1:] + [(len(stream), None)])]
        for ts, m in timed_messages(stream, marks):
            if of.name_of(m) == "PACKET_IN" and (bid := buffer_id(m)) is not None:
                asked[bid].append(ts)
                requests += 1
        replies = defaultdict(list)
        back, back_marks = streams.get((dst, dport, src, sport), (b"", []))
        for ts, m in timed_messages(back, back_marks):
            bid = buffer_id(m) if of.name_of(m) in ("PACKET_OUT", "FLOW_MOD") else None
            k = bisect.bisect_right(asked[bid], ts) - 1 if bid in asked else -1
            counted += counted_by_cbench(m)
            if k >= 0:
                if (bid, k) not in replies:
                    delays.append(ts - asked[bid][k])
                replies[(bid, k)].append(kind(m))
            else:
                unmatched[kind(m)] += 1
        answered.update(" + ".join(sorted(ks)) for ks in replies.values())
    n = sum(answered.values())
    delay = _median(delays)
    return {"requests": requests, "answered": n, "per_answered": {k: v / n for k, v in answered.items()} if n else {},
            "unmatched": dict(unmatched), "counted_per_answered": counted / n if n else None,
            "delay_ms_median": None if delay is None else round(delay * 1000, 3),
            "write_bytes_median": _median(writes)}


def mixes_differ(a: dict, b: dict, tolerance: float = 0.1) -> list:
    """The reply sets whose share of answered requests differs by more than ``tolerance``
    (absolute) between two mixes, as lines; and a side that answered nothing."""
    if not a["answered"] or not b["answered"]:
        return [f"answered requests: {a['answered']} vs {b['answered']}"]
    pa, pb = a["per_answered"], b["per_answered"]
    out = [f"{k}: {pa.get(k, 0.0):.3f} vs {pb.get(k, 0.0):.3f} of answered requests"
           for k in sorted(set(pa) | set(pb)) if abs(pa.get(k, 0.0) - pb.get(k, 0.0)) > tolerance]
    # what cbench counts per request (unbuffered replies included): its figure's unit
    ca, cb = a.get("counted_per_answered"), b.get("counted_per_answered")
    if ca is not None and cb is not None and abs(ca - cb) > tolerance * max(ca, cb):
        out.append(f"responses cbench counts per answered request: {ca:.2f} vs {cb:.2f}")
    return out


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
    print(f"requests (buffered packet-ins): {m['requests']}, answered: {m['answered']}; "
          f"counted by cbench per answered: {m['counted_per_answered']}, delay median {m['delay_ms_median']} ms, "
          f"write median {m['write_bytes_median']} bytes")
    for k, share in sorted(m["per_answered"].items(), key=lambda kv: -kv[1]):
        print(f"  {share:7.3f} of answered  {k}")
    for k, v in sorted(m["unmatched"].items(), key=lambda kv: -kv[1]):
        print(f"  {v:9d}  other  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
