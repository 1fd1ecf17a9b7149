"""``sdnbench controller robustness``: named malformed-message and southbound-attack cases
(``sdnbench-engine robust-cases``; docs/robustness.md), one emulated switch playing each while
the others keep a measured background load; a verdict per case and controller.

    sdnbench controller robustness --controller osken:learning --controller ryu:simple_switch_13
    sdnbench controller robustness --controller tcp:127.0.0.1:6653 --cases length-zero,garbage --json

Exit 2 when a controller crashed or hung on a case (the measured check failed)."""

from __future__ import annotations

import contextlib
import sys

from .. import output
from ..campaign.plan import cell_key
from ..controllers.spec import DEFAULT_SPEC, display_name
from ..engine.result_types import Observation
from ..errors import UserError
from ..paramcheck import once_each
from ..robustness import cases as case_list
from ..robustness import exceptions, exceptions_trial
from ..robustness import netns, stable
from ..robustness.runner import SYN_CASES, SYN_RATE, CaseRun
from ..robustness.table import verdict_table
from ..robustness.verdicts import DROP, HUNG_MS
from ..store import CellSpec
from ._results import run_trials, save
from ._flags import above_zero


def add_to(s, common) -> None:
    r = s.add_parser("robustness", help="issue 16 / RFC 8456 §5.3: malformed messages and attacks, a verdict per case",
                     description=__doc__)
    common(r, multi_controller=True)
    r.add_argument("--cases", help="comma-separated case names (all that apply to --of)")
    r.add_argument("--list", action="store_true", help="list the cases (name, family, source) and exit")
    r.add_argument("--rate", type=float, help="background offered requests/s (1000; Faucet: 200)")
    r.add_argument("--switches", type=int, default=4, help="background switches (4)")
    r.add_argument("--drop", type=float, default=DROP, help=f"rate drop that counts as degraded ({DROP})")
    r.add_argument("--hung-ms", type=above_zero, default=HUNG_MS, help=f"silence that counts as hung ({HUNG_MS} ms)")
    r.add_argument("--syn-rate", type=int, default=SYN_RATE, help=f"syn-flood: SYNs/s ({SYN_RATE}; needs root)")
    r.add_argument("--reps", type=int, default=3, help="repetitions, each against a fresh launch (3)")
    r.set_defaults(func=run_robustness, of_version=None)  # without --of: negotiated, as controller bench

    e = s.add_parser("exceptions", help="RFC 8456 §5.3.1: load runs clean, with 1%% and 2%% invalid packet-ins",
                     description=exceptions.__doc__)
    common(e)
    e.add_argument("--mode", default=exceptions_trial.DEFAULTS["mode"], choices=["throughput", "fixed-rate"])
    e.add_argument("--rate", type=float, help="offered requests/s (fixed-rate)")
    for flag in ("switches", "loops", "loop_ms", "warmup"):
        d = exceptions_trial.DEFAULTS[flag]
        e.add_argument("--" + flag.replace("_", "-"), type=int, default=d, help=f"({d})")
    e.add_argument("--reps", type=int, default=3, help="repetitions of each variant, interleaved (3)")
    e.add_argument("--reconnect", choices=["on", "off"], default="on",
                   help="switches re-establish a lost session with Open vSwitch's backoff (on)")
    e.add_argument("--max-backoff-ms", type=int, help="reconnect: the longest wait (OVS max_backoff, 8000)")
    e.set_defaults(func=run_exceptions, of_version=None)  # without --of: negotiated once per launch

    d = s.add_parser("dos", help="RFC 8456 §5.3.2: service to legitimate switches under connection, packet-in and SYN floods",
                     description="The denial-of-service cases of the robustness suite (" + ", ".join(DOS_CASES) +
                     "): the legitimate switches' answered rate before, during and after each attack.")
    common(d, multi_controller=True)
    d.add_argument("--rate", type=float, help="legitimate offered requests/s (1000; Faucet: 200)")
    d.add_argument("--switches", type=int, default=4, help="legitimate switches (4)")
    d.add_argument("--syn-rate", type=int, default=SYN_RATE, help=f"syn-flood: SYNs/s ({SYN_RATE})")
    d.add_argument("--cases", help="comma-separated attacks, some of " + ", ".join(DOS_CASES) + " (all)")
    d.add_argument("--no-syn", action="store_true", help="leave the SYN flood out (it needs root: a network namespace)")
    d.add_argument("--reps", type=int, default=3, help="repetitions, each against a fresh launch (3)")
    d.set_defaults(func=run_dos, of_version=None)  # without --of: negotiated, as controller bench


