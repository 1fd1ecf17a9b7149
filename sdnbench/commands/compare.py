"""``sdnbench compare A B``: compare two runs cell by cell (means, gap, ratio, significance).

A and B are each a run id in the store (or `latest`), optionally narrowed with
@PARAM=VALUE[,PARAM=VALUE] (e.g. `4@controller=osken:learning 4@controller=ryu:simple_switch_13`
compares two controllers of one run), a Result .json file, or a directory of them.
Cells that only one side has are listed (in every format), never silently dropped.
With --fail-on METRIC:PCT it exits 2 when B is significantly worse than A (mark +) by more than
PCT percent, as asv does; --fail-on-any counts any change beyond PCT, significant or not.
"""

from __future__ import annotations

import sys

from ..outputs import Outputs
from ..errors import CheckFailed, UserError
from ..compare import COMPARISON
from ..formats import add_flags
from ..output import add_store_flag, check_writable, write_or_beside


def register(sub) -> None:
    p = sub.add_parser("compare", help="compare two runs cell by cell, with significance",
                       description=__doc__)
    p.add_argument("a", metavar="A", help="the baseline: RUN[@PARAM=VALUE,...], a Result .json or a directory")
    p.add_argument("b", metavar="B", help="the candidate, same forms as A")
    add_store_flag(p, read_only=True)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", dest="fmt", action="store_const", const="json", help="JSON on stdout")
    fmt.add_argument("--csv", dest="fmt", action="store_const", const="csv", help="CSV on stdout")
    fmt.add_argument("--markdown", dest="fmt", action="store_const", const="md",
                     help="a Markdown table on stdout")
    p.add_argument("--transpose", action="store_true",
                   help="configurations as columns, means/gap as rows (the campus study's Table 3)")
    p.add_argument("--names", metavar="A,B", help="labels for the two sides (default: the sources)")
    p.add_argument("--metric", action="append", metavar="M", help="only these metrics (globs ok)")
    p.add_argument("--resources", action="store_true",
                   help="also compare resource use (controller CPU %%, RSS, threads)")
    p.add_argument("--ignore", action="append", default=[], metavar="PARAM",
                   help="leave PARAM out when matching cells")
    p.add_argument("--per", choices=("raw", "rep"), default="raw",
                   help="test on every raw sample (raw, default) or on one mean per repetition (rep)")
    p.add_argument("--paired", action="store_true",
                   help="match samples by repetition, series labels and position (the same switch on "
                        "both sides) and test with Wilcoxon signed-rank instead of Mann-Whitney U")
    p.add_argument("--higher", action="append", default=[], metavar="M", help="metric M is better higher")
    p.add_argument("--lower", action="append", default=[], metavar="M", help="metric M is better lower")
    p.add_argument("--fail-on", action="append", default=[], metavar="METRIC:PCT",
                   help="exit 2 if METRIC (glob) is significantly worse in B by more than PCT%% of A, "
                        "or a cell failed in B")
    p.add_argument("--fail-on-any", action="store_true",
                   help="with --fail-on: count every change beyond PCT, significant or not")
    add_flags(p, COMPARISON)
    p.set_defaults(func=run, fmt="txt")


def run(args, outputs: Outputs) -> int:
    if args.fail_on_any and not args.fail_on:
        raise UserError("--fail-on-any goes with --fail-on METRIC:PCT")
    # scipy is imported here, not at start-up: every sdnbench command would pay for it otherwise.
    from ..compare.core import compare, gate, parse_threshold, unmatched
    from ..compare.samples import load_source
    thresholds = [parse_threshold(t) for t in args.fail_on]
    fmt = COMPARISON.format_for(args.output, args.format) if args.output else args.fmt
    if args.output:
        check_writable(args.output)
    side_a = load_source(args.a, args.store, args.ignore, args.resources)
    side_b = load_source(args.b, args.store, args.ignore, args.resources)
    if side_a.name == side_b.name:
        side_b.name += " (B)"
    names = (side_a.name, side_b.name)
    if args.names:
        parts = [s.strip() for s in args.names.split(",")]
        if len(parts) != 2 or not all(parts):
            raise UserError("--names takes two labels: A,B")
        names = (parts[0], parts[1])
    directions = {m: True for m in args.higher}
    directions.update({m: False for m in args.lower})
    rows = compare(side_a, side_b, per=args.per, directions=directions, metrics=args.metric,
                   pair=args.paired)
    only = unmatched(side_a, side_b)
    if not rows:
        raise UserError(f"{args.a} and {args.b} have no configuration and metric in common "
                        f"({len(only)} cell(s) on one side only; narrow with @PARAM=VALUE, or "
                        "--ignore PARAM)")
    # Gate messages and the table both name sides by the labels the reader sees.
    for r in rows:
        r.errors = {names[(side_a.name, side_b.name).index(k)]: v for k, v in r.errors.items()}
    text = COMPARISON.writer(fmt)(rows, fmt, names, (side_a.name, side_b.name), args.transpose,
                  "paired" if args.paired else args.per, only)
    if args.output:
        where = write_or_beside(args.output, text.encode())
        print(f"wrote {where}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if only and (args.output or fmt != "txt"):
        print(f"note: {len(only)} cell(s) on one side only, not compared (listed in the output)",
              file=sys.stderr)
    if thresholds:
        regressions = gate(rows, thresholds, names[0], names[1], any_change=args.fail_on_any)
        if regressions:
            for line in regressions:
                print(f"regression: {line}", file=sys.stderr)
            raise CheckFailed(f"{len(regressions)} regression(s) beyond --fail-on "
                              f"{', '.join(args.fail_on)}")
        print(f"gate passed: no regression beyond {', '.join(args.fail_on)}", file=sys.stderr)
    return 0
