"""``sdnbench net``: network experiments on Mininet + Open vSwitch.

    sdnbench net run --topo star,10,4 --controller osken:learning --ping-sizes 64,128,...,8192 \\
        --pairs per-switch --tcp --udp --reps 3 -o out.json --store results
    sdnbench net topo tree,2,2          # what a topology spec builds
    sdnbench net clean                  # remove what dead sdnbench runs left (never `mn -c`)
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from ..outputs import Outputs
from .. import procreg
from ..controllers.spec import DEFAULT_SPEC
from ..errors import UserError
from ..net.links import parse_link
from ..net.params import DEFAULT_OF, check
from ..net.topology import parse_topology
from ..campaign.plan import one_benchmark
from ..formats import add_flags
from ..output import add_json_flag, add_renamed_flags, add_store_flag, check_writable, print_json, table
from ..robustness import netns
from ..store import Store
from . import netgap
from ._flags import add_tls_flags, spec_forms, tls_params
from ._results import MEASURED, run_trials


def register(sub) -> None:
    p = sub.add_parser("net", help="network experiments on Mininet + Open vSwitch",
                       description=__doc__)
    nsub = p.add_subparsers(dest="net_command", metavar="SUBCOMMAND")
    _register_run(nsub)
    t = nsub.add_parser("topo", help="show what a topology spec builds")
    t.add_argument("spec", help="single,N | linear,N[,H] | tree,D,F | star,S,H | leafspine,L,S,H | "
                                "FILE.yaml | FILE.py:NAME[,ARGS]")
    t.add_argument("--link", help="link profile or parameters, e.g. fast-ethernet or bw=100,loss=1")
    t.add_argument("--json", action="store_true", help="print the topology as JSON")
    t.set_defaults(func=_topo)
    c = nsub.add_parser("clean", help="remove leftovers of dead sdnbench network runs (only ours)")
    c.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    c.set_defaults(func=_clean)
    netgap.add_to(nsub)    # emulated-vs-real gap tables
    p.set_defaults(func=lambda args, outputs: _help(p))


def _help(p) -> int:
    p.print_help()
    return 1


def _register_run(nsub) -> None:
    r = nsub.add_parser("run", help="build a network, measure, tear it down",
                        description="Build the topology, attach the controller, run the chosen "
                                    "measurements over the chosen host pairs, keep every raw sample.")
    r.add_argument("--topo", required=True, help="topology spec (see `sdnbench net topo --help`)")
    r.add_argument("--controller", default=DEFAULT_SPEC,
                   help=f"controller spec ({spec_forms()}, ;tls on a managed one) or `standalone` "
                        "(no controller; default: %(default)s)")
    r.add_argument("--link", help="link profile (fast-ethernet, gigabit, wifi-g) and/or "
                                  "bw=MBIT,loss=PCT,queue=PKTS,delay=MS,jitter=MS")
    add_tls_flags(r)
    r.add_argument("--of", default=DEFAULT_OF, metavar="VERSIONS",
                   help="OpenFlow versions the switches offer; they negotiate with the controller "
                        "(default: %(default)s)")
    r.add_argument("--datapath", default="auto", choices=("auto", "kernel", "user"))
    r.add_argument("--switch", default="ovs", choices=("ovs", "user"),
                   help="ovs, or user for Mininet's CPqD user switch (ofsoftswitch13)")
    r.add_argument("--pairs", default="first-last", help="first-last | per-switch | all | h1-h4,h2-h3")
    r.add_argument("--reps", type=int, default=1, help="repetitions, each on a fresh network")
    r.add_argument("--backend", default="mininet", metavar="mininet|ssh:INVENTORY|cluster:SERVERS",
                   help="where the network is: Mininet here (default), the real hosts "
                        "and switch of an inventory file, reached over SSH, or Mininet's cluster "
                        "edition over the servers of a servers file")
    g = r.add_argument_group("ping")
    g.add_argument("--ping", action="store_true", help="ICMP RTT per payload size (default when no "
                                                       "other measurement is chosen)")
    g.add_argument("--ping-sizes", help="payload sizes, e.g. 64,128,...,8192 (default)")
    g.add_argument("--ping-count", type=int, default=10, help="echo requests per size and pair")
    g.add_argument("--ping-interval", type=float, default=0.2, help="seconds between requests")
    g = r.add_argument_group("iperf3")
    g.add_argument("--tcp", action="store_true", help="iperf3 TCP throughput")
    g.add_argument("--udp", action="store_true", help="iperf3 UDP throughput, jitter, loss")
    g.add_argument("--duration", type=float, default=5, help="seconds per iperf3 test")
    g.add_argument("--interval", type=float, default=1, help="iperf3 reporting interval (s)")
    g.add_argument("--window", help="TCP window (-w), e.g. 1024K")
    g.add_argument("--parallel", type=int, default=1, help="parallel TCP streams (-P)")
    g.add_argument("--reverse", action="store_true", help="server sends (-R)")
    g.add_argument("--udp-rate", default="50M", help="UDP target rate (-b)")
    g.add_argument("--udp-length", type=int, default=1470, help="UDP datagram length (-l)")
    g = r.add_argument_group("D-ITG")
    g.add_argument("--ditg", action="store_true", help="D-ITG delay, jitter, loss, bitrate")
    g.add_argument("--ditg-protocol", default="UDP", choices=("UDP", "TCP"))
    g.add_argument("--ditg-sizes", default="512", help="packet sizes, e.g. 128,256,512,1024")
    g.add_argument("--ditg-rate", type=int, default=100, help="packets per second (-C)")
    g.add_argument("--ditg-duration", type=float, default=5, help="seconds per flow")
    g.add_argument("--ditg-meter", default="rttm", choices=("rttm", "owdm"),
                   help="round-trip (rttm) or one-way delay")
    g.add_argument("--ditg-log", metavar="DIR", help="keep the per-packet logs in DIR")
    g = r.add_argument_group("first packet")
    g.add_argument("--first-packet", action="store_true",
                   help="per-switch service time of a flow's first packet vs the next ones")
    g.add_argument("--fp-count", type=int, default=20, help="packets per pair")
    add_json_flag(r)
    add_flags(r, MEASURED)
    add_store_flag(r, help="also save the result into the results store in DIR")
    add_renamed_flags(r, "--protocols", "--out")
    r.set_defaults(func=_run)


def params_from_args(args) -> dict:
    ms = [m for m, on in (("first-packet", args.first_packet), ("ping", args.ping or args.ping_sizes),
                          ("tcp", args.tcp), ("udp", args.udp), ("ditg", args.ditg)) if on]
    return {
        "topo": args.topo, "controller": args.controller, "link": args.link,
        "of": args.of, "datapath": args.datapath, "switch": args.switch,
        "pairs": args.pairs, "reps": args.reps, "measurements": ms or ["ping"],
        "ping": {"sizes": args.ping_sizes, "count": args.ping_count,
                 "interval": args.ping_interval},
        "tcp": {"duration": args.duration, "interval": args.interval, "window": args.window,
                "parallel": args.parallel, "reverse": args.reverse},
        "udp": {"duration": args.duration, "interval": args.interval, "rate": args.udp_rate,
                "length": args.udp_length, "reverse": args.reverse},
        "ditg": {"protocol": args.ditg_protocol, "rate": args.ditg_rate,
                 "sizes": args.ditg_sizes, "duration_ms": round(args.ditg_duration * 1000), "meter": args.ditg_meter,
                 "log_dir": args.ditg_log},
        "first_packet": {"count": args.fp_count, "interval": 0.1},
        **tls_params(args),
    }


class Progress:
    """One live line on a terminal (stderr), redrawn twice a second so the elapsed time moves
    during long steps; nothing when stderr is not a terminal."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()
        self.width = 0
        self.text = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self.tty:
            threading.Thread(target=self._tick, daemon=True).start()

    def __call__(self, text: str) -> None:
        self.text = text
        self._draw()

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            self._draw()

    def _draw(self) -> None:
        if not self.tty or not self.text or self._stop.is_set():
            return
        with self._lock:
            line = f"[{time.monotonic() - self.start:6.1f}s] {self.text}"
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = len(line)

    def done(self) -> None:
        self._stop.set()
        with self._lock:
            if self.tty and self.width:
                sys.stderr.write("\r" + " " * self.width + "\r")
                sys.stderr.flush()


