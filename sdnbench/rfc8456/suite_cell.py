"""The ``rfc8456`` campaign kind: the RFC 8456 tests that have no kind of their own, each read
from its ``Test`` record (``suite.py``): the record's ``trial`` runs one cell, its ``cell`` (a
parameter table) says which keys a cell takes and each key's rule, and its ``params`` are a
cell's own defaults. Today: ``exceptions`` (§5.3.1, ``exception_handling``) and
``discovery-size`` (§5.2.2, ``discovery_size``). A new test of this kind is its trial module and
its record; nothing here changes.

Every other suite test runs through its own kind (``controller``, ``discovery``, ...).
"""

from __future__ import annotations

from typing import Any, Optional

from ..errors import UserError
from ..kind import Kind
from ..paramcheck import META, columns
from ..result import Result
from .suite import TESTS as SUITE

CELLS = {t.slug: t for t in SUITE if t.kind == "rfc8456"}
TESTS = tuple(CELLS)
KEYS = {slug: set(columns(t.cell)[0]) for slug, t in CELLS.items()}
KNOWN = {"test"}.union(*KEYS.values())
# each key's rules, from every test's table that has one for it
RULES: dict = {}
for _t in CELLS.values():
    for _k, _rule in columns(_t.cell)[2].items():
        RULES.setdefault(_k, []).append(_rule)


def validate_param(name: str, value: Any) -> Optional[str]:
    if name in META:
        return None
    if name not in KNOWN:
        return f"unknown rfc8456 parameter {name!r}; known: {', '.join(sorted(KNOWN))}"
    if name == "test" and value not in TESTS:
        return f"test must be one of {', '.join(TESTS)}"
    return next((msg for msg in (rule(value) for rule in RULES.get(name, ())) if msg), None)


def run_test(params: dict) -> Result:
    t = CELLS.get(params.get("test"))
    if t is None:
        raise UserError(f"an rfc8456 cell needs test: {' or '.join(TESTS)}")
    return t.trial(params, t.params)


def check_cell(params: dict) -> list:
    """Every problem of one cell's combination of keys (``run --dry-run``), by its test's
    table; keys are checked one by one first (``validate_param``)."""
    t = CELLS.get(params.get("test"))
    problems = getattr(t.cell, "problems", None) if t else None
    return problems(params, t.params) if problems else []


KIND = Kind("rfc8456", "sdnbench.rfc8456.suite_cell", "run_test", ("engine",),
            "RFC 8456 exception handling (§5.3.1, clean/1%/2% invalid) or network discovery size "
            "(§5.2.2, a size search) as one trial of `sdnbench rfc8456`", validate_param, check_cell)
