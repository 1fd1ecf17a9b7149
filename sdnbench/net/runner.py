"""``run_net(params) -> Result``: one network experiment, as the campaign runner and
``sdnbench net run`` call it.

One controller for the whole call; a freshly built network for every repetition, so each one
starts with empty flow tables and a first packet that really is the first. Within a repetition
the first-packet measurement runs first (it needs flows nobody has used yet), then ping, TCP,
UDP and D-ITG, each over the selected host pairs.

Parameters (all optional except ``topo``)::

    topo: "star,10,4"                 controller: "osken:learning" | "standalone" | any launch spec
    link: "fast-ethernet"             protocols: "OpenFlow13"      datapath: "auto"   switch: "ovs"
    pairs: "first-last" | "per-switch" | "all" | "h1-h4,h2-h3"      reps: 1
    measurements: ["ping", "tcp", "udp", "ditg", "first-packet"]
    ping: {sizes: [64, ...], count: 10, interval: 0.2}
    tcp: {duration: 5, interval: 1, window: "1024K", parallel: 1, reverse: false}
    udp: {duration: 5, interval: 1, rate: "50M", length: 1470}
    ditg: {protocol: "UDP", sizes: [512], rate: 100, duration_ms: 5000, meter: "rttm",
           interval_ms: 1000, log_dir: null}
    first_packet: {count: 20, interval: 0.1}

A measurement that fails marks the result ``failed`` with its error and keeps the samples taken
so far; the network is taken down either way. ``Interrupted`` (SIGINT/SIGTERM) propagates after
clean-up.
"""

from __future__ import annotations

import contextlib
import traceback
from pathlib import Path
from typing import Callable, Optional

from .. import doctor
from ..controllers import launch
from ..controllers.negotiation import mismatch, negotiate
from ..errors import UserError
from ..result import Result
from . import ditg, first_packet, iperf, ping
from .backend import MininetNetwork
from .backends.base import open_backend
from .links import PROFILE_NOTES, parse_link
from .pairs import select_pairs
from .topology import parse_topology  # noqa: F401 (imported from here by others)

from .params import MEASUREMENTS, STANDALONE, NetParamsError, check as check_params  # noqa: F401


def normalize(params: dict) -> dict:
    """Defaults filled in and every field checked (``net.params``), before anything starts."""
    try:
        return check_params(params, legacy=True)    # cells stored before `of` still run
    except NetParamsError as e:
        raise UserError(f"net run: {e}")


def _tool_versions(measurements: list) -> dict:
    names = {"ping": ["ping"], "tcp": ["iperf3"], "udp": ["iperf3"], "ditg": ["ditg"],
             "first-packet": ["tcpdump", "ping"]}
    wanted = ["mininet", "ethtool"] + [t for m in measurements for t in names[m]]
    checks = doctor.require(*dict.fromkeys(wanted))
    return {name: c.data.get("version") for name, c in checks.items()}


@contextlib.contextmanager
def _controller(spec: str, of: str, log_dir: Optional[Path], port: Optional[int] = None):
    if spec in STANDALONE:
        yield None
        return
    # the controller app for the highest version offered; the switches negotiate down to it
    with launch(spec, of_version=of.split(",")[-1], log_dir=log_dir, port=port) as ctl:
        yield ctl


def run_net(params: dict, progress: Callable[[str], None] = lambda s: None) -> Result:
    params = dict(params)
    backend = open_backend(params.pop("backend", None))   # mininet | ssh:INVENTORY | cluster:SERVERS
    p = normalize(params)
    topo = backend.topology(p)
    link = parse_link(p.get("link")) if p.get("link") else None
    if link:
        topo = topo.with_link_params(link)
    pairs = select_pairs(topo, p["pairs"])
    result = Result(kind="net", benchmark="+".join(p["measurements"]), params=p,
                    topology=topo.to_dict())
    for prof in {l.params.profile for l in topo.links if l.params.profile}:
        if prof in PROFILE_NOTES:
            result.notes.append(PROFILE_NOTES[prof])
    if backend.name == "mininet":
        result.versions.update(_tool_versions(p["measurements"]))
    else:
        result.params["backend"] = getattr(backend, "spec", None) or f"ssh:{backend.inventory.path}"
    result.counters["pairs"] = len(pairs)
    # Refuse what this machine cannot build before a controller is even started.
    backend.preflight(topo, p)
    with _controller(p["controller"], p["of"], p.get("log_dir"), backend.controller_port()) as ctl:
        result.controller = ctl.info if ctl else {"spec": "standalone", "name": "standalone",
                                                  "version": None, "app": None}
        sampler_cm = ctl.sample_resources(0.5) if ctl and ctl.pid else contextlib.nullcontext()
        with sampler_cm as sampler:
            try:
                for rep in range(p["reps"]):
                    _one_rep(p, topo, pairs, ctl, rep, result, progress, backend)
            except UserError as e:
                result.finish("failed", str(e))
            except Exception as e:
                traceback.print_exc()
                result.finish("failed", f"internal error: {type(e).__name__}: {e}")
        if sampler is not None:
            result.resources += sampler.series()
    if result.finished is None:
        result.finish("ok")
    return result


