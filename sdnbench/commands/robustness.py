"""``sdnbench controller robustness``: named malformed-message and southbound-attack cases
(``sdnbench-engine robust-cases``; docs/robustness.md), one emulated switch playing each while
the others keep a measured background load; a verdict per case and controller.

    sdnbench controller robustness --controller osken:learning --controller ryu:simple_switch_13
    sdnbench controller robustness --controller tcp:127.0.0.1:6653 --cases length-zero,garbage --json

Exit 2 when a controller crashed or hung on a case (the measured check failed)."""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace

from ..outputs import Outputs
from .. import output
from ..campaign.plan import cell_key
from ..controllers.spec import DEFAULT_SPEC, display_name
from ..engine.result_types import Observation
from ..engine.stored import EngineCounters
from ..robustness.stored import RobustnessCounters
from ..errors import UserError
from ..paramcheck import add_flags, once_each
from ..robustness import cases as case_list
from ..robustness import exceptions, exceptions_trial
from ..robustness import netns, stable
from ..robustness.params import Robustness, from_args
from ..robustness.runner import SYN_CASES, CaseRun
from ..robustness.table import verdict_table
from ..store import CellSpec
from ._results import run_trials, save


GROUP = "controller"      # a `sdnbench controller` subcommand (commands/_parser.members)


def add_to(s, common) -> None:
    r = s.add_parser("robustness", help="issue 16 / RFC 8456 §5.3: malformed messages and attacks, a verdict per case",
                     description=__doc__)
    common(r, multi_controller=True)
    r.add_argument("--cases", help="comma-separated case names (all that apply to --of)")
    r.add_argument("--list", action="store_true", help="list the cases (name, family, source) and exit")
    add_flags(r, Robustness, only=("rate", "switches", "drop", "hung_ms", "syn_rate", "reps"))
    r.set_defaults(func=run_robustness)

    e = s.add_parser("exceptions", help="RFC 8456 §5.3.1: load runs clean, with 1%% and 2%% invalid packet-ins",
                     description=exceptions.__doc__)
    common(e)
    e.add_argument("--mode", default=exceptions_trial.DEFAULTS["mode"], choices=list(exceptions_trial.MODES),
                   help="the engine's mode (default %(default)s)")
    e.add_argument("--rate", type=float, help="offered requests/s (fixed-rate)")
    for flag in ("switches", "loops", "loop_ms", "warmup"):
        d = exceptions_trial.DEFAULTS[flag]
        e.add_argument("--" + flag.replace("_", "-"), type=int, default=d, help=f"({d})")
    e.add_argument("--reps", type=int, default=3, help="repetitions of each variant, interleaved (3)")
    e.add_argument("--reconnect", choices=["on", "off"], default="on",
                   help="switches re-establish a lost session with Open vSwitch's backoff (on)")
    e.add_argument("--max-backoff-ms", type=int, help="reconnect: the longest wait (OVS max_backoff, 8000)")
    e.set_defaults(func=run_exceptions)  # without --of: negotiated once per launch

    d = s.add_parser("dos", help="RFC 8456 §5.3.2: service to legitimate switches under connection, packet-in and SYN floods",
                     description="The denial-of-service cases of the robustness suite (" + ", ".join(DOS_CASES) +
                     "): the legitimate switches' answered rate before, during and after each attack.")
    common(d, multi_controller=True)
    add_flags(d, Robustness, only=("rate", "switches", "syn_rate"))
    d.add_argument("--cases", help="comma-separated attacks, some of " + ", ".join(DOS_CASES) + " (all)")
    d.add_argument("--no-syn", action="store_true", help="leave the SYN flood out (it needs root: a network namespace)")
    add_flags(d, Robustness, only=("reps",))
    d.set_defaults(func=run_dos)


def run_robustness(args, outputs: Outputs) -> int:
    if args.list:
        rows = [[c["name"], c["family"], "1.3" if c["of13_only"] else "1.0, 1.3", c["source"]] for c in case_list.catalogue()]
        if outputs.json:
            output.print_json(list(case_list.catalogue()))
        else:
            print(output.table(["case", "family", "OpenFlow", "source"], rows, align="llll"))
        return 0
    p = from_args(args, ("of_version", "rate", "switches", "drop", "hung_ms", "syn_rate", "reps", "workers"))
    chosen = case_list.select(args.cases, p.of_version)
    if not args.cases and SYN_CASES[0] in chosen and netns.cannot_run():
        chosen = [c for c in chosen if c not in SYN_CASES]     # "all" here: every case this machine can run
        print(f"note: {netns.cannot_run()}: left out", file=sys.stderr)
    specs = once_each("--controller", args.controller or [DEFAULT_SPEC])

    def said(name, r, v) -> None:
        if not outputs.json:
            print(f"{name:<20} rep {r.params.get('rep', 0) + 1} {v.case:<26} {v.verdict:<9} {v.evidence}",
                  file=sys.stderr)
    results, seen = _cases(outputs, p, specs, chosen, said)
    table = {name: stable.by_case([v for n, v in seen if n == name]) for name in _names(specs)}
    for r, (name, _) in zip(results, seen):   # every repetition's result carries the case's stable verdict
        r.counters["robustness_stable"] = table[name][RobustnessCounters.of(r).robustness["case"]].to_dict()
    save(outputs, results)
    if outputs.json:
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


