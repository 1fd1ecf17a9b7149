"""``sdnbench net``: network experiments on Mininet + Open vSwitch.

    sdnbench net run --topo star,10,4 --controller osken:learning --ping-sizes 64,128,...,8192 \\
        --pairs per-switch --tcp --udp --reps 3 --json out.json
    sdnbench net topo tree,2,2          # what a topology spec builds
    sdnbench net clean                  # remove what dead sdnbench runs left (never `mn -c`)
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from ..errors import UserError
from ..output import print_json, table


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
    p.set_defaults(func=lambda args: _help(p))


def _help(p) -> int:
    p.print_help()
    return 1


def _register_run(nsub) -> None:
    r = nsub.add_parser("run", help="build a network, measure, tear it down",
                        description="Build the topology, attach the controller, run the chosen "
                                    "measurements over the chosen host pairs, keep every raw sample.")
    r.add_argument("--topo", required=True, help="topology spec (see `sdnbench net topo --help`)")
    r.add_argument("--controller", default="osken:learning",
                   help="controller spec (osken:learning, ryu:APP, faucet:CFG, ovs-testcontroller, "
                        "tcp:HOST:PORT) or `standalone` (no controller; default: %(default)s)")
    r.add_argument("--link", help="link profile (fast-ethernet, gigabit, wifi-g) and/or "
                                  "bw=MBIT,loss=PCT,queue=PKTS,delay=MS,jitter=MS")
    r.add_argument("--protocols", default="OpenFlow13", help="OpenFlow version(s) of the switches")
    r.add_argument("--datapath", default="auto", choices=("auto", "kernel", "user"))
    r.add_argument("--switch", default="ovs", choices=("ovs", "user"),
                   help="ovs, or user for Mininet's CPqD user switch (ofsoftswitch13)")
    r.add_argument("--pairs", default="first-last", help="first-last | per-switch | all | h1-h4,h2-h3")
    r.add_argument("--reps", type=int, default=1, help="repetitions, each on a fresh network")
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
    r.add_argument("--json", metavar="FILE", help="write the result as JSON to FILE (- for stdout)")
    r.add_argument("--store", metavar="DIR", help="also save the result into the results store DIR")
    r.set_defaults(func=_run)


def params_from_args(args) -> dict:
    ms = [m for m, on in (("first-packet", args.first_packet), ("ping", args.ping or args.ping_sizes),
                          ("tcp", args.tcp), ("udp", args.udp), ("ditg", args.ditg)) if on]
    from ..net.ping import parse_sizes
    return {
        "topo": args.topo, "controller": args.controller, "link": args.link,
        "protocols": args.protocols, "datapath": args.datapath, "switch": args.switch,
        "pairs": args.pairs, "reps": args.reps, "measurements": ms or ["ping"],
        "ping": {"sizes": parse_sizes(args.ping_sizes or "default"), "count": args.ping_count,
                 "interval": args.ping_interval},
        "tcp": {"duration": args.duration, "interval": args.interval, "window": args.window,
                "parallel": args.parallel, "reverse": args.reverse},
        "udp": {"duration": args.duration, "interval": args.interval, "rate": args.udp_rate,
                "length": args.udp_length, "reverse": args.reverse},
        "ditg": {"protocol": args.ditg_protocol, "rate": args.ditg_rate,
                 "sizes": [int(s) for s in args.ditg_sizes.split(",") if s.strip()],
                 "duration_ms": int(args.ditg_duration * 1000), "meter": args.ditg_meter,
                 "log_dir": args.ditg_log},
        "first_packet": {"count": args.fp_count, "interval": 0.1},
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


def _run(args) -> int:
    from ..net import summary
    from ..net.runner import run_net

    try:
        params = params_from_args(args)
    except ValueError as e:
        raise UserError(f"net run: {e}")
    if args.store:
        _check_store(args.store)
    progress = Progress()
    try:
        result = run_net(params, progress=progress)
    finally:
        progress.done()
    if args.json == "-":
        print_json(result.to_dict())
    elif args.json:
        result.write_json(Path(args.json))
        print(f"wrote {args.json}", file=sys.stderr)
    if args.store:
        from ..store import Store
        with Store(args.store) as st:
            rid = st.save_result(result)
        print(f"saved as result {rid} in {args.store}", file=sys.stderr)
    out = sys.stderr if args.json == "-" else sys.stdout
    print(f"{result.topology.get('spec') if result.topology else params['topo']} with "
          f"{(result.controller or {}).get('spec')}: {result.benchmark}, {params['reps']} rep(s)", file=out)
    rows = summary.rows(result)
    if rows:
        print(table(summary.HEADERS, rows), file=out)
    for note in result.notes:
        print(f"note: {note}", file=out)
    if result.status != "ok":
        raise UserError(f"net run failed: {result.error}"
                        + (" (partial samples were saved)" if args.json or args.store else ""))
    return 0


def _check_store(directory: str) -> None:
    try:
        import sdnbench.store  # noqa: F401
    except ImportError:
        raise UserError("--store: the results store is not part of this install")


def _topo(args) -> int:
    from ..net.links import parse_link
    from ..net.topology import parse_topology

    topo = parse_topology(args.spec)
    if args.link:
        topo = topo.with_link_params(parse_link(args.link))
    if args.json:
        print_json(topo.to_dict())
        return 0
    print(topo.summary() + (" (has loops)" if topo.has_loop() else ""))
    rows = [(s.name, f"{s.dpid:#x}", s.role or "-", ", ".join(topo.hosts_on(s.name)) or "-")
            for s in topo.switches]
    print(table(("switch", "dpid", "role", "hosts"), rows))
    print(table(("link", "params"), [(f"{l.a}-{l.b}", l.params.describe()) for l in topo.links]))
    return 0


def _clean(args) -> int:
    from ..net import stale

    if args.dry_run:
        found = stale.survey()
        for lo in found.values():
            state = f"in use by pid {lo.claimed_by}" if lo.claimed_by else "leftover"
            if not lo.empty() or lo.claimed_by:
                print(f"{lo.describe()} [{state}]")
        if not any(not lo.empty() for lo in found.values()):
            print("nothing to clean")
        return 0
    removed, live = stale.clean()
    for lo in removed:
        print(f"removed {lo.describe()}")
    for lo in live:
        print(f"kept {lo.prefix}: in use by pid {lo.claimed_by}")
    if not removed:
        print("nothing to clean")
    return 0
