"""One run of one side: a controller launched fresh, tcpdump on its port, the network
(Mininet + Open vSwitch, userspace datapath; or the engine in network mode), the stimulus on
the shared timeline (``stimuli.py``), then the flow tables read over OpenFlow
(``flowdump.py``) and everything stopped. Returns the raw record: captured messages and flow
reply parts, parsed by os-ken's parser (``parse.py``)."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..discovery.engine_run import EngineRun
from ..discovery.setup import engine_params
from ..engine.params import config
from ..engine.result_types import engine_result
from ..net.backends.mininet_network import MininetNetwork
from ..net.topology import ENGINE_MAX_LINKS, parse_topology
from ..tls import certs
from . import clock, flowdump, stimuli
from .capture import Capture, messages
from .control import Managed
from .parse import parse_all
from .tlstap import TlsTap

VERSIONS = {"1.0": flowdump.V10, "1.3": flowdump.V13}
PROTOCOLS = {"1.0": "OpenFlow10", "1.3": "OpenFlow13"}


@dataclass
class Record:
    side: str                      # "ovs" or "engine"
    msgs: list                     # [(t, conn, to_controller, os-ken dict, raw)]
    flows: dict                    # {dpid: [os-ken dict of each reply part]}
    notes: list = field(default_factory=list)
    ofctl: dict = field(default_factory=dict)   # OVS: dpid -> ovs-ofctl dump-flows text
    t_end: float = 0.0             # wall clock of the flow dump: later messages are teardown
    t_from: float = 0.0            # wall clock where the compared window starts (0: the start)
    t_handshake: float = 0.0       # capture time of the last switch's handshake: the timeline's 0
    t_stimulus: Optional[float] = None   # when the stimulus began (``clock.py``; None: none seen)
    ready_s: float = 0.0           # the harness ready for the stimulus, seconds after the handshake
    controller: str = ""           # the controller's name and version as its launch reported them


HANDSHAKE_TIMEOUT_S = 30.0


def _handshake(cap, n: int, what: str, alive=lambda: True, timeout: float = HANDSHAKE_TIMEOUT_S) -> float:
    """The capture time (wall clock) of the last of ``n`` switches' handshake
    (``clock.handshake_at``), read from the capture as it grows."""
    deadline = time.monotonic() + timeout
    while True:
        t = clock.handshake_at(cap.so_far(), n)
        if t is not None:
            return t
        if not alive() or time.monotonic() > deadline:
            raise RuntimeError(f"{what}: no FEATURES_REPLY of all {n} switches captured within "
                               f"{timeout:.0f} s" + ("" if alive() else " (it exited)"))
        time.sleep(0.02)


class _Network(MininetNetwork):
    """Mininet + Open vSwitch whose switches count as connected when the capture holds every
    switch's FEATURES_REPLY (``t_handshake``), not when Open vSwitch's database says so: OVS
    writes a controller's ``is_connected`` there up to 5 s after the handshake (measured here:
    wait_connected returned 5.0 s after it), which was the clocks' old asymmetry."""

    def __init__(self, topology, cap: Capture, **kw):
        super().__init__(topology, **kw)
        self.cap, self.t_handshake = cap, 0.0

    def wait_connected(self, timeout: float) -> None:
        self.t_handshake = _handshake(self.cap, len(self.topology.switches), "Open vSwitch", timeout=timeout)


def _monotonic(t_wall: float) -> float:
    """A capture time (wall clock) on the monotonic clock the timeline and the senders use."""
    return t_wall - time.time() + time.monotonic()


def _ready(t0: float, stimulus: str, what: str) -> float:
    """Seconds from the handshake to now, when the harness is ready; a stimulus (the flow dump,
    for ``connect``) already due is one line (the cell is not run), never a shifted timeline."""
    ready = time.monotonic() - t0
    due = stimuli.end_s(stimulus) if stimulus == "connect" else stimuli.SETTLE_S - stimuli.LEAD_S
    if ready > due:
        raise RuntimeError(f"{what} was ready {ready:.1f} s after the switches' handshake, too late for the "
                           f"timeline (due at {due:g} s; docs/conformance.md, \"The stimulus clock\")")
    return round(ready, 3)


