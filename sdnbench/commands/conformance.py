"""``sdnbench conformance``: a controller on Open vSwitch and on the emulated network, compared.

    sdnbench conformance --controller osken:learning --of 1.0,1.3
    sdnbench conformance --controller ryu:simple_switch_13 --controller faucet:auto --stimuli connect,frames,link
    sdnbench conformance --controller 'cmd:java -jar ctl.jar --port {port};name=myctl;of=1.0,1.3' -o cells.json
    sdnbench conformance --report cells.json          (the table and details of an earlier -o file)
    sdnbench conformance --pool A.json --views A --pool B.json --views B -o AB.json
                                                      (no run: the cells judged again with every comparable
                                                       Open vSwitch run of both commands)

Each cell (controller × OpenFlow version × stimulus) runs the controller fresh on Mininet + Open
vSwitch (userspace datapath) N times (--noise-runs, 2 by default: A, then the engine, then B, C …)
and once on the engine's emulated network (topology linear,2), captures what it received and
sent, reads the flow tables, and compares OVS A with the engine, normalised (docs/conformance.md).
What the OVS runs differ in is the noise floor; an item of the connect phase only (before the
stimulus) is also judged against the OVS runs of the command's other cells of the same controller
and version (the pooled connect-phase floor). A cell is identical, differs only as noise or as
docs/conformance.md's evidence explains, or differs unexplained. Each OVS run past the second
costs a whole run's time per cell; --noise-extra N takes up to N more, one at a time, only while
a cell is unexplained. Stimuli: connect, frames, link, hosts, restart, echo-silence.

Exit: 0 every cell identical, noise or explained; 2 a cell differs unexplained or could not run (a
measured result that failed the check; the last line says how many); 1 bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..outputs import Outputs
from .. import output
from ..controllers.lifecycle import precheck
from ..controllers.spec import DEFAULT_SPEC
from ..errors import UserError
from ..formats import Output
from ..paramcheck import once_each
from ..result import write_json_atomic
from ..differential import crosspool, harness, poolfiles, report, stimuli


# -o: the cells, rewritten by harness.run after every cell with this writer
CELLS = Output("the cells", {"json": write_json_atomic})


def register(sub) -> None:
    p = sub.add_parser("conformance", help="a controller on Open vSwitch and on the emulated network, compared",
                       description=__doc__)
    p.add_argument("--controller", action="append", metavar="SPEC",
                   help="a controller spec (repeat for several; commas inside a spec are its own, e.g. of=1.0,1.3) "
                        f"({DEFAULT_SPEC})")
    p.add_argument("--of", default="1.0,1.3", help="OpenFlow versions: 1.0, 1.3 or 1.0,1.3 (1.0,1.3); a "
                                                   "controller that does not speak one skips it")
    p.add_argument("--stimuli", default="connect,frames,link",
                   help=f"comma-separated, of {', '.join(stimuli.STIMULI)} (connect,frames,link)")
    p.add_argument("--report", action="append", metavar="FILE", help="no run: the table of earlier -o files")
    p.add_argument("--pool", action="append", metavar="FILE",
                   help="no run: judge the cells of earlier -o files again, pooling every comparable Open vSwitch "
                        "run of them (same controller spec and version, OpenFlow version, switch versions, topology "
                        "and stimulus; the rest is set apart, one line each); give each file's --views DIR after it; "
                        "the first file's cells are the ones judged; -o writes a new file, never an input")
    p.add_argument("--json", action="store_true", help="print the cells as JSON on stdout")
    p.add_argument("-o", "--output", metavar="FILE", help=f"write the cells to FILE (after every cell): {CELLS.help()}")
    p.add_argument("--noise-runs", type=int, default=harness.NOISE_RUNS, metavar="N",
                   help="Open vSwitch runs a cell, N >= 2 (2: A and B): the noise floor is what they differ in; "
                        "each run past 2 adds a whole OVS run's time to every cell (about 15 s; a Java "
                        "controller's start more) (2)")
    p.add_argument("--noise-extra", type=int, default=harness.NOISE_EXTRA, metavar="N",
                   help="when a cell is unexplained, up to N further Open vSwitch runs, one at a time, until "
                        "it is not (the noise floor measured where needed; the cell says how many it took) "
                        f"({harness.NOISE_EXTRA})")
    p.add_argument("--views", action="append", metavar="DIR", help="also write each cell's normalised views (OVS A, OVS B, "
                                                  "engine, OVS C …) whole, with each run's items before and after the stimulus, one JSON file "
                                                  "per cell, into DIR (with --pool: the folder each pooled file's command wrote, once per --pool, in the same order)")
    p.set_defaults(func=run, _output=CELLS)


def check(args) -> tuple:
    """(controllers, versions, stimuli), or one UserError line, before anything starts."""
    controllers = args.controller or [DEFAULT_SPEC]
    for spec in controllers:
        try:
            precheck(spec)                 # a tcp: address where nothing listens: not 2 × N cells "not run"
        except UserError as e:
            raise UserError(f"--controller: {e}")
    versions = [v.strip() for v in args.of.split(",") if v.strip()]
    bad = [v for v in versions if v not in ("1.0", "1.3")]
    if bad or not versions:
        raise UserError(f"--of: want 1.0, 1.3 or 1.0,1.3, got {args.of!r}")
    stims = [s.strip() for s in args.stimuli.split(",") if s.strip()]
    bad = [s for s in stims if s not in stimuli.STIMULI]
    if bad or not stims:
        raise UserError(f"--stimuli: unknown stimulus {(bad or [''])[0]!r}; use {', '.join(stimuli.STIMULI)}")
    for flag, items in (("--controller", controllers), ("--of", versions), ("--stimuli", stims)):
        once_each(flag, items)
    if args.noise_runs < 2:
        raise UserError(f"--noise-runs: want 2 or more Open vSwitch runs a cell (A and B at least), got {args.noise_runs}")
    if args.noise_extra < 0:
        raise UserError(f"--noise-extra: want 0 or more further Open vSwitch runs, got {args.noise_extra}")
    if args.output:
        CELLS.format_for(args.output, format_flag=False)
    return controllers, versions, stims


def _pool(args, outputs: Outputs) -> list:
    """``--pool``: the cells of the files judged again across commands (``crosspool.py``); what
    is set apart said on stderr, one line each; the new file written when ``-o`` names one."""
    if args.report:
        raise UserError("--pool and --report: give one (--pool judges again, --report only shows)")
    if len(args.views or []) != len(args.pool):
        raise UserError(f"--pool: give each file's --views DIR after it ({len(args.pool)} --pool, "
                        f"{len(args.views or [])} --views)")
    once_each("--pool", [str(Path(f).resolve()) for f in args.pool])
    out = Path(outputs.path) if outputs.path else None
    if out:
        CELLS.format_for(str(out), format_flag=False)
        if any(out.resolve() == Path(f).resolve() for f in args.pool):
            raise UserError(f"-o {out}: one of the --pool files; pooling writes a new file, never changes a stored one")
    cells, apart = crosspool.judge([c for f, d in zip(args.pool, args.views) for c in poolfiles.cells(f, d)])
    for line in apart:
        print(line, file=sys.stderr)
    if out:
        write_json_atomic(out, cells)
        print(f"wrote {out}", file=sys.stderr)
    return cells


def run(args, outputs: Outputs) -> int:
    if args.pool:
        cells = _pool(args, outputs)
    elif args.report:
        cells = harness.load(args.report)
    else:
        controllers, versions, stims = check(args)
        out = Path(outputs.path) if outputs.path else None
        if len(args.views or []) > 1:
            raise UserError("--views: one folder for a run (several only with --pool)")
        views = Path(args.views[0]) if args.views else None
        if views:
            try:
                views.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise UserError(f"--views {views}: {e.strerror}")
        cells = harness.run(controllers, versions, stims, out, say=lambda m: print(m, file=sys.stderr, flush=True),
                            views=views, noise_runs=args.noise_runs, noise_extra=args.noise_extra)
        if out:
            print(f"wrote {out}", file=sys.stderr)
    if outputs.json:
        output.print_json(cells)
    else:
        print(report.table(cells))
        d = report.details(cells)
        if d:
            print()
            print(d)
    line = report.totals(cells)
    print(line, file=sys.stderr)
    return 0 if cells and all(report.agrees(c) for c in cells) else 2