def _run(args, outputs: Outputs) -> int:
    """The repetitions as a one-benchmark plan on the campaigns' executor (``_results.run_trials``):
    each repetition kept as it ends (``-o`` rewritten with the run so far, ``--store`` committed
    as one cell of the run); Ctrl-C/SIGTERM keeps what finished, as ``controller bench``."""
    from ..net import summary
    from ..net.runner import NetRun, merge

    params = check(params_from_args(args), flags=True)      # every problem, before anything starts
    if args.ditg_log:                 # made now: a directory that cannot be made loses no measurement
        try:
            Path(args.ditg_log).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UserError(f"--ditg-log {args.ditg_log}: cannot make it ({e.strerror})") from None
    if args.backend != "mininet":
        params["backend"] = args.backend
    if outputs.path:
        MEASURED.format_for(outputs.path, outputs.format)
        check_writable(outputs.path)
    if outputs.store:
        _open_store(outputs.store)
    progress = Progress()
    try:
        with NetRun(params, progress) as run:
            condition = {k: v for k, v in run.p.items() if k != "reps"}
            cells = one_benchmark("+".join(run.p["measurements"]), "net", condition, repetitions=run.p["reps"])
            reps = run_trials(outputs, cells, lambda cell: run.rep(cell.repetition), failure_ends=True,
                              quiet=lambda r: True, document=lambda rs: merge(rs, run.p).to_dict())
    finally:
        progress.done()
    result = merge(reps, run.p)
    if outputs.path and not outputs.rescued:
        print(f"wrote {outputs.path}", file=sys.stderr)
    out = sys.stderr if outputs.json else sys.stdout
    if outputs.json:
        print_json(result.to_dict())
    print(f"{result.topology.get('spec') if result.topology else params['topo']} with "
          f"{(result.controller or {}).get('spec')}: {result.benchmark}, {len(reps)} of {run.p['reps']} rep(s)",
          file=out)
    rows = summary.rows(result)
    if rows:
        print(table(summary.HEADERS, rows), file=out)
    for note in result.notes:
        print(f"note: {note}", file=out)
    return _verdict(result, bool(outputs.path or outputs.store))


