"""``run_net(params) -> Result``: one network experiment, as the campaign runner calls it;
``NetRun`` the same one repetition at a time, as ``sdnbench net run`` keeps each as it ends.

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
clean-up, carrying the repetition cut short as its ``result``.
"""

from __future__ import annotations

import contextlib
import traceback
from pathlib import Path
from typing import Callable, Optional

from .. import doctor
from ..controllers import launch
from ..controllers.negotiation import mismatch, negotiate
from ..controllers.tlsfiles import switch_files
from ..errors import Interrupted, UserError
from ..result import Result, Series
from . import ditg, first_packet, iperf, ping
from .backends.mininet_network import MininetNetwork
from .backends.base import open_backend
from .links import PROFILE_NOTES, parse_link
from .pairs import select_pairs
from .topology import parse_topology  # noqa: F401 (imported from here by others)

from .params import MEASUREMENTS, STANDALONE, TLS_KEYS, NetParams, NetParamsError, check as check_params  # noqa: F401


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
def _controller(spec: str, of: str, log_dir: Optional[Path], port: Optional[int] = None, tls=None):
    if spec in STANDALONE:
        yield None
        return
    # the controller app for the highest version offered; the switches negotiate down to it
    with launch(spec, of_version=of.split(",")[-1], log_dir=log_dir, port=port, tls=tls) as ctl:
        yield ctl


def _switch_tls(p: dict):
    """The switches' TLS files the params name (``tls_ca``...; each left out: sdnbench's own),
    or None when none is named (a TLS spec then gets sdnbench's own set at launch)."""
    given = {k[4:]: p[k] for k in TLS_KEYS if p.get(k)}
    return switch_files(**given) if given else None


def run_net(params: dict, progress: Callable[[str], None] = lambda s: None) -> Result:
    """Every repetition of ``params`` (its ``reps``) as one Result, series labelled ``rep``; a
    failed repetition ends the run (the samples taken so far are kept)."""
    with NetRun(params, progress) as run:
        reps = []
        for rep in range(run.typed.reps):
            reps.append(run.rep(rep))
            if reps[-1].status != "ok":
                break
    return merge(reps, run.p)


class NetRun:
    """One network experiment, one repetition at a time: ``with NetRun(params) as run:
    run.rep(0) ... run.rep(N-1)``, each a Result of its own (``net run`` keeps each as it ends).
    The controller is launched once for the whole block and every repetition builds a fresh
    network, so each one starts with empty flow tables."""

    def __init__(self, params: dict, progress: Callable[[str], None] = lambda s: None):
        params = dict(params)
        self.backend = open_backend(params.pop("backend", None))   # mininet | ssh:INVENTORY | cluster:SERVERS
        self.p = normalize(params)                                  # what runs and what the Result records
        self.typed = NetParams.of_checked(self.p)                   # the same, typed (net.params.NetParams)
        self.progress = progress
        self._stack = contextlib.ExitStack()
        self._taken: dict = {}                                     # resource metric -> samples handed out
        self._seen: dict = {}                                      # what the first repetition learnt

    def __enter__(self) -> "NetRun":
        p, backend = self.p, self.backend
        topo = backend.topology(p)
        link = parse_link(p.get("link")) if p.get("link") else None
        self.topo = topo.with_link_params(link) if link else topo
        self.pairs = select_pairs(self.topo, p["pairs"])
        self.versions = _tool_versions(p["measurements"]) if backend.name == "mininet" else {}
        if backend.name != "mininet":
            p["backend"] = getattr(backend, "spec", None) or f"ssh:{backend.inventory.path}"
        # Refuse what this machine cannot build before a controller is even started.
        backend.preflight(self.topo, p)
        with self._stack as stack:
            self.ctl = stack.enter_context(_controller(p["controller"], p["of"], p.get("log_dir"),
                                                       backend.controller_port(), _switch_tls(p)))
            if self.ctl and self.ctl.tls and backend.name != "mininet":
                raise UserError(f"{p['controller']}: the {backend.name} backend's switches do not connect "
                                "over TLS yet; use the Mininet backend, or a plain TCP controller")
            self.sampler = (stack.enter_context(self.ctl.sample_resources(0.5)) if self.ctl and self.ctl.pid
                            else None)
            self._stack = stack.pop_all()
        return self

    def __exit__(self, *exc) -> None:
        self._stack.__exit__(*exc)

    def rep(self, rep: int) -> Result:
        """Repetition ``rep`` on a fresh network: its Result (series labelled ``rep``), failed
        with the reason when a measurement failed. ``Interrupted`` propagates carrying the
        repetition cut short (``result``), failed with what it measured so far."""
        p = self.p
        result = Result(kind="net", benchmark="+".join(p["measurements"]),    # the condition: no ``reps``
                        params={k: v for k, v in p.items() if k != "reps"}, topology=self.topo.to_dict(),
                        versions=dict(self.versions))
        result.notes += [PROFILE_NOTES[prof] for prof in {l.params.profile for l in self.topo.links
                                                          if l.params.profile} if prof in PROFILE_NOTES]
        result.counters["pairs"] = len(self.pairs)
        result.controller = self.ctl.info if self.ctl else {"spec": "standalone", "name": "standalone",
                                                            "version": None, "app": None}
        try:
            _one_rep(p, self.topo, self.pairs, self.ctl, rep, result, self.progress, self.backend, self._seen)
        except UserError as e:
            result.finish("failed", str(e))
        except Exception as e:
            traceback.print_exc()
            result.finish("failed", f"internal error: {type(e).__name__}: {e}")
        except Interrupted as e:
            e.result = self._ended(result).finish("failed", "interrupted: the repetition was cut short; "
                                                             "the samples it took are kept")
            raise
        return self._ended(result)

    def _ended(self, result: Result) -> Result:
        """``result`` with the controller's resource samples taken since the last repetition."""
        for s in self.sampler.series() if self.sampler else []:
            n = self._taken.get(s.metric, 0)
            self._taken[s.metric] = len(s.values)
            result.resources.append(Series(s.metric, s.unit, s.values[n:], s.labels, s.t[n:] if s.t else None))
        if result.finished is None:
            result.finish("ok")
        return result


