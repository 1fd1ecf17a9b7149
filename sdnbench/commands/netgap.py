"""``sdnbench net gap``: one scenario on Mininet and on real hosts (an SSH inventory), and the
emulated-vs-real gap table (``gap``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..outputs import Outputs
from ..campaign import scenario as scenario_mod
from ..formats import Output
from ..output import add_json_flag, print_json, write_measured
from ..store import Store


# -o: the table as Markdown, or everything (rows and both sides' results) as JSON
GAP = Output("the table (md) or everything (json)",
             {"md": lambda doc, text: text, "json": lambda doc, text: json.dumps(doc, indent=2, default=str) + "\n"})


def add_to(nsub) -> None:
    g = nsub.add_parser("gap", help="run a scenario's net benchmarks on Mininet and on real hosts "
                                    "(SSH inventory) and print the emulated-vs-real gap table",
                        description=__doc__)
    g.add_argument("scenario", type=Path, help="scenario file (its net benchmarks are run)")
    g.add_argument("--inventory", required=True, metavar="FILE",
                   help="the real hosts and switch (see sdnbench/net/backends/inventory.py)")
    g.add_argument("--quick", action="store_true", help="use the scenario's quick: block")
    g.add_argument("--store", metavar="DIR", help="also save every result into the store in DIR")
    g.add_argument("-o", "--output", metavar="FILE", help=f"write {GAP.what} to FILE: {GAP.help()}")
    add_json_flag(g)
    g.set_defaults(func=run, _output=GAP)


def run(args, outputs: Outputs) -> int:
    from ..net.backends.both import net_benchmarks, run_both
    from ..net.backends.gap import gap_rows, markdown
    from ..net.backends.ssh_backend import SSHBackend

    sc = scenario_mod.load(args.scenario, quick=args.quick)
    net_benchmarks(sc)
    SSHBackend(args.inventory)                      # the inventory is checked before anything runs
    fmt = GAP.format_for(args.output, format_flag=False) if args.output else None
    stored = []

    def keep(side, bench, result) -> None:
        if args.store:
            with Store(args.store) as st:
                stored.append(st.save_result(result))
            print(f"{bench.name} {side}: saved as result {stored[-1]} in {args.store}", file=sys.stderr)

    res = run_both(sc, args.inventory, keep, progress=lambda s: print(s, file=sys.stderr))
    rows = gap_rows(res["emulated"], res["real"])
    text = markdown(rows, "mininet", f"ssh ({Path(args.inventory).name})")
    doc = {"scenario": sc.name, "inventory": args.inventory, "rows": [r.to_dict() for r in rows],
           "emulated": [r.to_dict() for r in res["emulated"]], "real": [r.to_dict() for r in res["real"]]}
    if args.output:
        data = GAP.writer(fmt)(doc, text)
        print(f"wrote {write_measured(args.output, data.encode())}", file=sys.stderr)
    if args.json:
        print_json({k: v for k, v in doc.items() if k in ("scenario", "inventory", "rows")})
    else:
        print(text)
    failed = [f"{r.benchmark}: {r.error}" for r in res["emulated"] + res["real"] if r.status != "ok"]
    for f in failed:
        print(f"sdnbench: net gap: a run failed: {f}", file=sys.stderr)
    return 2 if failed or not rows else 0
