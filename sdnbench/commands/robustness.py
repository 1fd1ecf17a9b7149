"""``sdnbench controller robustness``: named malformed-message and southbound-attack cases
(``sdnbench-engine robust-cases``; docs/robustness.md), one emulated switch playing each while
the others keep a measured background load; a verdict per case and controller.

    sdnbench controller robustness --controller osken:learning --controller ryu:simple_switch_13
    sdnbench controller robustness --controller tcp:127.0.0.1:6653 --cases length-zero,garbage --json

Exit 2 when a controller crashed or hung on a case (the measured check failed)."""

from __future__ import annotations

import sys

from .. import output
from ..controllers.spec import DEFAULT_SPEC, display_name
from ..engine.result_types import Observation
from ..errors import UserError
from ..paramcheck import once_each
from ..result import write_json_atomic
from ..robustness import cases as case_list
from ..robustness import exceptions, exceptions_trial
from ..robustness import netns, stable
from ..robustness.runner import SYN_CASES, SYN_RATE, run_cases
from ..robustness.table import verdict_table
from ..robustness.verdicts import DROP, HUNG_MS
from ..store.cli import save_if_asked
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
    results, table = [], {}
    for spec in specs:
        name, verdicts = display_name(spec), []
        if name in table:                      # two specs with one display name: keep both columns
            name = f"{name} ({len(table) + 1})"

        def on_case(r, v, name=name, verdicts=verdicts):
            results.append(r)
            verdicts.append(v)
            _save(args, results)  # rewritten per case
            if getattr(args, "store", None):
                save_if_asked(args, r)
            if not args.json:
                print(f"{name:<20} rep {r.params.get('rep', 0) + 1} {v.case:<26} {v.verdict:<9} {v.evidence}",
                      file=sys.stderr)

        run_cases(spec, chosen, of_version=args.of_version, background=bg, drop=args.drop, reps=args.reps,
                  hung_ms=args.hung_ms, syn_rate=args.syn_rate, on_case=on_case)
        table[name] = stable.by_case(verdicts)
        for r in results[-len(verdicts):]:   # every repetition's result carries the case's stable verdict
            r.counters["robustness_stable"] = table[name][r.counters["robustness"]["case"]].to_dict()
    _save(args, results)
    if args.json:
        output.print_json([r.to_dict() for r in results])
    else:
        print(verdict_table(table, chosen))
    bad = [s for t in table.values() for s in t.values() if {"crashed", "hung"} & set(s.per_rep)]
    return 2 if bad else 0


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
    results, rows, queues, verdicts = [], [], [], {}
    for spec in specs:
        name = display_name(spec)
        for r, v in run_cases(spec, cases, of_version=args.of_version, background=bg, syn_rate=args.syn_rate,
                              reps=args.reps):
            results.append(r)
            _save(args, results)
            rows.append(dos_row(name, r, v))
            verdicts.setdefault(name, []).append(v)
            lq = r.counters["robustness"].get("listen_queue")
            if lq is not None:
                queues.append(f"{name} syn-flood rep {r.params.get('rep', 0) + 1}: listen queue (root namespace, TcpExt) "
                              + (", ".join(f"{k} +{n:,}" for k, n in lq.items()) or "no counters"))
    if getattr(args, "store", None):
        for r in results:
            save_if_asked(args, r)
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
    base = {"controller": args.controller, "of_version": args.of_version, "mode": args.mode,
            "switches": args.switches, "loops": args.loops, "loop_ms": args.loop_ms, "warmup": args.warmup,
            "reconnect": args.reconnect == "on",
            **{k: getattr(args, k, None) for k in ("rate", "workers", "max_backoff_ms")}}
    results: list = []

    def done(r) -> None:
        results.append(r)
        _save(args, results)
        if not args.json and r.params.get("variant"):
            rate = exceptions.per_loop(r)
            mean = sum(rate) / len(rate) if rate else 0.0
            print(f"rep {r.params['rep']} {r.params['variant']:<5} {mean:>12,.0f} answered/s  invalid sent "
                  f"{r.counters.get('invalid_packet_ins_sent', 0):,}  sessions lost "
                  f"{r.counters.get('sessions_lost', 0):,}, re-established {r.counters.get('reconnects', 0):,}",
                  file=sys.stderr)

    runs, of = exceptions_trial.run(base, args.reps, on_run=done)
    rows = exceptions.summarize(runs)
    for r in results:
        r.counters["exceptions_summary"] = rows
    _save(args, results)
    if args.json:
        output.print_json([r.to_dict() for r in results])
    else:
        head, body, align = exceptions.table_rows(rows)
        print(f"OpenFlow {of or 'not negotiated (no HELLO)'}; switches reconnect: {args.reconnect}")
        print(output.table(head, body, align=align))
    if getattr(args, "store", None):
        for r in results:
            save_if_asked(args, r)
    return 0 if all(_measured(r) for r in results) else 2


def _measured(r) -> bool:
    """A run that measured: ok, or, with invalid packet-ins, one whose sessions were lost (the
    engine says partial, or failed when every switch was down at the stop): that is the figure."""
    if r.status == "ok":
        return True
    return r.params.get("variant") != "clean" and (r.status == "partial" or r.counters.get("sessions_lost", 0) > 0)


def _save(args, results: list) -> None:
    if args.out:
        write_json_atomic(args.out, [x.to_dict() for x in results])