def _cases(outputs: Outputs, p: Robustness, specs: list, cases: list, said) -> tuple:
    """Every case of every controller (repetitions in order, a fresh launch each), each case and
    repetition a cell of one plan on the campaigns' executor (``_results.run_trials``): kept as
    it ends (``-o`` rewritten, ``--store`` committed); Ctrl-C/SIGTERM keeps what finished, as
    ``controller bench``. ``said(name, result, verdict)`` after each. Returns the results and
    [(name, Verdict)] in the same order. A cell's params are the ``robustness`` kind's (what
    ``sdnbench run`` would take to measure it again) but ``reps``: a cell is one repetition."""
    current: dict = {}
    seen: list = []
    kw = dict(background=p.background, drop=p.drop, hung_ms=p.hung_ms, syn_rate=p.syn_rate)

    def plan():
        for spec, name in zip(specs, _names(specs)):
            with CaseRun(spec, cases, of_version=p.of_version, reps=p.reps, **kw) as run:
                current.update(run=run, name=name)
                for rep, case in run.plan():
                    cp = {k: v for k, v in vars(replace(p, controller=spec, case=case)).items()
                          if v is not None and k != "reps"}
                    yield CellSpec(cell_key("robustness", cp, rep), "robustness", "robustness", cp, rep)

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
        results = run_trials(outputs, cells, one, on_result=told, quiet=lambda r: True, kind="robustness")
    return results, seen


DOS_CASES = ("connection-flood", "no-hello", "handshake-never-finished", "packet-in-flood", "syn-flood")


def dos_row(name: str, r, v) -> list:
    """One line of the dos table: the attack's size, the legitimate switches' answered rate and
    latency p99 before / during / after, for one repetition."""
    ph = v.phases
    seen = RobustnessCounters.of(r).robustness.get("observation")     # the engine's, as its Result keeps it
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


def run_dos(args, outputs: Outputs) -> int:
    p = from_args(args, ("of_version", "rate", "switches", "syn_rate", "reps", "workers"))
    specs = once_each("--controller", args.controller or [DEFAULT_SPEC])
    cases = _dos_cases(args)
    rows, queues, verdicts = [], [], {}

    def said(name, r, v) -> None:
        rows.append(dos_row(name, r, v))
        verdicts.setdefault(name, []).append(v)
        lq = RobustnessCounters.of(r).robustness.get("listen_queue")
        if lq is not None:
            queues.append(f"{name} syn-flood rep {r.params.get('rep', 0) + 1}: listen queue (root namespace, TcpExt) "
                          + (", ".join(f"{k} +{n:,}" for k, n in lq.items()) or "no counters"))
    results, _ = _cases(outputs, p, specs, cases, said)
    if outputs.json:
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


def run_exceptions(args, outputs: Outputs) -> int:
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
        results = run_trials(outputs, cells, lambda c: trial.one(c.repetition, c.params["variant"]),
                             on_result=lambda r: _said(outputs, r), quiet=lambda r: True)
    runs: dict = {}
    for r in results:
        runs.setdefault(r.params["variant"], []).append(r)
    rows = exceptions.summarize(runs)
    for r in results:
        r.counters["exceptions_summary"] = rows
    save(outputs, results)
    if outputs.json:
        output.print_json([r.to_dict() for r in results])
    else:
        head, body, align = exceptions.table_rows(rows)
        print(f"OpenFlow {trial.of or 'not negotiated (no HELLO)'}; switches reconnect: {args.reconnect}")
        print(output.table(head, body, align=align))
    return 0 if all(_measured(r) for r in results) else 2


def _said(outputs: Outputs, r) -> None:
    if not outputs.json and r.params.get("variant"):
        rate = exceptions.per_loop(r)
        mean = sum(rate) / len(rate) if rate else 0.0
        c = EngineCounters.of(r)
        print(f"rep {r.params['rep']} {r.params['variant']:<5} {mean:>12,.0f} answered/s  invalid sent "
              f"{c.invalid_packet_ins_sent or 0:,}  sessions lost "
              f"{c.sessions_lost or 0:,}, re-established {c.reconnects or 0:,}",
              file=sys.stderr)


def _measured(r) -> bool:
    """A run that measured: ok, or, with invalid packet-ins, one whose sessions were lost (the
    engine says partial, or failed when every switch was down at the stop): that is the figure."""
    if r.status == "ok":
        return True
    return r.params.get("variant") != "clean" and (r.status == "partial" or (EngineCounters.of(r).sessions_lost or 0) > 0)
