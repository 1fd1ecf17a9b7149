"""``sdnbench switch conformance``: os-ken's OpenFlow Switch Test Tool against a switch.

    sdnbench switch conformance --target ovs --of 1.3
    sdnbench switch conformance --target ovs,emulated --of 1.0,1.3 -o conf.json   (side by side)
    sdnbench switch conformance --target emulated --only 'action/*,match/03_*' --of 1.3
    sdnbench switch conformance --target remote:6653,eth1,eth2,eth3 --target-dpid 00000000000000aa
    sdnbench switch conformance --target ovs,cpqd,emulated --of 1.0,1.3   (two references, one subject)
    sdnbench switch conformance --target ovs,cpqd,emulated --repeat 3   (the findings' noise floor)
    sdnbench switch conformance --compare ovs.json emulated.json    (two earlier -o files)
    sdnbench switch conformance --list --of 1.0

The tool is os-ken's (``os_ken/tests/switch/tester.py`` and its JSON patterns, as installed by
``make setup``); the target switch and a tester switch are joined by three links (target ports
1, 2, 3 to tester ports 1, 2, 3). Per test OK or ERROR with the tool's reason, a summary by
category and version, and with several targets the last one against the others (its
references): a table per category and the tests a reference passes and the last does not.
With ``--repeat N`` the pattern files holding such a test run N-1 more times on every target,
target after target each time (the same load for each): a test stays a finding when a reference
passed it every time and the subject never, is noise when the subject passed it too and every
reference that passed it also failed it, and is unsettled otherwise, with the counts. Exit
0 when every run finished (ERRORs are findings about the switch), 2 when a run did not finish
(the reason is printed: also a switch that died, with its signal and the test it died in), 1 for
bad input. docs/switch-conformance.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..outputs import Outputs
from .. import output
from ..campaign.plan import cell_key
from ..errors import UserError
from ..result import Result
from ..store import CellSpec
from ..store.cli import add_store_flag
from ..switchtesttool import params, patterns, report, runner
from ..switchtesttool.stored import SwitchTestCounters
from ._results import MEASURED, run_trials


def register(s) -> None:
    c = s.add_parser("conformance", help="os-ken's OpenFlow switch test tool against a switch (OK/ERROR per test)",
                     description=__doc__)
    c.add_argument("--target", action="append", metavar="SPEC",
                   help="ovs | emulated | cpqd | remote:PORT,IF1,IF2,IF3; repeat, or ovs,emulated (ovs)")
    c.add_argument("--targets", action="append", dest="target", help=argparse.SUPPRESS)
    c.add_argument("--of", default="1.3", help="OpenFlow versions of the patterns: 1.0, 1.3 or 1.0,1.3 (%(default)s)")
    c.add_argument("--only", metavar="PATTERN",
                   help="comma-separated globs (or words) over pattern names such as action/00_OUTPUT, "
                        "match/*ETH*, group, meter")
    c.add_argument("--skip", metavar="PATTERN",
                   help="leave out the patterns these globs or words name (as --only), e.g. a file that "
                        "crashes a switch: 'action/25_SET_FIELD/10_IP_PROTO*'")
    c.add_argument("--interval", type=int, default=0, metavar="S",
                   help="seconds the tool waits between tests (its --test-switch-interval; 0, its default)")
    c.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="the noise floor: run every pattern file holding a finding N-1 more times on every "
                        "target, interleaved, and count each finding's passes per target (%(default)s: no rerun)")
    c.add_argument("--list", action="store_true", help="list the selected patterns and their tests, run nothing")
    c.add_argument("--target-dpid", metavar="HEX", help="remote: the switch's datapath id")
    c.add_argument("--compare", action="extend", nargs="+", metavar="FILE",
                   help="no run: the side-by-side table of earlier -o files: --compare A.json B.json [C.json] "
                        "(or repeated; one file holding several targets also works); the last target is "
                        "compared against the others")
    c.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    c.add_argument("-o", "--output", metavar="FILE", help=f"write the results to FILE: {MEASURED.help()}")
    add_store_flag(c)
    c.set_defaults(func=run_conformance, _output=MEASURED)


def run_conformance(args, outputs: Outputs) -> int:
    if args.compare:
        _print([r for f in args.compare for r in _read(Path(f))])
        return 0
    if not 0 <= args.interval <= 60:
        raise UserError(f"--interval: want 0 to 60 seconds, got {args.interval}")
    if not 1 <= args.repeat <= 10:
        raise UserError(f"--repeat: want 1 to 10 runs of each finding, got {args.repeat}")
    targets = params.targets(args.target, args.target_dpid)
    if args.repeat > 1 and len(targets) < 2:
        raise UserError("--repeat: a finding needs a reference and a subject: name two targets or more "
                        "(--target ovs,emulated)")
    versions = params.versions(args.of)
    switch = patterns.switch_dir(patterns.osken_package())
    selected = {v: patterns.select(patterns.discover(switch, v), args.only, args.skip) for v in versions}
    empty = [v for v, ps in selected.items() if not ps]
    if empty:
        raise UserError(f"--only {args.only!r}, --skip {args.skip!r}: no pattern of OpenFlow {', '.join(empty)} matches "
                        "(see --list, e.g. --only action/00_OUTPUT)")
    if args.list:
        print(output.table(["OpenFlow", "pattern", "category", "tests"],
                           [[v, p.name, p.category, p.tests] for v, ps in selected.items() for p in ps]))
        return 0
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    results = _runs(args, outputs, targets, versions, selected, say)
    if outputs.path and not outputs.rescued:
        print(f"wrote {outputs.path}", file=sys.stderr)
    if outputs.json:
        output.print_json([r.to_dict() for r in results])
    else:
        _print(results)
    failed = [r for r in results if r.status != "ok"]
    for r in failed:
        print(f"sdnbench: {r.params['target']} {r.params['of_version']}: the run did not finish: {r.error}",
              file=sys.stderr)
    return 2 if failed else 0


def _runs(args, outputs: Outputs, targets: list, versions: list, selected: dict, say) -> list:
    """Each run (a target and a version) a cell on the campaigns' executor
    (``_results.run_trials``): kept as it ends (``-o`` rewritten, ``--store`` committed), and on
    Ctrl-C/SIGTERM the runs finished are kept, the one cut short with its outcomes so far, as
    ``controller bench``."""
    by_spec = {t["spec"]: t for t in targets}
    cells = []
    for t in targets:
        for v in versions:
            if v not in params.speaks(t):
                say(f"{t['spec']} {v}: not run: {params.SPEAKS_WHY[t['kind']]}")
                continue
            p = {"target": t["spec"], "of_version": v, "interval_s": args.interval, "only": args.only,
                 **({"skip": args.skip} if args.skip else {})}
            cells.append(CellSpec(cell_key(runner.BENCHMARK, p, 0), runner.BENCHMARK, "switch", p, 0))
    if not cells:
        raise UserError(f"--of {args.of}: no target named speaks it ("
                        + "; ".join(params.SPEAKS_WHY[t["kind"]] for t in targets if t["kind"] in params.SPEAKS_WHY) + ")")

    done: list = []
    rerun: dict = {}                          # version -> the patterns holding findings

    def ended(r) -> None:
        done.append(r)
        label = f"{r.params['target']} {r.params['of_version']}" + (f" rerun {r.params['rep']}" if "rep" in r.params else "")
        if not r.counters:                    # a run that failed before the tool started
            say(f"{label}: did not run: {r.error}")
            return
        c = SwitchTestCounters.of(r)
        say(f"{label}: {c.ok} OK, {c.error} ERROR "
            f"of {c.tests} in {c.seconds:.0f} s" + (f"; did not finish: {r.error}" if r.error else ""))
        for n in r.notes:
            say(f"  note: {n}")

    def plan():
        yield from cells
        yield from _reruns(args, targets, selected, done, rerun, say)

    def one(c):
        v, rep = c.params["of_version"], c.repetition
        return runner.run(by_spec[c.params["target"]], v, rerun[v] if rep else selected[v], say, args.interval, rep)

    return run_trials(outputs, plan(), one, on_result=ended, quiet=lambda r: True, kind="switch")


def _reruns(args, targets: list, selected: dict, done: list, rerun: dict, say):
    """Once every first run ended: per version, the pattern files holding a finding (into
    ``rerun``), then ``--repeat`` - 1 rounds, each running them on every target that ran the
    version, target after target."""
    if args.repeat < 2:
        return
    ran = {(r.params["target"], r.params["of_version"]) for r in done}
    for v, refs, subject in report.groups_by_version(done):
        files = {f for f, *_ in report.findings(refs, subject)}
        rerun[v] = [p for p in selected[v] if p.description in files]
        say(f"{v}: {len(files)} pattern files hold a finding" + (f"; each runs {args.repeat - 1} more times on "
                                                                  "every target" if files else ""))
    for rep in range(1, args.repeat):
        for t in targets:
            for v, pats in rerun.items():
                if pats and (t["spec"], v) in ran:
                    p = {"target": t["spec"], "of_version": v, "interval_s": args.interval,
                         "only": ",".join(x.name for x in pats), "rep": rep}
                    yield CellSpec(cell_key(runner.BENCHMARK, p, rep), runner.BENCHMARK, "switch", p, rep)


def _read(path: Path) -> list:
    items = Result.read_json_list(path)
    if not all(r.benchmark == runner.BENCHMARK for r in items):
        raise UserError(f"--compare {path}: not the output of `sdnbench switch conformance -o`")
    return items


def _print(results: list) -> None:
    firsts = report.first_runs(results)
    for r in firsts:
        for f, t, res, why in report.tests(r):
            if res != "OK":
                print(f"{r.params['target']} {r.params['of_version']}  ERROR  {f} / {t}: {why}")
    print()
    print(output.table(report.SUMMARY_HEADERS, report.summary_rows(firsts)))
    for v, refs, subject in report.groups_by_version(results):
        s = subject.params["target"]
        names = ", ".join(r.params["target"] for r in refs)
        print(f"\nOpenFlow {v}: {s} against " + (f"the union of {names}" if len(refs) > 1 else names))
        print(output.table(report.union_headers(refs, subject), report.union_rows(refs, subject)))
        found = report.findings(refs, subject)
        print(f"\n{len(found)} tests OK on {names if len(refs) == 1 else 'a reference'} and not on {s}"
              + (f" ({', '.join(f'{k}: {n}' for k, n in report.reasons([(f, t, res, why) for f, t, _, res, why in found]))}):"
                 if found else ""))
        for f, t, by, res, why in found:
            print(f"  {f} / {t}: {res}" + (f" ({why})" if why else "") + (f"  [OK on {by}]" if len(refs) > 1 else ""))
    _print_noise(results)


def _print_noise(results: list) -> None:
    for v, subject, targets, rows in report.noise_floor(results):
        n = max((c[1] for *_, counts, _ in rows for c in counts.values()), default=0)
        print(f"\nOpenFlow {v}, the noise floor: each finding's pattern file run up to {n} times on every target, "
              "interleaved (runs OK / runs)")
        table = [[f"{f} / {t}", *(f"{counts[x][0]}/{counts[x][1]}" if x in counts else "-" for x in targets), verdict]
                 for f, t, counts, verdict in rows]
        print(output.table(["test", *targets, "verdict"], table))
        tally = {k: sum(1 for *_, verdict in rows if verdict == k) for k in (report.FINDING, report.NOISE, report.UNSETTLED)}
        print(f"{tally[report.FINDING]} findings (a reference OK every run, {subject} none), {tally[report.NOISE]} noise "
              f"({subject} OK too, each reference that passed also failed), {tally[report.UNSETTLED]} unsettled")