def _one_rep(p: dict, topo, pairs: list, ctl, rep: int, result: Result,
             progress: Callable[[str], None], backend=None) -> None:
    address = (ctl.host, ctl.port) if ctl else None
    tag = f"rep {rep + 1}/{p['reps']}"
    progress(f"{tag}: starting {topo.summary()}")
    with _network(topo, address, p, backend) as net:
        if rep == 0:
            result.topology = net.describe()
            result.versions["ovs"] = net.info.get("ovs_version")
            if net.info.get("loss_backend") == "nftables":
                result.notes.append("link loss is emulated with nftables (numgen random) on each "
                                    "sending interface: this kernel has no netem")
        for note in net.notes:
            if note not in result.notes:
                result.notes.append(note)
        if address and rep == 0:
            neg = negotiated_version(address, p["of"])
            if neg:
                result.params["of_negotiated"] = neg
        if ctl and topo.has_loop() and rep == 0:
            result.notes.append("the topology has loops: a plain learning-switch controller floods "
                                "broadcasts around them; use a loop-aware controller")
        step = lambda s: progress(f"{tag}: {s}")   # noqa: E731
        for m in p["measurements"]:
            _measure(m, p, net, pairs, rep, result, step)
            if ctl:
                ctl.check_alive()


@contextlib.contextmanager
def _network(topo, address, p: dict, backend=None):
    """The Mininet network of one repetition; when its switches do not connect, the line names
    the cause a probe HELLO finds (a controller that speaks none of the offered versions)."""
    net = (backend.network(topo, address, p) if backend else
           MininetNetwork(topo, controller=address, protocols=p["protocols"],
                          datapath=p["datapath"], switch=p["switch"]))
    try:
        net.__enter__()
    except UserError as e:
        cause = version_mismatch(address, p["of"]) if address and "to connect" in str(e) else None
        raise UserError(f"{e}: {cause}" if cause else str(e)) from None
    try:
        yield net
    except BaseException:
        net.__exit__(*__import__("sys").exc_info())
        raise
    net.__exit__(None, None, None)


def negotiated_version(address: tuple, of: str) -> Optional[str]:
    """The version the switches use with this controller, found as they find it
    (``controllers.negotiation.negotiate``). None if nothing answers or none fits."""
    return negotiate(address[0], address[1], of.split(","))[0]


def version_mismatch(address: tuple, of: str) -> Optional[str]:
    """Say HELLO to the controller with the highest offered version; name the mismatch if its
    answer is a version the switches were not allowed to use (``controllers.negotiation``)."""
    return mismatch(address[0], address[1], of)


def _measure(m: str, p: dict, net, pairs: list, rep: int, result: Result, step) -> None:
    if m == "first-packet":
        fp = p["first_packet"]
        first_packet.measure_first_packet(net, result, pairs, int(fp["count"]), float(fp["interval"]),
                                          rep, step)
    elif m == "ping":
        pg = p["ping"]
        ping.measure_ping(net, result, pairs, [int(s) for s in pg["sizes"]], int(pg["count"]),
                          float(pg["interval"]), rep, step)
    elif m in ("tcp", "udp"):
        o = p[m]
        opts = iperf.IperfOptions(duration=float(o["duration"]), interval=float(o["interval"]),
                                  window=o.get("window"), parallel=int(o.get("parallel", 1)),
                                  reverse=bool(o.get("reverse", False)),
                                  udp_rate=str(o.get("rate", "50M")), udp_length=o.get("length"))
        iperf.measure_iperf(net, result, pairs, opts, m == "udp", rep, step)
    elif m == "ditg":
        d = p["ditg"]
        for size in d["sizes"]:
            opts = ditg.DitgOptions(protocol=str(d["protocol"]).upper(), size=int(size),
                                    rate=int(d["rate"]), duration_ms=int(d["duration_ms"]),
                                    meter=str(d["meter"]), interval_ms=int(d["interval_ms"]),
                                    log_dir=d.get("log_dir"))
            ditg.measure_ditg(net, result, pairs, opts, rep, net.workdir, step)
