"""The parameters of ``switch bench`` and of the ``switch`` campaign kind, each once: type,
default, rule and its flag's help (``paramcheck.Params``). The command line, ``run --dry-run``
and a cell build the same ``SwitchBench``; ``runner.binary_args`` is the one mapping to the
``sdnbench-switch`` binary's flags.

A cell runs one ``test`` against one ``target``; the command runs several (``--test`` a comma
list) against one target it builds once."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional, Union

from ..errors import UserError
from ..paramcheck import Params, choice, param

TESTS = ("insertion", "barrier", "packet-in", "packet-out", "capacity", "stats", "first-packet", "pipeline")
MAX_FLOWS = 1 << 24


def table_range(value) -> tuple:
    """``4`` or ``"4"`` -> (1, 4); ``"2..4"`` -> (2, 4)."""
    text = str(value)
    a, _, b = text.partition("..") if ".." in text else ("1", "", text)
    try:
        lo, hi = int(a), int(b)
    except ValueError:
        raise UserError(f"--tables: want N or A..B, got {value!r}")
    if not 1 <= lo <= hi <= 254:
        raise UserError(f"--tables: want N or A..B with 1 <= A <= B <= 254, got {value!r}")
    return lo, hi


def _tests(v: Any) -> Optional[str]:
    items = list(v) if isinstance(v, (list, tuple)) else None
    bad = [t for t in items or [] if t not in TESTS]
    if items is None or bad or not items:
        return f"unknown {', '.join(map(str, bad)) or 'nothing'} (known: {','.join(TESTS)})"
    return None


def _flows(v: Any) -> Optional[str]:
    items = [v] if isinstance(v, int) and not isinstance(v, bool) else v
    if (not isinstance(items, (list, tuple)) or not items
            or any(not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= MAX_FLOWS for f in items)):
        return f"want positive counts up to {MAX_FLOWS}, got {v}"
    return None


def _tables(v: Any) -> Optional[str]:
    try:
        table_range(v)
    except UserError as e:
        return str(e).replace("--tables: ", "")
    return None


def _count(low: int) -> Any:
    def rule(v: Any) -> Optional[str]:
        ok = isinstance(v, int) and not isinstance(v, bool) and v >= low
        return None if ok else f"want a whole number, {low} or more, got {v!r}"
    return rule


def _seconds(v: Any) -> Optional[str]:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
    return None if ok else f"want a number of seconds above 0, got {v!r}"


def _frame(v: Any) -> Optional[str]:
    ok = isinstance(v, int) and not isinstance(v, bool) and 60 <= v <= 1514
    return None if ok else f"want 60 to 1514 bytes, got {v!r}"


def _text(v: Any) -> Optional[str]:
    return None if isinstance(v, str) and v else f"a switch target is text such as ovs, got {v!r}"


@dataclass(frozen=True)
class SwitchBench:
    """One ``sdnbench-switch`` session against a target: which tests, and how each measures."""
    target: str = param("ovs", _text, help="ovs | ovs-netdev | ovs-system | cpqd | remote:PORT,IF1,IF2")
    tests: tuple = param(("insertion",), _tests, flag="--test")
    flows: tuple = param((1, 100), _flows)
    barrier: bool = param(False)
    tables: Union[int, str] = param(4, _tables)
    reps: int = param(100, _count(1), help="samples per latency figure (100)")
    duration: float = param(2.0, _seconds, help="seconds per throughput phase (2)")
    max_flows: int = param(100_000, _count(1), help="capacity: stop here (100000)")
    batch: int = param(1000, _count(1), help="capacity: flows per barrier (1000)")
    table_limit: Optional[int] = param(None, _count(1), help="OVS: make table 0 refuse flows beyond N")
    probe_pps: int = param(20_000, _count(0), help="insertion probe rate (20000; 0 = flat out)")
    frame_size: int = param(60, _frame, help="bytes per probe frame, 60..1514 (60)")
    of: str = param("1.3", choice(("1.0", "1.3")))
    accept_timeout: float = param(30.0, _seconds, help="seconds to wait for the switch (30)")
    timeout: float = param(10.0, _seconds, help="longest wait for a reply, or for every flow to forward (10)")
    stats_interval_ms: int = param(0, _count(0))

    @property
    def depth(self) -> tuple:
        """The pipeline depths (lo, hi) of ``tables``."""
        return table_range(self.tables)


def _together(p: dict) -> list:
    if "pipeline" in p["tests"] and p["of"] == "1.0" and table_range(p["tables"])[1] > 1:
        return [("tests", "pipeline with --tables > 1 needs --of 1.3 (OpenFlow 1.0 has one table)")]
    return []


PARAMS = Params.table("switch", SwitchBench, _together)


def build(params: dict, cli: bool = True) -> SwitchBench:
    """The typed parameters: every problem in one line (by flag, or by key with ``cli=False``);
    ``flows`` and ``tests`` as tuples, ``tables`` as N (1..N) or ``"A..B"``."""
    given = {k: v for k, v in params.items() if v is not None}
    if isinstance(given.get("flows"), int):
        given["flows"] = [given["flows"]]
    p = PARAMS.build(given, cli)
    lo, hi = p.depth
    return replace(p, tests=tuple(p.tests), flows=tuple(p.flows), tables=hi if lo == 1 else f"{lo}..{hi}")


def validate_param(name: str, value: Any) -> Optional[str]:
    """One key of a ``switch`` cell: ``test`` is one of the tests; the others as the table says."""
    if name == "test":
        return None if value in TESTS else f"unknown switch test {value!r} (known: {', '.join(TESTS)})"
    if name == "tests":
        return f"unknown switch parameter {name!r}; a cell runs one test: use test"
    if name == "flows" and isinstance(value, int):
        value = [value]
    return PARAMS.validate_param(name, value)


def cell(params: dict) -> SwitchBench:
    """A cell's typed parameters: its ``test`` as the one test; a cell with none is one line."""
    p = dict(params)
    test = p.pop("test", None)
    if test is None:
        raise UserError("a switch cell needs `test:` (one of " + ", ".join(TESTS) + ")")
    return build({**p, "tests": [test]}, cli=False)


def check_cell(params: dict) -> list:
    """A cell's keys together (each is checked on its own first): its one test, and the rules
    that need several keys."""
    if "test" not in params:
        return [("test", "a switch cell needs a test (one of " + ", ".join(TESTS) + ")")]
    p = {k: v for k, v in params.items() if k != "test"}
    if isinstance(p.get("flows"), int):
        p["flows"] = [p["flows"]]
    return PARAMS.check_cell({**p, "tests": [params["test"]]})
