#!/usr/bin/env python3
"""Count the reads of a Result's counters by string key in product code (tests and
``sdnbench/counters.py`` left out), for docs/extending.md: direct (``r.counters["k"]``,
``r.counters.get("k")``) and through a name bound to ``X.counters`` in the same function
(``c = r.counters; c.get("k")``). Writes (``r.counters["k"] = ...``) are not reads.

    python3 scripts/count_counter_reads.py [REPO]
"""

import ast
import pathlib
import sys


def _is_counters(e: ast.AST) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == "counters"


def _aliases(fn: ast.AST) -> set:
    out = set()
    for n in ast.walk(fn):
        if not isinstance(n, ast.Assign):
            continue
        for t in n.targets:
            if isinstance(t, ast.Name) and _is_counters(n.value):
                out.add(t.id)
            if isinstance(t, ast.Tuple) and isinstance(n.value, ast.Tuple):
                out |= {a.id for a, b in zip(t.elts, n.value.elts) if isinstance(a, ast.Name) and _is_counters(b)}
    return out


def reads(root: pathlib.Path) -> list:
    found = set()
    for p in sorted((root / "sdnbench").rglob("*.py")):
        if p.name.startswith("test_") or p.name in ("conftest.py", "counters.py"):
            continue
        tree = ast.parse(p.read_text())
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.Lambda, ast.Module)):
                continue
            alias = _aliases(fn)
            for n in ast.walk(fn):
                obj = None
                if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load):
                    obj = n.value
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get":
                    obj = n.func.value
                if obj is not None and (_is_counters(obj) or (isinstance(obj, ast.Name) and obj.id in alias)):
                    found.add((str(p.relative_to(root)), n.lineno))
    return sorted(found)


if __name__ == "__main__":
    got = reads(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "."))
    for f, line in got:
        print(f"{f}:{line}")
    print(len(got), "reads in", len({f for f, _ in got}), "files")
