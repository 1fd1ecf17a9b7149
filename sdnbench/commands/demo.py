"""``sdnbench demo``: the main job. Runs ``scenarios/demo.yaml`` (the Mininet runner and the load
engine against the default controller) into the results store, then writes its HTML and
Markdown reports and prints where they are.

A part that this install does not have yet (its runner cannot be imported) is left out of the
demo with a one-line note rather than failing the whole tour.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from ..outputs import Outputs
from ..campaign import kinds, runner, scenario as scenario_mod
from ..campaign.plan import Overrides
from ..formats import FORMATS
from ..report.export import REPORT
from ..errors import UserError
from ..output import add_store_flag
from ..paths import REPO
from ..store import Store

DEMO_SCENARIO = REPO / "scenarios" / "demo.yaml"


DEMO = REPORT.only("html", what="the demo report")


def register(sub) -> None:
    p = sub.add_parser("demo", help="run the quick demo scenario and write its HTML report",
                       description=__doc__)
    add_store_flag(p)
    p.add_argument("-o", "--output", type=Path, metavar="PATH",
                   help=f"the report: {DEMO.help()}, and Markdown beside it "
                        "(default: STORE/reports/demo-RUN.html)")
    p.add_argument("--scenario", type=Path, default=DEMO_SCENARIO, help=argparse.SUPPRESS)
    p.set_defaults(func=run, _output=DEMO)


def run(args, outputs: Outputs) -> int:
    from ..report.builder import build
    from ..report.export import write
    from ..report.load import load_runs

    sc = scenario_mod.load(args.scenario)
    sc = _available(sc, kinds)
    versions = runner.check_components(sc)
    runners = runner.load_runners(sc)
    with Store(args.store) as store:
        overrides = Overrides()
        run_id = runner.start(store, sc, overrides, versions)
        print(f"demo: run {run_id}, {sum(store.run(run_id).counts.values())} cells, store {store.dir}",
              file=sys.stderr)
        outcome = runner.execute(store, run_id, sc, runners, overrides=overrides)
        store_dir = store.dir
    runs = load_runs([str(run_id)], store_dir)
    report = build(runs, title=f"sdnbench demo (run {run_id})")
    html = Path(args.output or store_dir / "reports" / f"demo-{run_id}.html").resolve()
    write(report, html, "html")
    md = write(report, Path(html).with_suffix(FORMATS["md"].suffixes[0]), "md")[0]
    print(f"demo: {outcome.ok} ok, {outcome.failed} failed of {outcome.total} cells")
    print(f"Markdown report: {md}")
    print(f"HTML report: {html}")
    return 0 if outcome.failed == 0 else 2


def _available(sc, kinds):
    """The scenario without the benchmarks whose runner this install lacks (said on stderr)."""
    keep = []
    for b in sc.benchmarks:
        try:
            kinds.get(b.kind).load()
            keep.append(b)
        except UserError as e:
            print(f"demo: leaving out {b.name}: {e}", file=sys.stderr)
    if not keep:
        raise UserError("demo: none of the demo's parts is installed (run `make setup`)")
    return dataclasses.replace(sc, benchmarks=keep)
