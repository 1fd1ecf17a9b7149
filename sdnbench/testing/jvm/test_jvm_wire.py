"""The JVM controller's bytes, a switch at a time: what it sends is compared byte for byte with
the peers' encoder (``sdnbench.testing.openflow``, itself checked against os-ken's), for the
version negotiation, the handshake, the 1.3 table-miss entry, echo, and the learning switch's
three answers (flood, flow-mod naming the buffer, flow-mod + packet-out of an unbuffered frame).

A known answer ends with an echo: its reply is the next message, so nothing else was sent in
between (the session is read in order)."""

from __future__ import annotations

import socket
import struct

import pytest

from sdnbench.testing import openflow as of
from sdnbench.testing.openflow import V10, V13

IDLE_S, PRIORITY = 10, 1              # the learned flows' idle timeout and priority (Of.java)
A, B = bytes.fromhex("0000000000a1"), bytes.fromhex("0000000000b2")
BROADCAST = b"\xff" * 6


class Switch:
    """A switch's side of one session on a blocking socket."""

    def __init__(self, port: int, version: int = V13):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        self.version = version

    def send(self, m: bytes) -> None:
        self.sock.sendall(m)

    def next(self) -> bytes:
        while True:
            msgs, rest = of.split(self.buf)
            if msgs:
                self.buf = self.buf[len(msgs[0]):]
                return msgs[0]
            data = self.sock.recv(65536)
            assert data, "the controller closed the session"
            self.buf += data

    def expect(self, want) -> None:
        """The next message is ``want(xid)`` (its xid is the controller's to choose)."""
        got = self.next()
        assert got.hex() == want(of.xid_of(got)).hex()

    def quiet_since(self) -> None:
        """Nothing was sent since the last expected message: an echo's reply comes next."""
        self.send(of.msg(self.version, "ECHO_REQUEST", 0xE0, b"ping"))
        assert self.next() == of.msg(self.version, "ECHO_REPLY", 0xE0, b"ping")

    def close(self) -> None:
        self.sock.close()


def frame(dst: bytes, src: bytes) -> bytes:
    return (dst + src + b"\x08\x00").ljust(60, b"\x5a")


def features_reply(v: int, dpid: int) -> bytes:
    if v == V10:
        return of.msg(V10, "FEATURES_REPLY", 2, struct.pack("!QIB3xII", dpid, 256, 1, 0, 0))
    return of.features_reply13(2, dpid, 1, 256)


def connected(port: int, v: int, dpid: int) -> Switch:
    """A session through the handshake at version ``v`` (the switch offers only it)."""
    sw = Switch(port, v)
    sw.send(of.hello(v, 1, [v]) if v == V13 else of.hello(v, 1))
    sw.expect(lambda x: of.hello(V13, x, [V10, V13]))
    sw.expect(lambda x: of.msg(v, "FEATURES_REQUEST", x))
    sw.send(features_reply(v, dpid))
    if v == V13:
        sw.expect(lambda x: of.flow_mod13(x, of.ADD, 0, 0, of.apply_actions(of.output(V13, of.CONTROLLER[V13])),
                                          out_port=of.ANY, out_group=of.ANY))
    return sw


def packet_in(v: int, in_port: int, f: bytes, buffer_id: int) -> bytes:
    make = of.packet_in10 if v == V10 else of.packet_in13
    return make(9, in_port, f, buffer_id)


