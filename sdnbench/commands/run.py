"""``sdnbench run SCENARIO``: run a campaign from a scenario file into the results store.

Every finished cell is committed at once; Ctrl-C or kill -9 loses at most the cell in progress,
and ``--resume RUN`` measures only what is left. A failing cell is recorded with its reason and
the campaign goes on.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..outputs import Outputs
from ..campaign import runner, scenario as scenario_mod
from ..campaign.plan import Overrides, label, plan
from ..errors import UserError
from ..redact import keep
from ..output import add_json_flag, print_json
from ..output import add_store_flag as output_add_store_flag
from ..store import Store


def register(sub) -> None:
    p = sub.add_parser("run", help="run a campaign from a scenario file", description=__doc__)
    p.add_argument("scenario", nargs="?", type=Path, help="the scenario file (YAML)")
    add_store_flag(p)
    p.add_argument("--resume", metavar="RUN", help="continue run RUN (an id or `latest`) where it stopped")
    p.add_argument("--quick", action="store_true",
                   help="run the scenario's quick: block (without one: one repetition, no warm-up, no pause)")
    p.add_argument("--repetitions", type=int, metavar="N", help="override every benchmark's repetitions")
    p.add_argument("--dry-run", action="store_true", help="validate and print the plan; measure nothing")
    add_json_flag(p)
    p.set_defaults(func=run)


def add_store_flag(p) -> None:
    """Kept for importers; the one definition is ``sdnbench.output.add_store_flag``."""
    output_add_store_flag(p)


def run(args, outputs: Outputs) -> int:
    if args.resume is not None:
        return _resume(args, outputs)
    if args.scenario is None:
        raise UserError("give a scenario file (or --resume RUN); see `sdnbench run --help`")
    sc = scenario_mod.load(args.scenario, quick=args.quick)
    overrides = _overrides(args, sc)
    if args.dry_run:
        return _dry_run(sc, overrides, outputs.json)
    runners = runner.load_runners(sc)
    versions = runner.check_components(sc)
    with Store(outputs.store) as store:
        run_id = runner.start(store, sc, overrides, versions)
        info = store.run(run_id)
        print(f"run {run_id}: {sc.name}, {sum(info.counts.values())} cells, seed {info.seed}, "
              f"store {store.dir}", file=sys.stderr)
        outcome = runner.execute(store, run_id, sc, runners, overrides=overrides)
    return _report(outcome, store.dir, outputs.json)


def _resume(args, outputs: Outputs) -> int:
    if args.quick or args.repetitions is not None:
        raise UserError("--resume keeps the schedule the run started with; drop --quick/--repetitions")
    with Store(outputs.store, create=False) as store:
        info = store.run(args.resume)
        if info.kind != "campaign" or not info.scenario_text:
            raise UserError(f"run {info.id} is a single {info.name} result, not a campaign; nothing to resume")
        if args.scenario is not None:
            try:
                text = args.scenario.read_text()
            except OSError as e:
                raise UserError(f"{args.scenario}: {e}")
            if keep(text) != info.scenario_text:       # a URL's password was stored masked (and is kept now)
                raise UserError(f"{args.scenario} has changed since run {info.id} started; resume with "
                                f"`sdnbench run --resume {info.id}` (it uses the stored scenario) or start a new run")
        overrides = Overrides(**info.options)
        sc = scenario_mod.parse(info.scenario_text, info.scenario_path or f"run {info.id}'s scenario",
                                quick=overrides.quick)
        left = info.counts.get("pending", 0) + info.counts.get("running", 0)
        if left == 0:
            print(f"run {info.id} is complete ({info.counts.get('ok', 0)} ok, "
                  f"{info.counts.get('failed', 0)} failed); nothing to resume", file=sys.stderr)
            return 2 if info.counts.get("failed", 0) or not info.counts.get("ok", 0) else 0
        runners = runner.load_runners(sc)
        runner.check_components(sc)
        print(f"run {info.id}: resuming {sc.name}, {left} of {sum(info.counts.values())} cells left",
              file=sys.stderr)
        outcome = runner.execute(store, info.id, sc, runners, overrides=overrides)
    return _report(outcome, store.dir, outputs.json)


def _overrides(args, sc) -> Overrides:
    if args.repetitions is not None and args.repetitions < 1:
        raise UserError("--repetitions must be at least 1")
    if args.quick and not _has_quick_block(sc.text):
        return Overrides(quick=True, repetitions=args.repetitions or 1, warmup=0, pause=0.0)
    return Overrides(quick=args.quick, repetitions=args.repetitions)


def _has_quick_block(text: str) -> bool:
    from ..yamlload import YamlError, load
    try:
        data = load(text, "")
    except YamlError:
        return False
    return isinstance(data, dict) and "quick" in data


def _dry_run(sc, overrides: Overrides, as_json: bool) -> int:
    cells = plan(sc, sc.seed if sc.seed is not None else 0, overrides)
    benches = {b.name: b for b in sc.benchmarks}
    if as_json:
        print_json({"name": sc.name, "cells": [vars(c) for c in cells]})
        return 0
    seed = sc.seed if sc.seed is not None else "drawn at start (0 shown)"
    print(f"{sc.name}: {len(cells)} cells, order {sc.order}, seed {seed}")
    for i, c in enumerate(cells, 1):
        print(f"{i:4d}  {c.kind:10s} {label(benches[c.benchmark], c.params, c.repetition)}")
    return 0


def _report(outcome, store_dir, as_json: bool) -> int:
    if as_json:
        print_json(vars(outcome))
    failed = f", {outcome.failed} failed" if outcome.failed else ""
    state = "done" if not outcome.failed and outcome.ok else "FAILED"
    print(f"run {outcome.run_id} {state}: {outcome.ok} ok{failed} of {outcome.total} cells; "
          f"see `sdnbench results show {outcome.run_id} --store {store_dir}`", file=sys.stderr)
    return 0 if state == "done" else 2
