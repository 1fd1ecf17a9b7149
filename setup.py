"""What the built package leaves out (everything else about the build is in pyproject.toml).

Tests stay beside the code in the tree, but neither the wheel nor the sdist carries them: no
``test_*.py``, no ``conftest.py``, no ``testdata/`` (pyproject's ``packages.find`` excludes those
packages), no ``sdnbench.testing`` and no module that imports it (a scripted test peer, such as
``sdnbench/conformance/tablemiss.py``).
``sdnbench/test_package.py`` builds the wheel and checks its contents. An editable install and
runs from the tree still import all of it: they read the source directory.
"""

import ast
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TESTING = "sdnbench.testing"


def _imports(module: str, is_package: bool, tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".")
            if node.level:
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                yield ".".join(base + ([node.module] if node.module else []))
                if node.module is None:
                    yield from (".".join(base + [a.name]) for a in node.names)
            else:
                yield node.module or ""


def is_test_code(package: str, module: str, path: str) -> bool:
    """A test, or a module that needs the test helpers (a peer of the tests)."""
    if module.startswith("test_") or module == "conftest":
        return True
    name = f"{package}.{module}" if module != "__init__" else package
    tree = ast.parse(Path(path).read_text(), path)
    return any(i == TESTING or i.startswith(TESTING + ".")
               for i in _imports(name, module == "__init__", tree))


class BuildPyWithoutTests(build_py):
    def find_package_modules(self, package, package_dir):
        return [(p, m, f) for p, m, f in super().find_package_modules(package, package_dir)
                if not is_test_code(p, m, f)]


setup(cmdclass={"build_py": BuildPyWithoutTests})
