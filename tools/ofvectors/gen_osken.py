#!/usr/bin/env python3
"""Write OpenFlow 1.0/1.3 test vectors made with os-ken to crates/ofwire/tests/vectors/.

Run with an interpreter that has os-ken 4.x (not a project dependency):
    /usr/bin/python3 -m venv /tmp/osken-vec && /tmp/osken-vec/bin/pip install os-ken
    /tmp/osken-vec/bin/python tools/ofvectors/gen_osken.py

Each vector is a whole message as hex plus the field values os-ken gives it ("expect"):
- messages a controller sends are built and serialized by os-ken's own encoders, and the
  expected values are those the message object was built from;
- messages a switch sends (os-ken has parsers but no encoders for them) are packed with
  os-ken's struct formats and serializers for nested parts, then decoded by os-ken's
  parser, which supplies the expected values.
The Rust test decodes every vector, compares each expected field and re-encodes byte for
byte.
"""

import binascii
import json
import os
import struct
import sys

from os_ken.ofproto import ofproto_parser
from os_ken.ofproto import ofproto_v1_0 as o10, ofproto_v1_0_parser as p10
from os_ken.ofproto import ofproto_v1_3 as o13, ofproto_v1_3_parser as p13

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from osken_cases import cases  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates", "ofwire", "tests", "vectors")


class Datapath:
    """The little of a datapath that os-ken's message classes touch."""

    def __init__(self, ofp, parser):
        self.ofproto = ofp
        self.ofproto_parser = parser
        self.id = 1


def decode(dp, buf):
    version, msg_type, msg_len, xid = struct.unpack_from("!BBHI", buf)
    return ofproto_parser.msg(dp, version, msg_type, msg_len, xid, bytes(buf))


def serialized(msg, xid):
    msg.set_xid(xid)
    msg.serialize()
    return bytes(msg.buf)


def main():
    os.makedirs(OUT, exist_ok=True)
    total = 0
    for tag, ofp, parser in (("of10", o10, p10), ("of13", o13, p13)):
        dp = Datapath(ofp, parser)
        vectors = []
        for name, kind, make in cases(ofp, parser, dp):
            source, raw, expect = make(serialized, lambda buf, dp=dp: decode(dp, buf))
            vectors.append({"name": name, "kind": kind, "source": source,
                            "hex": binascii.hexlify(raw).decode(), "expect": expect})
        path = os.path.join(OUT, "osken_%s.json" % tag)
        with open(path, "w") as f:
            json.dump({"generator": "tools/ofvectors/gen_osken.py", "os_ken": os_ken_version(),
                       "version": ofp.OFP_VERSION, "vectors": vectors}, f, indent=1, sort_keys=True)
            f.write("\n")
        print("%s: %d vectors" % (os.path.relpath(path), len(vectors)))
        total += len(vectors)
    print("total: %d vectors" % total)
    write_lldp()


def write_lldp():
    """LLDP frames as os-ken's topology discovery (os_ken.topology.switches) sends them."""
    from os_ken.topology.switches import LLDPPacket
    frames = []
    for dpid, port_no, mac, ttl in ((0xab, 3, "02:00:00:00:00:03", 120), (0x0102030405060708, 0xfffffffe, "0a:1b:2c:3d:4e:5f", 1),
                                    (1, 65534, "02:00:00:00:00:01", 65535)):
        raw = LLDPPacket.lldp_packet(dpid, port_no, mac, ttl)
        got_dpid, got_port = LLDPPacket.lldp_parse(raw)
        frames.append({"dpid": got_dpid, "port_no": got_port, "src_mac": mac.replace(":", ""), "ttl": ttl,
                       "hex": binascii.hexlify(raw).decode()})
    path = os.path.join(OUT, "osken_lldp.json")
    with open(path, "w") as f:
        json.dump({"generator": "tools/ofvectors/gen_osken.py", "os_ken": os_ken_version(), "frames": frames}, f, indent=1)
        f.write("\n")
    print("%s: %d LLDP frames" % (os.path.relpath(path), len(frames)))


def os_ken_version():
    from importlib.metadata import version
    return version("os-ken")


if __name__ == "__main__":
    main()
