"""Help, choices and defaults come from the registries they restate: the controller kinds in help
texts, ``--mode`` from the engine's modes and the suites' tables, ``--of`` defaults defined once
(no flag default that ``set_defaults`` overrides)."""

import argparse
import ast
from pathlib import Path

from sdnbench import commands

from sdnbench.cli import build_parser
from sdnbench.controllers.kinds import CONTROLLER_KINDS
from sdnbench.controllers.lifecycle import LAUNCH_OF_VERSION
from sdnbench.engine.params import DEFAULT_MODE, MODES, engine_defaults
from sdnbench.rfc8456 import provisioning_params, resilience_params
from sdnbench.robustness import exceptions_trial


def _sub(*path):
    p = build_parser()
    for name in path:
        p = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    return p


def _flag(p, flag):
    return next(a for a in p._actions if flag in a.option_strings)


def test_every_controller_kind_is_in_the_help_that_lists_them():
    texts = {"net run --controller": _flag(_sub("net", "run"), "--controller").help,
             "controllers": _sub("controllers").format_help().replace("\n", " ")}
    for where, text in texts.items():
        for kind in CONTROLLER_KINDS.values():
            assert kind.form in text, (where, kind.form)


def test_mode_choices_and_defaults_are_the_engines_and_the_tables():
    from sdnbench.commands.controller import OWN_COMMAND
    bench = _flag(_sub("controller", "bench"), "--mode")
    assert set(OWN_COMMAND) < set(MODES)
    assert list(bench.choices) == [m for m in MODES if m not in OWN_COMMAND]
    assert bench.default == DEFAULT_MODE == engine_defaults()["mode"]
    exc = _flag(_sub("controller", "exceptions"), "--mode")
    assert list(exc.choices) == list(exceptions_trial.MODES) and set(exc.choices) <= set(MODES)
    assert exc.default == exceptions_trial.DEFAULTS["mode"] == DEFAULT_MODE
    for family in ("provisioning", "table-capacity"):
        mode = _flag(_sub("controller", family), "--mode")
        assert {f"{family}-{m}" for m in mode.choices} <= set(provisioning_params.TESTS.values())
        assert mode.default == provisioning_params.PARAMS.defaults["test"]


def _overrides(tree) -> list:
    """``set_defaults(of_version=...)`` calls: a second default for ``--of``, the flag's own dead."""
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "set_defaults"
            and any(k.arg == "of_version" for k in n.keywords)]


def test_no_of_default_is_overridden_and_each_is_defined_where_it_is_decided():
    found = {p.name: _overrides(ast.parse(p.read_text())) for p in Path(commands.__file__).parent.glob("*.py")
             if not p.name.startswith("test_")}
    assert not {k: v for k, v in found.items() if v}
    assert _overrides(ast.parse("p.set_defaults(func=f, of_version=None)")) == [1]     # the check finds one
    assert _flag(_sub("controller", "bench"), "--of").default is None           # negotiated
    assert _flag(_sub("controller", "failover"), "--of").default == resilience_params.DEFAULTS["failover"]["of_version"]
    assert _flag(_sub("controllers", "start"), "--of").default == LAUNCH_OF_VERSION