def run_robustness(args) -> int:
    if args.list:
        rows = [[c["name"], c["family"], "1.3" if c["of13_only"] else "1.0, 1.3", c["source"]] for c in case_list.catalogue()]
        if args.json:
            output.print_json(list(case_list.catalogue()))
        else:
            print(output.table(["case", "family", "OpenFlow", "source"], rows, align="llll"))
        return 0
    if not 0 < args.drop < 1:
        raise UserError("--drop must be between 0 and 1 (a fraction of the rate before the case)")
    _check_reps(args)
    chosen = case_list.select(args.cases, args.of_version)
    if not args.cases and SYN_CASES[0] in chosen and netns.cannot_run():
        chosen = [c for c in chosen if c not in SYN_CASES]     # "all" here: every case this machine can run
        print(f"note: {netns.cannot_run()}: left out", file=sys.stderr)
    specs = once_each("--controller", args.controller or [DEFAULT_SPEC])
    bg = {"rate": args.rate, "switches": args.switches}
    if args.workers is not None:
        bg["workers"] = args.workers

    def said(name, r, v) -> None:
        if not args.json:
            print(f"{name:<20} rep {r.params.get('rep', 0) + 1} {v.case:<26} {v.verdict:<9} {v.evidence}",
                  file=sys.stderr)
    results, seen = _cases(args, specs, chosen, dict(background=bg, drop=args.drop, hung_ms=args.hung_ms,
                                                      syn_rate=args.syn_rate), said)
    table = {name: stable.by_case([v for n, v in seen if n == name]) for name in _names(specs)}
    for r, (name, _) in zip(results, seen):   # every repetition's result carries the case's stable verdict
        r.counters["robustness_stable"] = table[name][r.counters["robustness"]["case"]].to_dict()
    save(args, results)
    if args.json:
        output.print_json([r.to_dict() for r in results])
    else:
        print(verdict_table(table, chosen))
    bad = [s for t in table.values() for s in t.values() if {"crashed", "hung"} & set(s.per_rep)]
    return 2 if bad else 0


def _names(specs: list) -> list:
    """Each controller's display name; two specs with one name keep both columns."""
    names: list = []
    for spec in specs:
        name = display_name(spec)
        names.append(f"{name} ({len(names) + 1})" if name in names else name)
    return names


def _cases(args, specs: list, cases: list, kw: dict, said) -> tuple:
    """Every case of every controller (repetitions in order, a fresh launch each), each case and
    repetition a cell of one plan on the campaigns' executor (``_results.run_trials``): kept as
    it ends (``-o`` rewritten, ``--store`` committed); Ctrl-C/SIGTERM keeps what finished, as
    ``controller bench``. ``said(name, result, verdict)`` after each. Returns the results and
    [(name, Verdict)] in the same order."""
    current: dict = {}
    seen: list = []
    fixed = {"of_version": args.of_version, **kw["background"], **{k: v for k, v in kw.items() if k != "background"}}

    def plan():
        for spec, name in zip(specs, _names(specs)):
            with CaseRun(spec, cases, of_version=args.of_version, reps=args.reps, **kw) as run:
                current.update(run=run, name=name)
                for rep, case in run.plan():
                    p = {k: v for k, v in {"controller": spec, "case": case, **fixed}.items() if v is not None}
                    yield CellSpec(cell_key("robustness", p, rep), "robustness", "robustness", p, rep)

    def one(cell):
        r, v = current["run"].one(cell.repetition, cell.params["case"])
        seen.append((current["name"], v))
        current["judged"] = r
        return r

    def told(r) -> None:
        """A case that was judged; not a trial that raised (a controller gone: no verdict)."""
        if r is current.get("judged"):
            said(seen[-1][0], r, seen[-1][1])

    with contextlib.closing(plan()) as cells:
        results = run_trials(args, cells, one, on_result=told, quiet=lambda r: True, kind="robustness")
    return results, seen


