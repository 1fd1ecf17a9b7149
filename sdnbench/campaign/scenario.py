"""Scenario files: one YAML file describes a whole campaign.

```yaml
name: controllers-2x3                 # required
description: two controllers, three switch counts
seed: 42                              # for the randomized order; omitted -> drawn and recorded
order: random                         # random (default) or sequential
repetitions: 5                        # defaults for every benchmark, each may override them
warmup: 1                             # discarded runs before a combination's first repetition
pause: 0.5                            # seconds between two cells
benchmarks:
  - name: throughput                  # default: the kind
    kind: controller                  # see sdnbench.campaign.kinds
    params: {mode: throughput, loops: 5}          # the same in every cell
    matrix:                                       # the cross product, one cell per combination
      controller: [osken:learning, ryu:simple_switch_13]
      switches: [1, 4, 16]
```

Parsing keeps the line of every node (PyYAML's composed node marks), so each validation error
names the file, the line and the field: ``c.yaml:9: benchmarks[0].matrix.switches: ...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

from ..controllers.named import resolve_named
from .. import yamlload
from ..errors import UserError
from ..redact import keep
from . import quick as quick_mod
from .kinds import CAMPAIGN_KINDS
from .paths import resolve_data

ORDERS = ("random", "sequential")
TOP_KEYS = ("name", "description", "seed", "order", "repetitions", "warmup", "pause", "benchmarks")
BENCH_KEYS = ("name", "kind", "description", "params", "matrix", "repetitions", "warmup", "pause")


class ScenarioError(UserError):
    """A scenario file problem, located: ``file:line: field: message``."""


@dataclass
class Benchmark:
    name: str
    kind: str
    params: dict = field(default_factory=dict)
    matrix: dict = field(default_factory=dict)       # param -> list of values, in file order
    repetitions: int = 1
    warmup: int = 0
    pause: float = 0.0
    description: str = ""


@dataclass
class Scenario:
    name: str
    benchmarks: list
    description: str = ""
    seed: Optional[int] = None
    order: str = "random"
    source: str = ""                 # the file name used in messages
    text: str = ""                   # the exact file text (stored with the run)


def load(path: Path, quick: bool = False) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise UserError(f"{path}: no such scenario file")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: cannot read the scenario: {e}")
    return parse(text, str(path), quick=quick)


def parse(text: str, source: str = "<scenario>", kinds: Optional[dict] = None,
          quick: bool = False) -> Scenario:
    """Parse and validate; ``kinds`` maps kind names to entries with an optional ``validate``
    (default: the registry in ``sdnbench.campaign.kinds``). ``quick`` applies the scenario's
    ``quick:`` block (``sdnbench.campaign.quick``); without it the block is dropped. A URL's
    password is taken out first (``sdnbench.redact``): the run stores the text without it."""
    text = keep(text)
    data, lines = _compose(text, source)
    data = quick_mod.select(data, quick, source)
    data = resolve_named(data, source)             # `controllers:` names -> specs
    if Path(source).is_file():       # file paths in it are relative to the scenario file
        data = resolve_data(data, Path(source).resolve().parent)
    v = _Validator(source, lines)
    sc = v.scenario(data, CAMPAIGN_KINDS if kinds is None else kinds)
    if v.errors:      # every parameter problem at once, each with its file:line
        raise ScenarioError("\n".join(dict.fromkeys(v.errors)))
    sc.source, sc.text = source, text
    return sc


def _compose(text: str, source: str) -> tuple:
    """The document as Python data, plus ``{path tuple: line}`` for every node in it."""
    try:
        node = yamlload.compose(text, source)
        if node is None:
            raise ScenarioError(f"{source}: the file is empty; a scenario needs a name and benchmarks")
        data = yamlload.construct(node, source)
    except yamlload.YamlError as e:
        raise ScenarioError(str(e))
    lines: dict = {}
    _marks(node, (), lines)
    return data, lines


def _marks(node: yaml.Node, path: tuple, out: dict) -> None:
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value if isinstance(k, yaml.ScalarNode) else str(k.value)
            out[path + (key, "<key>")] = k.start_mark.line + 1
            _marks(v, path + (key,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _marks(v, path + (i,), out)


def field_name(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


class _Validator:
    def __init__(self, source: str, lines: dict):
        self.source, self.lines = source, lines
        self.errors: list = []          # parameter problems, collected (structure fails at once)
        self.noted: list = []           # (their paths)

    def note(self, path: tuple, message: str) -> None:
        self.noted.append(path)
        try:
            self.fail(path, message)
        except ScenarioError as e:
            self.errors.append(str(e))

    def fail(self, path: tuple, message: str, key: bool = False):
        line = self.lines.get(path + ("<key>",)) if key else None
        probe = path
        while line is None and probe is not None:
            line = self.lines.get(probe)
            probe = probe[:-1] if probe else None
        where = f"{self.source}:{line}" if line else self.source
        raise ScenarioError(f"{where}: {field_name(path)}: {message}")

    def mapping(self, value: Any, path: tuple, keys: tuple) -> dict:
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping of keys ({', '.join(keys)}), got {_what(value)}")
        for k in value:
            if not isinstance(k, str):
                self.fail(path, f"keys must be names, got {_what(k)}")
            if k not in keys:
                hint = _close(k, keys)
                self.fail(path + (k,), f"unknown field{hint}; known: {', '.join(keys)}", key=True)
        return value

    def integer(self, value: Any, path: tuple, minimum: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected a whole number, got {_what(value)}")
        if value < minimum:
            self.fail(path, f"must be at least {minimum}, got {value}")
        return value

    def number(self, value: Any, path: tuple, minimum: float) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(path, f"expected a number of seconds, got {_what(value)}")
        if value < minimum:
            self.fail(path, f"must be at least {minimum:g}, got {value}")
        return float(value)

    def text(self, value: Any, path: tuple, required: bool = False) -> str:
        if not isinstance(value, str) or (required and not value.strip()):
            self.fail(path, f"expected {'a non-empty ' if required else ''}text, got {_what(value)}")
        return value

    def scenario(self, data: Any, kinds: dict) -> Scenario:
        d = self.mapping(data, (), TOP_KEYS)
        for req in ("name", "benchmarks"):
            if req not in d:
                self.fail((), f"missing required field `{req}`")
        seed = d.get("seed")
        if seed is not None:
            self.integer(seed, ("seed",), 0)
        order = d.get("order", "random")
        if order not in ORDERS:
            self.fail(("order",), f"expected one of {', '.join(ORDERS)}, got {_what(order)}")
        defaults = {
            "repetitions": self.integer(d.get("repetitions", 1), ("repetitions",), 1),
            "warmup": self.integer(d.get("warmup", 0), ("warmup",), 0),
            "pause": self.number(d.get("pause", 0), ("pause",), 0),
        }
        benches = d["benchmarks"]
        if not isinstance(benches, list) or not benches:
            self.fail(("benchmarks",), f"expected a non-empty list of benchmarks, got {_what(benches)}")
        out, names = [], {}
        for i, b in enumerate(benches):
            bench = self.benchmark(b, ("benchmarks", i), defaults, kinds)
            if bench.name in names:
                self.fail(("benchmarks", i, "name"),
                          f"duplicate benchmark name {bench.name!r} (also benchmarks[{names[bench.name]}])")
            names[bench.name] = i
            out.append(bench)
        return Scenario(name=self.text(d["name"], ("name",), True), benchmarks=out,
                        description=self.text(d.get("description", ""), ("description",)),
                        seed=seed, order=order)

    def benchmark(self, b: Any, path: tuple, defaults: dict, kinds: dict) -> Benchmark:
        b = self.mapping(b, path, BENCH_KEYS)
        if "kind" not in b:
            self.fail(path, f"missing required field `kind` (one of {', '.join(sorted(kinds))})")
        kind = b["kind"]
        if kind not in kinds:
            hint = _close(str(kind), tuple(kinds))
            self.fail(path + ("kind",), f"unknown benchmark kind {kind!r}{hint}; known: {', '.join(sorted(kinds))}")
        params = b.get("params", {}) or {}
        if not isinstance(params, dict):
            self.fail(path + ("params",), f"expected a mapping of parameter: value, got {_what(params)}")
        matrix = b.get("matrix", {}) or {}
        if not isinstance(matrix, dict):
            self.fail(path + ("matrix",), f"expected a mapping of parameter: [values], got {_what(matrix)}")
        for k, vals in matrix.items():
            mp = path + ("matrix", k)
            if not isinstance(vals, list) or not vals:
                self.fail(mp, f"expected a non-empty list of values, got {_what(vals)}")
            if k in params:
                self.fail(mp, f"`{k}` is in both params and matrix; keep it in one of them", key=True)
            if len({_canon(v) for v in vals}) != len(vals):
                self.fail(mp, "the same value is listed twice")
        bench = Benchmark(
            name=self.text(b.get("name", kind), path + ("name",), True), kind=kind,
            params=params, matrix=matrix,
            repetitions=self.integer(b.get("repetitions", defaults["repetitions"]), path + ("repetitions",), 1),
            warmup=self.integer(b.get("warmup", defaults["warmup"]), path + ("warmup",), 0),
            pause=self.number(b.get("pause", defaults["pause"]), path + ("pause",), 0),
            description=self.text(b.get("description", ""), path + ("description",)))
        validate = getattr(kinds[kind], "validate", None)
        if validate is not None:
            self.kind_params(bench, path, validate)
        check_cell = getattr(kinds[kind], "check_cell", None)
        if check_cell is not None:
            self.cells(bench, path, check_cell)
        return bench

    def kind_params(self, bench: Benchmark, path: tuple, validate) -> None:
        """Let the kind check each parameter value; point at the value that it rejects."""
        for name, value in bench.params.items():
            msg = validate(name, value)
            if msg:
                self.note(path + ("params", name), msg)
        for name, values in bench.matrix.items():
            for j, value in enumerate(values):
                msg = validate(name, value)
                if msg:
                    self.note(path + ("matrix", name, j), msg)

    def cells(self, bench: Benchmark, path: tuple, check_cell) -> None:
        """Whole-cell checks (combinations, e.g. pairs that the topology does not have), for
        every matrix combination (the first 256), pointing at the benchmark's params."""
        import itertools

        names = list(bench.matrix)
        bad = {p[len(path) + 1] for p in self.noted if p[:len(path)] == path and len(p) > len(path) + 1}
        for combo in itertools.islice(itertools.product(*(bench.matrix[n] for n in names)), 256):
            for field_, msg in check_cell({**bench.params, **dict(zip(names, combo))}) or []:
                top = field_.split(".")[0]
                if top in bad or (top == "pairs" and "topo" in bad):
                    continue       # already reported for its own line
                where = (path + ("matrix", top) if top in bench.matrix else
                         path + ("params", top) if top in bench.params else path)
                self.note(where, f"{field_}: {msg}" if where == path else msg)


def _canon(v: Any) -> str:
    return f"{type(v).__name__}:{v!r}"


def _what(v: Any) -> str:
    if v is None:
        return "nothing"
    if isinstance(v, bool):
        return f"{str(v).lower()} (a yes/no value)"
    if isinstance(v, (int, float)):
        return f"the number {v!r}"
    if isinstance(v, str):
        return f"the text {v!r}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__


def _close(word: str, options: tuple) -> str:
    import difflib
    m = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean `{m[0]}`?)" if m else ""
