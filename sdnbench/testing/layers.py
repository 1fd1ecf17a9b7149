"""The package's layers, and the imports that cross them upwards.

A module may import from its own layer's package and from any layer below it; an import of a
layer above is a back-edge, and back-edges are what make the package graph cyclic (``test_layers``
fails on a new one). Every import counts, also one inside a function: moving an import into a
function hides a cycle from the interpreter, not from the design. Tests (``test_*.py``,
``conftest.py``) may import anything, the CLI included.

``KNOWN_BACK_EDGES`` lists those that are still there, each with what should replace it; the
list only shrinks (a fixed one that is still listed fails too, so the list stays true).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator

from .modgraph import from_stem

# Top to bottom. A layer is a set of top-level parts of the package (subpackages or modules).
LAYERS: tuple = (
    {"testing"},                  # the tests' peers, labs and fixtures: they use anything, nothing uses them
    {"cli", "__main__"},
    {"commands"},
    {"campaign"},
    {"rfc8456", "differential", "switchtesttool"},
    {"discovery", "robustness", "switchbench", "tlscost"},
    {"compare", "report"},
    {"history"},
    {"engine", "net"},
    {"controllers", "northbound"},
    {"store", "stats", "tls"},
    {"doctor"},
    {"install"},
    {"result", "counters", "output", "outputs", "formats", "fmt", "paramcheck", "paths", "proc", "procreg", "errors", "machine",
     "openflow", "scale_limits", "lifecycle", "yamlload", "jsonload", "redact", "kind"},
)

# (importing module, imported part): what replaces it.
KNOWN_BACK_EDGES: dict = {
}


def layer_of(part: str) -> int:
    for i, layer in enumerate(LAYERS):
        if part in layer:
            return i
    raise KeyError(f"sdnbench.{part} is in no layer: add it to LAYERS")


def _module_name(root: Path, path: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(module: str, is_package: bool, node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        stem = from_stem(module, is_package, node)
        if node.module is None and node.level:
            yield from (f"{stem}.{a.name}" for a in node.names)
        else:
            yield stem


def imports(root: Path) -> Iterator[tuple]:
    """(module, imported module, inside a function) for every sdnbench import outside tests."""
    for path in sorted(root.rglob("*.py")):
        if path.name.startswith("test_") or path.name == "conftest.py" or "testdata" in path.parts:
            continue
        module = _module_name(root, path)
        tree = ast.parse(path.read_text(), str(path))
        nested = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for n in ast.walk(f)}
        for node in ast.walk(tree):
            for target in _imported(module, path.name == "__init__.py", node):
                if target.startswith("sdnbench.") or target == "sdnbench":
                    yield module, target, id(node) in nested


def parts(root: Path) -> set:
    """The package's top-level parts: its subpackages and modules (tests left out)."""
    return {p.stem for p in root.iterdir()
            if (p.suffix == ".py" and not p.name.startswith(("test_", "conftest", "__init__")))
            or (p / "__init__.py").exists()}


def back_edges(root: Path) -> dict:
    """(module, imported part) -> count, for every import of a higher layer. A name imported
    from the package itself (``from sdnbench import __version__``) belongs to no layer."""
    found: dict = {}
    known = parts(root)
    for module, target, _ in imports(root):
        src, dst = module.split(".")[1:2], target.split(".")[1:2]
        if not src or not dst or src == dst or dst[0] not in known:
            continue
        if layer_of(dst[0]) < layer_of(src[0]):
            key = (module, dst[0])
            found[key] = found.get(key, 0) + 1
    return found