def _check_reps(args) -> None:
    if args.reps < 1:
        raise UserError("--reps must be at least 1")
    # counts the engine reads as unsigned: refused here by flag, not by the engine's JSON parser
    for flag, value in (("--syn-rate", getattr(args, "syn_rate", None)), ("--workers", getattr(args, "workers", None)),
                        ("--switches", getattr(args, "switches", None))):
        if value is not None and not 1 <= value < 1 << 32:
            raise UserError(f"{flag}: want a whole number, 1 or more, got {value}")


DOS_CASES = ("connection-flood", "no-hello", "handshake-never-finished", "packet-in-flood", "syn-flood")


def dos_row(name: str, r, v) -> list:
    """One line of the dos table: the attack's size, the legitimate switches' answered rate and
    latency p99 before / during / after, for one repetition."""
    ph = v.phases
    seen = r.counters["robustness"].get("observation")     # the engine's, as its Result keeps it
    obs = Observation.from_json(seen, "robustness") if seen else None
    idle = obs.idle if obs else None
    size = (f"{idle.opened:,} conns" + (f" ({idle.stopped_by})" if idle.limit > 1 else "") if idle else
            f"{obs.syn_sent:,} SYNs" if obs and obs.syn_sent else
            f"{obs.flood_sent:,} packet-ins" if obs and obs.flood_sent else "1 session")
    rel = lambda x: "-" if x is None or not ph.get("before") else f"{x / ph['before'] - 1:+.1%}"  # noqa: E731
    num = lambda x: "-" if x is None else f"{x:,.0f}"  # noqa: E731
    ms = lambda x: "-" if x is None else f"{x / 1000:.2f}"  # noqa: E731
    return [name, v.case, r.params.get("rep", 0) + 1, size, num(ph.get("before")), num(ph.get("during")),
            rel(ph.get("during")), num(ph.get("after")), rel(ph.get("after")),
            "/".join(ms(ph.get(f"lat_p99_{k}")) for k in ("before", "during", "after")),
            v.verdict + (" (restarted)" if v.restarted else "")]


def run_dos(args) -> int:
    _check_reps(args)
    specs = once_each("--controller", args.controller or [DEFAULT_SPEC])
    bg = {"rate": args.rate, "switches": args.switches}
    cases = _dos_cases(args)
    rows, queues, verdicts = [], [], {}

    def said(name, r, v) -> None:
        rows.append(dos_row(name, r, v))
        verdicts.setdefault(name, []).append(v)
        lq = r.counters["robustness"].get("listen_queue")
        if lq is not None:
            queues.append(f"{name} syn-flood rep {r.params.get('rep', 0) + 1}: listen queue (root namespace, TcpExt) "
                          + (", ".join(f"{k} +{n:,}" for k, n in lq.items()) or "no counters"))
    results, _ = _cases(args, specs, cases, dict(background=bg, syn_rate=args.syn_rate), said)
    if args.json:
        output.print_json([r.to_dict() for r in results])
        return _dos_exit(verdicts)
    print(output.table(["controller", "attack (southbound port)", "rep", "size", "before/s", "during/s", "Δ during",
                        "after/s", "Δ after", "p99 ms b/d/a", "verdict"], rows, align="llrlrrrrrrl"))
    for q in queues:
        print(q)
    for name, vs in verdicts.items():
        print(f"{name}: " + "; ".join(f"{c} {s.cell}" for c, s in stable.by_case(vs).items()))
    return _dos_exit(verdicts)


