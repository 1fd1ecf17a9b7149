"""The package's import graph one level down from ``layers``: module to module, read from the
source (``ast``), nothing imported.

``test_modgraph`` asserts it has no cycle. Every import counts, also one inside a function, as in
``layers``: an import moved into a function hides a cycle from the interpreter, not from the
design. ``from pkg import name`` is an edge to the module ``pkg.name`` when there is one, else to
``pkg`` (its ``__init__``). Tests (``test_*.py``, ``conftest.py``) are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator


def modules(root: Path) -> dict:
    """Module name -> path, for every non-test module of the package at ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        if path.name.startswith("test_") or path.name == "conftest.py" or "testdata" in path.parts:
            continue
        rel = list(path.relative_to(root.parent).with_suffix("").parts)
        if rel[-1] == "__init__":
            rel.pop()
        out[".".join(rel)] = path
    return out


def from_stem(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from … import`` in ``module`` names (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[:len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, is_package: bool, node: ast.AST, known: dict) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for a in node.names:
            name = a.name
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                yield name
        return
    if not isinstance(node, ast.ImportFrom):
        return
    stem = from_stem(module, is_package, node)
    for a in node.names:
        sub = f"{stem}.{a.name}"
        if sub in known:
            yield sub
        elif stem in known:
            yield stem


def graph(root: Path) -> dict:
    """Module -> the set of package modules it imports (itself left out)."""
    known = modules(root)
    out: dict = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        is_package = path.name == "__init__.py"
        out[module] = {t for node in ast.walk(tree) for t in _targets(module, is_package, node, known)
                       if t != module}
    return out


def cycles(g: dict) -> list:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative),
    each as a sorted list; sorted."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    found = []
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(g.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                scc = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    scc.append(m)
                    if m == node:
                        break
                if len(scc) > 1:
                    found.append(sorted(scc))
    return sorted(found)


def path_in(g: dict, scc: list) -> list:
    """One cycle through the component ``scc``, as modules (first repeated at the end), so a
    failure names the imports to look at."""
    members = set(scc)
    start = scc[0]
    seen = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(g[node] & members):
            if nxt == start:
                path = [node]
                while seen[path[-1]] is not None:
                    path.append(seen[path[-1]])
                return list(reversed(path)) + [start]
            if nxt not in seen:
                seen[nxt] = node
                queue.append(nxt)
    return scc
