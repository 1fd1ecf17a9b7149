"""The built package is the product alone: the wheel (built here once, from a copy of the tree)
has no tests, no test data, no ``sdnbench.testing``, no test peer and no tool that runs only
from the tree (pyproject's ``packages.find`` exclusions, none today), yet every product module
(``sdnbench conformance`` too, without its scripted peers), and every module a shipped module
imports."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from sdnbench.testing import layers

try:
    import tomllib
except ModuleNotFoundError:            # Python < 3.11: the same parser, from the test extra
    import tomli as tomllib

TREE = Path(__file__).resolve().parent.parent


def _tree_only() -> tuple:
    """The directories of the packages pyproject leaves out of the build, other than tests'
    (none today: the differential harness, once tree-only, is ``sdnbench conformance``)."""
    find = tomllib.loads((TREE / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    return tuple(e.replace(".", "/") + "/" for e in find["exclude"]
                 if e.startswith("sdnbench.") and not e.endswith(".*") and e != "sdnbench.testing")


TREE_ONLY = _tree_only()


def _is_test_path(rel: str) -> bool:
    parts = rel.split("/")
    return (parts[-1].startswith("test_") or parts[-1] == "conftest.py" or "testdata" in parts
            or rel.startswith("sdnbench/testing/"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The unpacked wheel: its root (holding ``sdnbench/``)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy(TREE / name, src / name)
    shutil.copytree(TREE / "sdnbench", src / "sdnbench", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    cp = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                         "-w", str(out), str(src)], capture_output=True, text=True, timeout=120)
    assert cp.returncode == 0, cp.stderr[-2000:]
    [whl] = out.glob("sdnbench-*.whl")
    root = tmp_path_factory.mktemp("unpacked")
    zipfile.ZipFile(whl).extractall(root)
    return root


def _files(root: Path) -> set:
    return {p.relative_to(root).as_posix() for p in (root / "sdnbench").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def test_the_wheel_carries_no_test_file_test_data_or_test_helper(wheel):
    shipped = _files(wheel)
    assert "sdnbench/cli.py" in shipped
    assert not sorted(f for f in shipped if _is_test_path(f))


def _module_file(module: str) -> str:
    path = "/".join(module.split("."))
    return path + ("/__init__.py" if (TREE / path).is_dir() else ".py")


def test_the_wheel_carries_every_product_module_and_data_file(wheel):
    """Where a file is says whether it ships: every file outside the test places is in the
    wheel, none inside them is, and no product module imports the tests' helpers."""
    shipped = _files(wheel)
    tree = {f for f in _files(TREE) if not _is_test_path(f) and not f.endswith(".pyc")}
    assert TREE_ONLY == () and "sdnbench/differential/harness.py" in shipped
    assert "sdnbench/testing/peers/tablemiss.py" not in shipped and "sdnbench/testing/synthetic.py" not in shipped
    assert sorted(tree - shipped) == []
    assert not [m for m, target, _ in layers.imports(wheel / "sdnbench")
                if target == "sdnbench.testing" or target.startswith("sdnbench.testing.")]
    assert any(f.endswith(".yaml") for f in shipped)


def _is_module(root: Path, module: str) -> bool:
    path = root.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or path.is_dir()


def test_every_import_of_a_shipped_module_is_shipped_too(wheel):
    missing = {(module, target) for module, target, _ in layers.imports(wheel / "sdnbench")
               if _is_module(TREE, target) and not _is_module(wheel, target)}
    assert sorted(missing) == []


_COMMANDS = ("import sys, sdnbench; from sdnbench.commands._parser import build_parser; "
             "a = next(x for x in build_parser()._actions if x.dest == 'command'); "
             "print(sdnbench.__file__); print(' '.join(sorted(a.choices)))")


def test_the_installed_package_has_every_command_of_the_tree(wheel):
    """Commands are found at run time (``pkgutil``): one left out of the wheel would just vanish."""
    env = {**os.environ, "PYTHONPATH": str(wheel)}
    cp = subprocess.run([sys.executable, "-c", _COMMANDS], cwd=wheel, env=env, capture_output=True, text=True,
                        timeout=60)
    assert cp.returncode == 0, cp.stderr[-2000:]
    where, installed = cp.stdout.splitlines()
    assert where.startswith(str(wheel))
    tree = subprocess.run([sys.executable, "-c", _COMMANDS], cwd=TREE, capture_output=True, text=True, timeout=60)
    assert installed.split() == tree.stdout.splitlines()[1].split() and {"rfc8456", "run", "switch", "conformance"} <= set(installed.split())