def merge(reps: list, params: dict) -> Result:
    """The repetitions of one run as one Result (what ``net run -o`` writes): every series and
    resource sample, the notes once each; failed with the first failed repetition's reason."""
    first = reps[0]
    r = Result(kind="net", benchmark=first.benchmark, params=dict(params), topology=first.topology,
               controller=first.controller, versions=dict(first.versions), counters=dict(first.counters),
               started=first.started)
    resources: dict = {}
    for x in reps:
        r.series += x.series
        r.notes += [n for n in x.notes if n not in r.notes]
        r.versions.update(x.versions)
        r.params.update({k: v for k, v in x.params.items() if k not in params})
        for s in x.resources:
            into = resources.setdefault(s.metric, Series(s.metric, s.unit, [], dict(s.labels),
                                                         [] if s.t is not None else None))
            into.values += s.values
            into.t = into.t + s.t if into.t is not None and s.t is not None else into.t
    r.resources = list(resources.values())
    bad = next((x for x in reps if x.status != "ok"), None)
    r.finish("failed", bad.error) if bad else r.finish("ok")
    r.finished = reps[-1].finished
    return r


def _one_rep(p: dict, topo, pairs: list, ctl, rep: int, result: Result,
             progress: Callable[[str], None], backend=None, seen: Optional[dict] = None) -> None:
    """One repetition into ``result``; ``seen`` keeps what the first one learnt (the version
    the switches negotiate) for the next."""
    seen = {} if seen is None else seen
    address = (ctl.host, ctl.port) if ctl else None
    tls = ctl.switch_tls if ctl else None
    tag = f"rep {rep + 1}/{p['reps']}"
    progress(f"{tag}: starting {topo.summary()}")
    with _network(topo, address, p, backend, tls) as net:
        result.topology = net.describe()
        result.versions["ovs"] = net.info.get("ovs_version")
        if net.info.get("loss_backend") == "nftables":
            result.notes.append("link loss is emulated with nftables (numgen random) on each "
                                "sending interface: this kernel has no netem")
        for note in net.notes:
            if note not in result.notes:
                result.notes.append(note)
        if address:
            if "of" not in seen:
                seen["of"] = negotiated_version(address, p["of"], tls)
            if seen["of"]:
                result.params["of_negotiated"] = seen["of"]
        if ctl and topo.has_loop():
            result.notes.append("the topology has loops: a plain learning-switch controller floods "
                                "broadcasts around them; use a loop-aware controller")
        step = lambda s: progress(f"{tag}: {s}")   # noqa: E731
        for m in p["measurements"]:
            _measure(m, p, net, pairs, rep, result, step)
            if ctl:
                ctl.check_alive()


@contextlib.contextmanager
def _network(topo, address, p: dict, backend=None, tls=None):
    """The Mininet network of one repetition; when its switches do not connect, the line names
    the cause a probe HELLO finds (a controller that speaks none of the offered versions).
    ``tls``: the switches connect with ``ssl:`` and these files (``ovs_ssl``)."""
    net = (backend.network(topo, address, p) if backend else
           MininetNetwork(topo, controller=address, protocols=p["protocols"],
                          datapath=p["datapath"], switch=p["switch"]))
    net.tls = tls
    try:
        net.__enter__()
    except UserError as e:
        cause = version_mismatch(address, p["of"], tls) if address and "to connect" in str(e) else None
        raise UserError(f"{e}: {cause}" if cause else str(e)) from None
    try:
        yield net
    except BaseException:
        net.__exit__(*__import__("sys").exc_info())
        raise
    net.__exit__(None, None, None)


def negotiated_version(address: tuple, of: str, tls=None) -> Optional[str]:
    """The version the switches use with this controller, found as they find it
    (``controllers.negotiation.negotiate``, over TLS with ``tls``). None if nothing answers or none fits."""
    if tls is not None:
        try:
            return negotiate(address[0], address[1], of.split(","), tls=tls)[0]
        except UserError:            # an engine without TLS (TLS-CONTRACT.md section 3): not recorded
            return None
    return negotiate(address[0], address[1], of.split(","))[0]


def version_mismatch(address: tuple, of: str, tls=None) -> Optional[str]:
    """Say HELLO to the controller with the highest offered version; name the mismatch if its
    answer is a version the switches were not allowed to use (``controllers.negotiation``)."""
    return None if tls is not None else mismatch(address[0], address[1], of)


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