def _dos_cases(args) -> list:
    """The attacks to run: ``--cases`` (a subset of DOS_CASES, refused by name otherwise), less the
    SYN flood when --no-syn says so or this machine cannot make its namespace (a note then, or a
    one-line refusal when --cases asked for it by name)."""
    known = [c for c in case_list.catalogue() if c["name"] in DOS_CASES]
    cases = case_list.select(args.cases, args.of_version, known=known) if args.cases else list(DOS_CASES)
    why = "--no-syn leaves it out" if args.no_syn else netns.cannot_run()
    if why and SYN_CASES[0] in cases:
        if args.cases:
            raise UserError(f"--cases: {SYN_CASES[0]} cannot run: {why}")
        if not args.no_syn:
            print(f"note: {why}: left out", file=sys.stderr)
        cases = [c for c in cases if c not in SYN_CASES]
    return cases


def _dos_exit(verdicts: dict) -> int:
    return 2 if any(v.verdict in ("crashed", "hung") for vs in verdicts.values() for v in vs) else 0


def run_exceptions(args) -> int:
    """Each run (a repetition of a variant) a cell on the campaigns' executor
    (``_results.run_trials``) against the one launch: kept as it ends (``-o`` rewritten,
    ``--store`` committed); Ctrl-C/SIGTERM keeps what finished, as ``controller bench``."""
    base = {"controller": args.controller, "of_version": args.of_version, "mode": args.mode,
            "switches": args.switches, "loops": args.loops, "loop_ms": args.loop_ms, "warmup": args.warmup,
            "reconnect": args.reconnect == "on",
            **{k: getattr(args, k, None) for k in ("rate", "workers", "max_backoff_ms")}}
    asked = {k: v for k, v in base.items() if v is not None}
    with exceptions_trial.Trial(base, args.reps) as trial:
        cells = [CellSpec(cell_key("exceptions", dict(asked, variant=v), rep), "exceptions", "controller",
                          dict(asked, variant=v), rep) for rep, v in trial.plan()]
        results = run_trials(args, cells, lambda c: trial.one(c.repetition, c.params["variant"]),
                             on_result=lambda r: _said(args, r), quiet=lambda r: True)
    runs: dict = {}
    for r in results:
        runs.setdefault(r.params["variant"], []).append(r)
    rows = exceptions.summarize(runs)
    for r in results:
        r.counters["exceptions_summary"] = rows
    save(args, results)
    if args.json:
        output.print_json([r.to_dict() for r in results])
    else:
        head, body, align = exceptions.table_rows(rows)
        print(f"OpenFlow {trial.of or 'not negotiated (no HELLO)'}; switches reconnect: {args.reconnect}")
        print(output.table(head, body, align=align))
    return 0 if all(_measured(r) for r in results) else 2


def _said(args, r) -> None:
    if not args.json and r.params.get("variant"):
        rate = exceptions.per_loop(r)
        mean = sum(rate) / len(rate) if rate else 0.0
        print(f"rep {r.params['rep']} {r.params['variant']:<5} {mean:>12,.0f} answered/s  invalid sent "
              f"{r.counters.get('invalid_packet_ins_sent', 0):,}  sessions lost "
              f"{r.counters.get('sessions_lost', 0):,}, re-established {r.counters.get('reconnects', 0):,}",
              file=sys.stderr)


def _measured(r) -> bool:
    """A run that measured: ok, or, with invalid packet-ins, one whose sessions were lost (the
    engine says partial, or failed when every switch was down at the stop): that is the figure."""
    if r.status == "ok":
        return True
    return r.params.get("variant") != "clean" and (r.status == "partial" or r.counters.get("sessions_lost", 0) > 0)