def _sleep_until(t0: float, at: float) -> None:
    time.sleep(max(0.0, t0 + at - time.monotonic()))


def _quiet_hosts(net, topo) -> None:
    """The hosts' own IPv4 output dropped and ARP off: only the stimulus' raw frames leave them."""
    for h in topo.hosts:
        intf = net.host_intf(h.name)
        script = (f"ip link set dev {intf} arp off && nft add table ip sdnbench_quiet && "
                  "nft add chain ip sdnbench_quiet out '{ type filter hook output priority 0; policy drop; }'")
        r = net.run_in(h.name, ["sh", "-c", script], timeout=10)
        if r.returncode != 0:
            raise RuntimeError(f"quieting host {h.name}: {r.stderr.strip()}")


def _send_at(net, jobs: list) -> None:
    """Each job (host, start, gap, frames) sent by its own sender, all running at once, each
    frame at its absolute time (``stimuli.SENDER``); returns when every sender is done."""
    results: dict = {}

    def one(host, start, gap, frames):
        results[host] = net.run_in(host, ["python3", "-c", stimuli.SENDER, net.host_intf(host), repr(start),
                                          repr(gap), *(f.hex() for f in frames)], timeout=start - time.monotonic() + 10)
    threads = [threading.Thread(target=one, args=job, daemon=True) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for host, *_ in jobs:
        r = results.get(host)
        if r is None or r.returncode == stimuli.LATE_EXIT:
            raise RuntimeError(f"the frame sender on {host} started after its first frame was due")
        if r.returncode != 0:
            raise RuntimeError(f"sending frames from {host}: {r.stderr.strip()[-200:]}")


def _ovs_stimulus(net, topo, stimulus: str, t0: float) -> None:
    at = t0 + stimuli.SETTLE_S
    if stimulus == "frames":
        hosts = [h.name for h in topo.hosts][:2]
        _send_at(net, [(hosts[src - 1], at + k * stimuli.PAIR_GAP_S, stimuli.FRAME_GAP_S,
                        [stimuli.stream_frame(src, dst, k, seq) for seq in range(stimuli.FRAMES)])
                       for k, (src, dst) in enumerate(((1, 2), (2, 1)))])
    elif stimulus == "hosts":
        # h1 then h2, one frame each, 50 ms apart: in that order at the controller
        _send_at(net, [(h.name, at + 0.05 * (i - 1), 0.0, [stimuli.announce_frame(i)])
                       for i, h in enumerate(topo.hosts[:2], start=1)])
    elif stimulus == "link":
        _sleep_until(t0, stimuli.SETTLE_S)
        a, b = _first_switch_link(topo)
        for up in (False, True):
            for sw, peer in ((a, b), (b, a)):
                intf = net.port_towards(sw, peer).intf
                subprocess.run(["ip", "link", "set", "dev", intf, "up" if up else "down"], check=True)
            if not up:
                _sleep_until(t0, stimuli.SETTLE_S + stimuli.LINK_DOWN_S)


def _controller_stimulus(m: Managed, stimulus: str, t0: float) -> tuple:
    """``restart`` and ``echo-silence``, the same on both sides: (the wall clock where the
    compared window starts, the wall clock of the signal); (0.0, None) for the other stimuli,
    which leave the controller alone."""
    if stimulus not in clock.CONTROLLER_STIMULI:
        return 0.0, None
    _sleep_until(t0, stimuli.SETTLE_S)
    t_signal = time.time()
    if stimulus == "restart":
        return m.restart(stimuli.RESTART_PAUSE_S), t_signal
    return m.silence(stimuli.SILENCE_S), t_signal


def _stimulus_at(msgs: list, stimulus: str, t_handshake: float, t_end: float,
                 t_signal: Optional[float]) -> Optional[float]:
    if stimulus in clock.CONTROLLER_STIMULI:
        return t_signal
    return clock.stimulus_at(msgs, stimulus, t_handshake, t_end)


def _ovs_keepalive(net, topo) -> None:
    """Every bridge's controller probes after ``OVS_INACTIVITY_PROBE_MS`` of silence (OVS's
    default, written down so that it is the same as the engine's ``echo_interval_ms``)."""
    for s in topo.switches:
        br = net.bridge(s.name)
        uuid = subprocess.run(["ovs-vsctl", "get", "bridge", br, "controller"], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip().strip("[]")
        subprocess.run(["ovs-vsctl", "set", "controller", uuid,
                        f"inactivity_probe={stimuli.OVS_INACTIVITY_PROBE_MS}"], check=True, timeout=10)


def _first_switch_link(topo):
    for l in topo.links:
        if topo.is_switch(l.a) and topo.is_switch(l.b):
            return l.a, l.b
    raise ValueError("the topology has no switch-to-switch link")


@contextlib.contextmanager
def _no_ipv6_on_new_interfaces():
    """New interfaces of the root namespace (the switches' veth ends) without IPv6 while the
    network is built: otherwise the kernel's neighbour discovery on them reaches the bridges as
    frames no stimulus sent. The old value is put back at once."""
    key = Path("/proc/sys/net/ipv6/conf/default/disable_ipv6")
    old = key.read_text().strip() if key.exists() else None
    try:
        if old is not None:
            key.write_text("1")
        yield
    finally:
        if old is not None:
            key.write_text(old)


def _capture_notes(cap, gaps: list) -> list:
    notes = [f"capture: {cap.dropped()} packets dropped by the kernel"] if cap.dropped() else []
    return notes + [f"capture: conn {c} {'to' if to else 'from'} the controller picked up after a gap"
                    for c, to in gaps]


@dataclass(frozen=True)
class Channel:
    """Where the switches connect (``host``, ``port``), with which files (None: plain TCP), and
    the TCP port whose capture holds the OpenFlow messages in plain."""
    host: str
    port: int
    files: object
    capture_port: int

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"


@contextlib.contextmanager
def channel(ctl):
    """The controller's channel as the harness reads it. Plain TCP: the controller's own port.
    TLS: through a TLS tap (``tlstap.py``) that presents sdnbench's controller certificate to the
    switches and the switches' files to the controller, its middle hop captured in plain; both
    sides of a cell go through the same kind of tap."""
    if not ctl.tls:
        yield Channel(ctl.host, ctl.port, None, ctl.port)
        return
    own = certs.ensure()
    with TlsTap((ctl.host, ctl.port), own.controller, ctl.switch_tls) as tap:
        yield Channel("127.0.0.1", tap.port, own.switch, tap.plain_port)


def _who(m: Managed) -> str:
    """The controller's name and version (``LaunchPlan.info``): what a run of it is comparable by."""
    info = getattr(m.ctl, "info", None) or {}
    return f"{info.get('name') or m.spec} {info.get('version') or 'unknown'}"


def run_ovs(spec: str, version: str, stimulus: str, topo_spec: str, work: Path) -> Record:
    topo = parse_topology(topo_spec, 1000, ENGINE_MAX_LINKS)
    v = VERSIONS[version]
    pcap = work / f"ovs-{stimulus}.pcap"
    flows, ofctl = {}, {}
    with Managed(spec, version, topo) as m:
        who = _who(m)
        ctl = m.ctl
        with channel(ctl) as ch, Capture(ch.capture_port, pcap) as cap:
            net = _Network(topo, cap, controller=(ch.host, ch.port), protocols=PROTOCOLS[version], datapath="user")
            net.tls = ch.files             # ssl: to the tap for a TLS spec
            with _no_ipv6_on_new_interfaces():
                net.__enter__()
            with contextlib.ExitStack() as stack:
                stack.push(net.__exit__)
                t_hs = net.t_handshake
                t0 = _monotonic(t_hs)
                _ovs_keepalive(net, topo)
                _quiet_hosts(net, topo)
                ready = _ready(t0, stimulus, "Open vSwitch's network")
                _ovs_stimulus(net, topo, stimulus, t0)
                t_from, t_signal = _controller_stimulus(m, stimulus, t0)
                _sleep_until(t0, stimuli.end_s(stimulus))
                t_end = time.time()
                for s in topo.switches:
                    flows[s.dpid] = flowdump.dump_unix(net.bridge(s.name), v)
                    ofctl[s.dpid] = subprocess.run(["ovs-ofctl", "-O", PROTOCOLS[version], "dump-flows", net.bridge(s.name)],
                                                   capture_output=True, text=True, timeout=10).stdout
        gaps: list = []
        msgs = messages(pcap.read_bytes(), ch.capture_port, gaps)
    return Record("ovs", *parse_all(msgs, flows), controller=who, ofctl=ofctl, t_end=t_end, t_from=t_from,
                  notes=_capture_notes(cap, gaps), t_handshake=t_hs, ready_s=ready,
                  t_stimulus=_stimulus_at(msgs, stimulus, t_hs, t_end, t_signal))


def run_engine(spec: str, version: str, stimulus: str, topo_spec: str, work: Path) -> Record:
    topo = parse_topology(topo_spec, 1000, ENGINE_MAX_LINKS)
    v = VERSIONS[version]
    pcap = work / f"engine-{stimulus}.pcap"
    end = stimuli.end_s(stimulus)
    with Managed(spec, version, topo) as m:
        who = _who(m)
        ctl = m.ctl
        with channel(ctl) as ch, Capture(ch.capture_port, pcap) as cap, flowdump.Reader(v) as reader, \
                _reader_channel(ch, reader) as reader_address:
            address = ch.target if ch.files else ctl.target
            p = engine_params(topo_spec, f"{'tls' if ch.files else 'tcp'}:{address}", version, end + 5, workers=1)
            p["network"] = stimuli.engine_network(stimulus, p["network"])
            p.update(stimuli.engine_params(stimulus))
            cfg = config(p, address)
            cfg["controllers"] = [address, reader_address]
            with EngineRun(cfg) as run:
                # its own timeline starts when all its switches are up (``settle_ms`` 0)
                t_hs = _handshake(cap, len(topo.switches), "the engine", run.running)
                t0 = _monotonic(t_hs)
                ready = _ready(t0, stimulus, "the engine")
                t_from, t_signal = _controller_stimulus(m, stimulus, t0)
                _sleep_until(t0, end)
                t_end = time.time()
                flows = reader.dump()
                doc = run.stop()
        gaps: list = []
        msgs = messages(pcap.read_bytes(), ch.capture_port, gaps)
    rec = Record("engine", *parse_all(msgs, flows), controller=who, t_end=t_end, t_from=t_from, notes=_capture_notes(cap, gaps),
                 t_handshake=t_hs, ready_s=ready, t_stimulus=_stimulus_at(msgs, stimulus, t_hs, t_end, t_signal))
    status = engine_result(doc).status
    if status not in ("ok", "interrupted"):
        rec.notes.append(f"engine status {status}")
    return rec


@contextlib.contextmanager
def _reader_channel(ch: Channel, reader):
    """The flow reader's address for the engine: as it is over TCP; over TLS, behind a tap of its
    own (the engine's switches speak TLS to every controller they are given; the reader is plain)."""
    if ch.files is None:
        yield reader.address
        return
    host, port = reader.address.rsplit(":", 1)
    with TlsTap((host, int(port)), certs.ensure().controller, None) as tap:
        yield f"127.0.0.1:{tap.port}"


def run_pair(spec: str, version: str, stimulus: str, topo_spec: str) -> tuple:
    with tempfile.TemporaryDirectory(prefix="sdnbench-conformance-") as d:
        work = Path(d)
        return run_ovs(spec, version, stimulus, topo_spec, work), run_engine(spec, version, stimulus, topo_spec, work)