def _verdict(result, saved: bool) -> int:
    """0 only when the run finished and measured something; otherwise 2 with one line."""
    measured = sum(1 for s in result.series for v in s.values if v is not None)
    if result.status != "ok":
        print(f"sdnbench: net run failed: {result.error}"
              + (" (the samples taken were saved)" if saved and measured else ""), file=sys.stderr)
        return 2
    if measured == 0:
        print("sdnbench: net run measured nothing (every sample was lost)", file=sys.stderr)
        return 2
    return 0


def _open_store(directory) -> None:
    """Open (or create) the store before anything is measured; one line if it cannot be."""
    with Store(directory):
        pass


def _topo(args, outputs: Outputs) -> int:
    topo = parse_topology(args.spec)
    if args.link:
        topo = topo.with_link_params(parse_link(args.link))
    if outputs.json:
        print_json(topo.to_dict())
        return 0
    print(topo.summary() + (" (has loops)" if topo.has_loop() else ""))
    rows = [(s.name, f"{s.dpid:#x}", s.role or "-", ", ".join(topo.hosts_on(s.name)) or "-")
            for s in topo.switches]
    print(table(("switch", "dpid", "role", "hosts"), rows))
    print(table(("link", "params"), [(f"{l.a}-{l.b}", l.params.describe()) for l in topo.links]))
    return 0


def _clean(args, outputs: Outputs) -> int:
    from ..net import stale

    orphans, dead = procreg.orphans()
    if args.dry_run:
        for what in netns.sweep_dead(dry_run=True):
            print(f"{what} [leftover]")
        found = stale.survey()
        for lo in found.values():
            state = f"in use by pid {lo.claimed_by}" if lo.claimed_by else "leftover"
            if not lo.empty() or lo.claimed_by:
                print(f"{lo.describe()} [{state}]")
        for o in orphans:
            print(f"{o.describe()} [leftover]")
        if not any(not lo.empty() for lo in found.values()) and not orphans:
            print("nothing to clean")
        return 0
    procreg.reap(orphans, dead)
    for o in orphans:
        print(f"stopped {o.describe()}")
    removed, live = stale.clean()
    swept = netns.sweep_dead()
    for what in swept:
        print(f"removed {what}")
    for lo in removed:
        print(f"removed {lo.describe()}")
    for lo in live:
        print(f"kept {lo.prefix}: in use by pid {lo.claimed_by}")
    if not removed and not orphans and not swept:
        print("nothing to clean")
    return 0
