"""Reading a switch's flow tables over OpenFlow, the same way on both sides: a flow-stats
request for every table (1.0: OFPST_FLOW, match all, out_port NONE; 1.3: OFPMP_FLOW, table
ALL, out_port/out_group ANY), every reply part kept raw (parsed later with os-ken's parser).

- Open vSwitch: over the bridge's management socket (``/var/run/openvswitch/BR.mgmt``, what
  ``ovs-ofctl dump-flows`` uses); ``dump_unix``.
- The emulated network: as a second controller the engine connects to (its channels are equal:
  it is only read from, it sends nothing but the handshake and the request); ``Reader``.
"""

from __future__ import annotations

import socket
import threading
import time

from .. import openflow as of

V10, V13 = of.V10, of.V13
XID = 0x5EED                    # the flow-stats request's, which its reply parts carry


def flow_stats_request(v: int) -> bytes:
    return of.flow_stats_request(v, XID)


class _Conn:
    """One OpenFlow session, the controller's end, blocking with a short timeout."""

    def __init__(self, s: socket.socket, v: int):
        self.s, self.v, self.buf = s, v, b""
        self.dpid = None
        s.settimeout(0.05)

    def send(self, data: bytes) -> None:
        self.s.sendall(data)

    def recv_msgs(self) -> list:
        try:
            data = self.s.recv(65536)
        except socket.timeout:
            return []
        if not data:
            raise ConnectionError("closed")
        out, self.buf = of.split(self.buf + data)
        for m in out:
            name = of.name_of(m)
            if name == "ECHO_REQUEST":
                self.send(of.echo_reply(m))
            elif name == "FEATURES_REPLY" and len(m) >= 16:
                self.dpid = of.dpid_of(m)
        return out

    def handshake(self, timeout: float = 5.0) -> None:
        self.send(of.hello(self.v, 1) + of.msg(self.v, "FEATURES_REQUEST", 2))
        end = time.monotonic() + timeout
        while self.dpid is None and time.monotonic() < end:
            self.recv_msgs()

    def dump(self, timeout: float = 5.0) -> list:
        """The raw flow-stats reply parts."""
        self.send(flow_stats_request(self.v))
        parts, end = [], time.monotonic() + timeout
        while time.monotonic() < end:
            for m in self.recv_msgs():
                if of.name_of(m) in ("STATS_REPLY", "MULTIPART_REPLY") and of.xid_of(m) == XID:
                    parts.append(m)
                    if not of.more_follows(m):
                        return parts
        raise TimeoutError("no complete flow-stats reply")


def dump_unix(bridge: str, v: int, rundir: str = "/var/run/openvswitch") -> list:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(f"{rundir}/{bridge}.mgmt")
        c = _Conn(s, v)
        c.send(of.hello(v, 1))
        return c.dump()
    finally:
        s.close()


class Reader:
    """A listening second controller; ``dump()`` reads every connected switch's tables:
    {dpid: [raw reply parts]}."""

    def __init__(self, v: int):
        self.v = v
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.1)
        self._conns: list = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._accept, daemon=True)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self._sock.getsockname()[1]}"

    def __enter__(self) -> "Reader":
        self._t.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._t.join(timeout=5)
        with self._lock:
            for c in self._conns:
                c.s.close()
        self._sock.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                s, _ = self._sock.accept()
            except (socket.timeout, OSError):
                with self._lock:
                    for c in self._conns:
                        try:
                            c.recv_msgs()                # keep echo answered between dumps
                        except OSError:
                            pass
                continue
            c = _Conn(s, self.v)
            try:
                c.handshake()
            except OSError:
                s.close()
                continue
            with self._lock:
                self._conns.append(c)

    def dump(self) -> dict:
        with self._lock:
            return {c.dpid: c.dump() for c in self._conns if c.dpid is not None}
