"""``sdnbench history SCENARIO|RUN --metric M``: a metric across the runs of one scenario.

One value per run and condition (the median of the cells' means), a table oldest first, and
step changes found by an asv-style piecewise-constant fit (``sdnbench.history.steps``): each
is an alert naming the run where the new level began, called a regression when the metric got
worse. ``-o plot.png`` draws it; ``--json`` prints it for programs; ``--fail-on-regression``
exits 2 when the newest level of any condition is a regression.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..outputs import Outputs
from ..errors import CheckFailed
from ..formats import Output
from ..output import add_store_flag
from ..store.store import Store


# matplotlib draws each; named, so that the help loads no matplotlib
PLOT = Output("the history plot", {f: "sdnbench.report.history_render:plot" for f in ("png", "svg", "pdf")})


def register(sub) -> None:
    p = sub.add_parser("history", help="a metric across the runs of a scenario, with step alerts",
                       description=__doc__)
    p.add_argument("ref", metavar="SCENARIO|RUN",
                   help="a scenario name or file, or a run id (`latest`) whose scenario to follow")
    p.add_argument("--metric", "-m", required=True, help="the metric, e.g. throughput")
    add_store_flag(p, read_only=True)
    p.add_argument("-o", "--output", metavar="FILE.png", help=f"also draw the history to FILE: {PLOT.help()}")
    p.add_argument("--json", action="store_true", help="print the history as JSON on stdout")
    p.add_argument("--fail-on-regression", action="store_true",
                   help="exit 2 if a condition's latest step is a regression")
    p.set_defaults(func=run, _output=PLOT)


def run(args, outputs: Outputs) -> int:
    from ..history.alerts import alerts
    from ..history.collect import load_history
    from ..report.history_render import as_json, text

    with Store(args.store, read_only=True) as store:
        h = load_history(store, args.ref, args.metric)
    found = alerts(h)
    if args.output:
        path = PLOT.writer(PLOT.format_for(args.output, format_flag=False))(h, found, Path(args.output))
    print(json.dumps(as_json(h, found), indent=2) if args.json else text(h, found))
    if args.output and not args.json:
        print(f"wrote {path}")
    latest = {}
    for a in found:
        latest[a.condition] = a
    if args.fail_on_regression and any(a.regression for a in latest.values()):
        raise CheckFailed(f"{args.metric}: regression in "
                          + ", ".join(a.condition for a in latest.values() if a.regression))
    return 0
