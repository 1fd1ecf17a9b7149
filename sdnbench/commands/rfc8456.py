"""``sdnbench rfc8456``: the whole RFC 8456 evaluation of one or more controllers, and its report.

Every test that applies to each controller (§5.1.1–§5.4.2), run as a campaign into the results
store (each finished trial is kept; ``--resume RUN`` measures only what is left), then written
as the RFC's report: a first page with one row per test and one column per controller, each
test's §4.8 fields and its trial table with average and variance (§4.7).

    sdnbench rfc8456 --controller osken:learning --controller ryu:simple_switch_13 --quick -o rfc.html
    sdnbench rfc8456 --controller osken:learning -o rfc.md                 # default: 5 trials, < 1 h
    sdnbench rfc8456 --controller osken:learning --full -o rfc.json        # the RFC's 10 trials
    sdnbench rfc8456 --controller 'cmd:python3 pox.py openflow.of_01 --port={port} forwarding.l2_learning;cwd=${POX_DIR};of=1.0;name=pox' --quick
    sdnbench rfc8456 --controller osken:learning --quick --tls -o rfc.md   # its switches on TLS (docs/tls.md)
    sdnbench rfc8456 --controller tcp:127.0.0.1:6653 --api floodlight --api-url http://127.0.0.1:8080 -o rfc.md
    sdnbench rfc8456 --resume latest -o rfc.html     # finish an interrupted evaluation
    sdnbench rfc8456 --report 12 -o rfc.html         # only write the report of run 12

Tests that need what a controller lacks (a northbound topology or flow-push API, a rerouting
app, a second instance taking over) are listed in the report with the reason. os-ken and Ryu
run their sibling apps for those (osken:topology, osken:flowpush, osken:reroute, osken:takeover;
ryu:rest_topology, ryu:ofctl_rest).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..outputs import Outputs
from .. import output
from ..campaign import runner, scenario as scenario_mod
from ..controllers.lifecycle import precheck
from ..controllers.spec import DEFAULT_SPEC, parse_spec
from ..errors import CheckFailed, UserError
from ..northbound import adapter_for
from ..paramcheck import once_each
from ..northbound.adapter import ADAPTERS
from ..report.export import EVALUATION
from ..rfc8456.flow_push import FLOW_APIS
from ..output import add_store_flag
from ..store import Store


def register(sub) -> None:
    p = sub.add_parser("rfc8456", help="the whole RFC 8456 evaluation of controllers, and its report",
                       description=__doc__, formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    p.add_argument("--controller", action="append", metavar="SPEC", default=[],
                   help=f"a controller under test (repeat to compare; {DEFAULT_SPEC} when none)")
    prof = p.add_mutually_exclusive_group()
    prof.add_argument("--quick", dest="profile", action="store_const", const="quick",
                      help="3 trials per test (1 per DoS case, one flood each), small sizes: minutes (CI); "
                           "the time it should take is printed first")
    prof.add_argument("--full", dest="profile", action="store_const", const="full",
                      help="the RFC's 10 trials per test (§4.7) and its 3 s discovery poll")
    p.add_argument("--only", metavar="TESTS",
                   help="comma-separated tests (names or sections, e.g. discovery,5.2.1); see --list")
    p.add_argument("--api", metavar="NAME",
                   help=f"northbound API ({', '.join(ADAPTERS)}) of a controller without a known topology app, "
                        "e.g. a tcp: one: the discovery tests read its view through it; for "
                        f"{', '.join(FLOW_APIS)} the proactive tests push their flows through it too")
    p.add_argument("--api-url", metavar="URL", help="that API's base URL on 127.0.0.0/8 (with --api)")
    p.add_argument("--tls", action="store_true",
                   help="the controllers over TLS (each spec with ;tls, sdnbench's certificates): the tests on "
                        "emulated switches run over TLS, the others are listed as not applicable; the report's "
                        "encryption field says what the sessions negotiated")
    p.add_argument("--list", action="store_true", help="print the plan (what runs, what cannot apply) and exit")
    p.add_argument("--resume", metavar="RUN", help="continue an interrupted evaluation (an id or `latest`)")
    p.add_argument("--report", metavar="RUN", help="measure nothing: write the report of a stored evaluation")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help=f"write the report to FILE: {EVALUATION.help()}")
    p.add_argument("--check", action="store_true",
                   help="render the HTML report in headless Chromium and keep a screenshot beside it")
    add_store_flag(p)
    p.set_defaults(func=run, profile="default", _output=EVALUATION)


def run(args, outputs: Outputs) -> int:
    from ..rfc8456.suite import BY_SLUG, TESTS
    if args.output is not None:
        _format(args.output)
    if args.check and (args.output is None or _format(args.output) != "html"):
        raise UserError("--check renders the HTML report: give -o FILE.html")
    if args.report is not None:
        return _write_report(args, args.report)
    if args.resume is not None:
        return _resume(args)
    only = None
    if args.only is not None:
        only = [x.strip().lstrip("§") for x in args.only.split(",") if x.strip()]
        if not only:
            raise UserError(f"--only: no test named in {args.only!r}; see --list for their names")
        known = set(BY_SLUG) | {t.sections for t in TESTS}
        bad = [x for x in only if x not in known]
        if bad:
            raise UserError(f"--only: unknown test {bad[0]!r}; known: {', '.join(BY_SLUG)}")
        once_each("--only", only)
    controllers = _controllers(args.controller, args.tls)
    api = _api(args.api, args.api_url)
    if args.list:
        return _list(controllers, args.profile, only, api)
    return _start(args, controllers, only, api)


def _api(name, url):
    """[adapter, URL] from --api/--api-url, checked: a known adapter, a loopback URL."""
    if name is None and url is None:
        return None
    if name is None or url is None:
        raise UserError("--api and --api-url go together (the adapter and where it answers)")
    from urllib.parse import urlparse
    adapter_for(name)
    u = urlparse(url)
    host = u.hostname or ""
    if u.scheme not in ("http", "https") or not (host == "localhost" or host.startswith("127.")):
        raise UserError(f"--api-url {url}: give an http(s) URL on 127.0.0.0/8 (this machine only)")
    return [name, url]


def _controllers(specs: list, tls: bool = False) -> list:
    specs = specs or [DEFAULT_SPEC]
    for s in specs:
        parse_spec(s)
    if tls:
        from ..tlscost.plan import tls_twin
        specs = [s if parse_spec(s).tls else tls_twin(s) for s in specs]
    if len(set(specs)) != len(specs):
        raise UserError("--controller: the same controller is given twice")
    return specs


def _format(path: Path) -> str:
    return EVALUATION.format_for(path, format_flag=False)


def _list(controllers: list, profile: str, only, api) -> int:
    from ..rfc8456.suite import label, plan
    planned = plan(controllers, only, api)
    rows = [[f"§{p.test.sections}", p.test.title, label(p.controller),
             p.spec or "not applicable", p.reason or f"{p.test.trials_for(profile)} trial(s)"]
            for p in planned]
    print(output.table(["section", "test", "controller", "app run", "trials / why not"], rows, align="lllll"))
    est = _estimate(controllers, profile, only, api)
    if est:
        print(f"{sum(p.test.trials_for(profile) for p in planned if p.spec)} trials{est}")
    return 0


def _start(args, controllers: list, only, api) -> int:
    text = scenario_text(controllers, args.profile, only, api)
    for s in controllers:              # a controller that could never run: the user's error, before the store
        precheck(s)
    sc = scenario_mod.parse(text, "rfc8456")
    runners = _with_load(runner.load_runners(sc))
    versions = runner.check_components(sc)
    with Store(args.store) as store:
        run_id = runner.start(store, sc, versions=versions)
        print(f"run {run_id}: {sc.description}, {len(store.cells(run_id))} trials, store {store.dir}"
              + _estimate(controllers, args.profile, only, api), file=sys.stderr)
        outcome = runner.execute(store, run_id, sc, runners)
    _done(outcome)
    return _write_report(args, str(run_id))


def _estimate(controllers: list, profile: str, only, api) -> str:
    from ..rfc8456.suite import estimate_s, plan
    s = estimate_s(plan(controllers, only, api), profile or "default")
    return f"; about {s / 60:.0f} min ({s:.0f} s: each test's quick trial as measured on 2 cores)" if s else ""


def scenario_text(controllers: list, profile: str, only, api=None) -> str:
    import yaml
    from ..rfc8456.evaluation import header
    from ..rfc8456.suite import scenario_for
    doc = scenario_for(controllers, profile, only, api=api)
    if not doc["benchmarks"]:
        from ..rfc8456.suite import label, not_applicable
        why = "; ".join(dict.fromkeys(f"{p.test.slug} on {label(p.controller)}: {p.reason}"
                                      for p in not_applicable(controllers, only, api)))
        raise UserError("no test applies to " + ", ".join(controllers) + " with --only " + ",".join(only or [])
                        + (f" ({why})" if why else ""))
    return header(controllers, profile, only, api) + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def _resume(args) -> int:
    from ..rfc8456.evaluation import parse_header
    with Store(args.store, create=False) as store:
        info = store.run(args.resume)
        parse_header(info.scenario_text)
        sc = scenario_mod.parse(info.scenario_text, f"run {info.id}")
        left = info.counts.get("pending", 0) + info.counts.get("running", 0)
        if left:
            runners = _with_load(runner.load_runners(sc))
            runner.check_components(sc)
            print(f"run {info.id}: resuming, {left} of {sum(info.counts.values())} trials left", file=sys.stderr)
            _done(runner.execute(store, info.id, sc, runners))
        else:
            print(f"run {info.id} is complete; nothing to resume", file=sys.stderr)
    return _write_report(args, str(info.id))


def _with_load(runners: dict) -> dict:
    """Each trial's Result records the 1-minute load average before and after it (the machine
    is shared: the report says how loaded it was)."""
    def wrap(fn):
        def measured(params):
            before = os.getloadavg()[0]
            r = fn(params)
            if hasattr(r, "machine") and isinstance(r.machine, dict):
                r.machine["loadavg_before"], r.machine["loadavg_after"] = before, os.getloadavg()[0]
            return r
        return measured
    return {k: wrap(f) for k, f in runners.items()}


def _done(outcome) -> None:
    failed = f", {outcome.failed} failed" if outcome.failed else ""
    print(f"run {outcome.run_id}: {outcome.ok} ok{failed} of {outcome.total} trials", file=sys.stderr)


def _write_report(args, ref: str) -> int:
    from ..rfc8456.evaluation import evaluate, parse_header
    from ..rfc8456.evaluation_report import build
    with Store(args.store, read_only=True) as store:
        info = store.run(ref)
        meta = parse_header(info.scenario_text)
        rows = [(cell.benchmark, cell.repetition, r) for cell, r in store.results(info.id)]
        planned: dict = {}
        for c in store.cells(info.id):
            planned[c.benchmark] = planned.get(c.benchmark, 0) + 1
        ends = [r.finished for _, _, r in rows if r.finished]
        run_info = {"id": info.id, "name": info.name, "status": info.status, "started": info.created,
                    "finished": max(ends) if ends else info.finished}
    cells = evaluate(meta, rows, planned)
    report = build(meta, cells, run_info)
    if args.output is None:
        from ..report import export_md
        print(export_md.render(report), end="")
    else:
        from ..report.export import write
        write(report, args.output, _format(args.output))
        print(f"wrote {args.output}", file=sys.stderr)
        if args.check:
            _check(report, args.output)
    # as `sdnbench run`: exit 2 when a trial failed or nothing was measured
    failed = any(t.result.status != "ok" for c in cells.values() for t in c.trials)
    return 2 if failed or not rows else 0


def _check(report, path: Path) -> None:
    from ..report.browser import check_page
    shot = path.with_suffix(".png")
    page = check_page(path, screenshot=shot)
    problems = page.problems(expect_tables=len(report.all_tables()), expect_figures=0)
    print(f"checked in {page.chromium}: {len(page.tables)} tables; screenshot {shot}", file=sys.stderr)
    if problems:
        raise CheckFailed(f"{len(problems)} problem(s) in {path}: " + "; ".join(problems[:5]))