def learned_flow(v: int, xid: int, in_port: int, f: bytes, buffer_id: int, out: int) -> bytes:
    """FLOW_MOD ADD matching in_port, dl_dst, dl_src, output ``out``, naming ``buffer_id``."""
    dst, src = f[:6], f[6:12]
    if v == V10:
        wild = of.OFPFW10_ALL & ~(1 | of.OFPFW10_DL_SRC | of.OFPFW10_DL_DST)
        match = struct.pack("!IH6s6s", wild, in_port, src, dst).ljust(40, b"\0")
        body = struct.pack("!QHHHHIHH", 0, of.ADD, IDLE_S, 0, PRIORITY, buffer_id, of.NONE_PORT10, 0)
        return of.msg(V10, "FLOW_MOD", xid, match + body + of.output(V10, out, 0))
    body = struct.pack("!QQBBHHHIIIH2x", 0, 0, 0, of.ADD, IDLE_S, 0, PRIORITY, buffer_id, of.ANY, of.ANY, 0)
    match = of.match13(of.oxm_in_port(in_port), of.oxm(of.OXM_ETH_DST, dst), of.oxm(of.OXM_ETH_SRC, src))
    return of.msg(V13, "FLOW_MOD", xid, body + match + of.apply_actions(of.output(V13, out, 0)))


@pytest.mark.parametrize("v", [V10, V13])
def test_learns_floods_and_installs_flows(jvm_port, v):
    sw = connected(jvm_port, v, dpid=0x4700 + v)
    try:
        to_all = frame(BROADCAST, A)                         # A on port 1, to everyone: flooded
        sw.send(packet_in(v, 1, to_all, 0x10))
        sw.expect(lambda x: of.packet_out(v, x, of.output(v, of.FLOOD[v], 0), b"", in_port=1, buffer_id=0x10))
        to_a = frame(A, B)                                   # B on port 2, to A (learned): a flow, no packet-out
        sw.send(packet_in(v, 2, to_a, 0x11))
        sw.expect(lambda x: learned_flow(v, x, 2, to_a, 0x11, out=1))
        sw.quiet_since()
        to_b = frame(B, A)                                   # unbuffered: the flow, then the frame itself
        sw.send(packet_in(v, 1, to_b, of.NO_BUFFER))
        sw.expect(lambda x: learned_flow(v, x, 1, to_b, of.NO_BUFFER, out=2))
        sw.expect(lambda x: of.packet_out(v, x, of.output(v, 2, 0), to_b, in_port=1))
        sw.quiet_since()
    finally:
        sw.close()


def test_a_datapath_keeps_what_it_learned_across_sessions(jvm_port):
    first = connected(jvm_port, V13, dpid=0x4711)
    first.send(packet_in(V13, 3, frame(BROADCAST, A), 0x20))
    first.next()
    first.close()
    again = connected(jvm_port, V13, dpid=0x4711)
    try:
        to_a = frame(A, B)
        again.send(packet_in(V13, 4, to_a, 0x21))
        again.expect(lambda x: learned_flow(V13, x, 4, to_a, 0x21, out=3))
    finally:
        again.close()


@pytest.mark.parametrize("hello,version", [
    (of.hello(V10, 1), V10),                      # a 1.0 switch: no bitmap
    (of.hello(V13, 1, [V10, V13]), V13),          # both: the higher
    (of.hello(V13, 1, [V10]), V10),               # the bitmap decides, not the header
    (struct.pack("!BBHI", 5, 0, 8, 1), V13),      # a 1.4 switch without a bitmap: 1.3
])
def test_the_version_is_the_highest_both_speak(jvm_port, hello, version):
    sw = Switch(jvm_port)
    try:
        sw.send(hello)
        sw.next()
        sw.expect(lambda x: of.msg(version, "FEATURES_REQUEST", x))
    finally:
        sw.close()


def test_a_switch_speaking_neither_version_gets_hello_failed_and_is_closed(jvm_port):
    sw = Switch(jvm_port)
    try:
        sw.send(struct.pack("!BBHI", 3, 0, 8, 1))                         # HELLO 1.2, no bitmap
        sw.next()                                                         # its HELLO
        err = sw.next()
        assert of.header(err)[:2] == (3, 1) and of.error(err) == (0, 0)  # HELLO_FAILED/INCOMPATIBLE
        assert sw.sock.recv(1) == b""                                     # then closed
    finally:
        sw.close()
