"""Benchmark: bring-up plus tear-down of ``star,10,4`` (10 switches, 40 hosts) with sdnbench's
Mininet backend, against a plain Mininet script doing the same on this machine.

"The same" is: OVS bridges on the detected datapath (userspace here), standalone (no
controller), 40 host namespaces with addresses, checksum offload switched off on every host
interface (without it TCP/UDP stall on the userspace datapath), then everything stopped. The
plain script names its nodes with a claimed run prefix and explicit dpids, as it must when other
networks share the machine. The sdnbench side additionally runs its pre-flight checks (doctor),
disables IPv6 in the hosts and sweeps its prefix at the end: that is the overhead measured.

Runs alternate (plain, sdnbench, plain, ...) so drift on a shared machine hits both alike.
The figure of merit is the ratio of medians, sdnbench / plain (aim: <= 1.2).

    cd <repository> && .venv/bin/python bench/net/bringup.py [--rounds 5] [--topo star,10,4] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings

from sdnbench import doctor
from sdnbench.net import stale
from sdnbench.net.backends.mininet_network import MininetNetwork
from sdnbench.net.topology import parse_topology
from sdnbench.proc import signals_as_exceptions


def sdnbench_once(spec: str) -> tuple:
    """(bring-up s, tear-down s)"""
    t0 = time.perf_counter()
    with MininetNetwork(parse_topology(spec), controller=None):
        t1 = time.perf_counter()
    return t1 - t0, time.perf_counter() - t1


def plain_once(spec: str, datapath: str) -> tuple:
    from mininet.log import setLogLevel
    from mininet.net import Mininet
    from mininet.node import OVSSwitch
    from mininet.topo import Topo

    topo_data = parse_topology(spec)   # same nodes and links; parsing is not timed below
    prefix = stale.claim_prefix({"benchmark": "plain mininet"})
    try:
        class Star(Topo):
            def build(self):
                for i, s in enumerate(topo_data.switches, 1):
                    self.addSwitch(f"{prefix}s{i}", dpid=f"{s.dpid:016x}")
                for i, _h in enumerate(topo_data.hosts, 1):
                    self.addHost(f"{prefix}h{i}")
                real = {s.name: f"{prefix}s{i}" for i, s in enumerate(topo_data.switches, 1)}
                real.update({h.name: f"{prefix}h{i}" for i, h in enumerate(topo_data.hosts, 1)})
                for l in topo_data.links:
                    self.addLink(real[l.a], real[l.b])

        setLogLevel("error")
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            net = Mininet(topo=Star(), switch=lambda name, **kw: OVSSwitch(
                name, datapath=datapath, failMode="standalone", **kw),
                controller=None, autoSetMacs=True)
            try:
                net.start()
                for h in net.hosts:
                    h.cmd("ethtool -K", h.defaultIntf(), "tx off rx off")
            finally:
                t1 = time.perf_counter()
                net.stop()
        return t1 - t0, time.perf_counter() - t1
    finally:
        stale.release_prefix(prefix)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--topo", default="star,10,4")
    ap.add_argument("--json", help="write raw timings to this file")
    args = ap.parse_args(argv)
    datapath = doctor.require("ovs")["ovs"].data["datapath"]
    datapath = "user" if datapath == "user" else "kernel"
    plain, ours = [], []
    with signals_as_exceptions():
        sdnbench_once(args.topo)           # warm-up: imports, page cache, OVS
        for r in range(args.rounds):
            plain.append(plain_once(args.topo, datapath))
            ours.append(sdnbench_once(args.topo))
            print(f"round {r + 1}/{args.rounds}: plain {sum(plain[-1]):.2f} s, "
                  f"sdnbench {sum(ours[-1]):.2f} s", file=sys.stderr)
    print(f"{args.topo} bring-up + tear-down, {args.rounds} rounds, datapath {datapath}")
    ratios = {}
    for phase, pick in (("bring-up", lambda x: x[0]), ("tear-down", lambda x: x[1]),
                        ("total", lambda x: x[0] + x[1])):
        p, o = [pick(x) for x in plain], [pick(x) for x in ours]
        mp, mo = statistics.median(p), statistics.median(o)
        ratios[phase] = mo / mp
        print(f"  {phase:9}  plain Mininet median {mp:5.2f} s [{min(p):.2f}-{max(p):.2f}]   "
              f"sdnbench median {mo:5.2f} s [{min(o):.2f}-{max(o):.2f}]   ratio {mo / mp:.2f}x")
    print(f"  sdnbench / plain Mininet (total) = {ratios['total']:.2f}x (aim <= 1.2x)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"topo": args.topo, "datapath": datapath, "plain_s": plain, "sdnbench_s": ours,
                       "ratio_of_medians": ratios}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
