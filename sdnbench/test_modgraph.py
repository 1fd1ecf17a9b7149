"""No import cycle between the package's modules (``modgraph``: read from the source, nothing
imported), one level down from ``test_layers``' packages."""

from pathlib import Path

from sdnbench.testing import modgraph

ROOT = Path(modgraph.__file__).parent.parent


def test_no_module_imports_itself_through_others():
    g = modgraph.graph(ROOT)
    found = [" -> ".join(modgraph.path_in(g, c)) for c in modgraph.cycles(g)]
    assert not found, f"module import cycles: {found}"


def _package(tmp_path, files: dict) -> Path:
    pkg = tmp_path / "sdnbench"
    for rel, text in files.items():
        path = pkg / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return pkg


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    pkg = _package(tmp_path, {
        "__init__.py": "", "net/__init__.py": "",
        "net/a.py": "from .b import f\n",
        "net/b.py": "def f():\n    from . import c\n",
        "net/c.py": "from sdnbench.net.a import f\n",
        "net/test_c.py": "from . import a\n",          # tests are left out
    })
    g = modgraph.graph(pkg)
    assert modgraph.cycles(g) == [["sdnbench.net.a", "sdnbench.net.b", "sdnbench.net.c"]]
    assert modgraph.path_in(g, modgraph.cycles(g)[0]) == [
        "sdnbench.net.a", "sdnbench.net.b", "sdnbench.net.c", "sdnbench.net.a"]


def test_from_a_package_import_a_module_is_an_edge_to_that_module_not_the_package(tmp_path):
    pkg = _package(tmp_path, {
        "__init__.py": "", "x/__init__.py": "from .low import thing\n",
        "x/low.py": "thing = 1\n",
        "x/high.py": "from . import low\nfrom sdnbench.x import thing\nimport sdnbench.x.low\n",
    })
    g = modgraph.graph(pkg)
    assert g["sdnbench.x.high"] == {"sdnbench.x.low", "sdnbench.x"}
    assert modgraph.cycles(g) == []
