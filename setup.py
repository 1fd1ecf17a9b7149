"""What the built package leaves out (everything else about the build is in pyproject.toml).

The wheel is built from the product folders as they are: tests stay beside the code in the tree,
and a file's place says whether it ships. Left out: every ``test_*.py`` and ``conftest.py``
(here), ``testdata/`` and ``sdnbench/testing/`` with the tests' peers, labs and fixtures
(pyproject's ``packages.find``). No product module imports ``sdnbench.testing``
(``sdnbench/testing/layers.py`` puts it above every other layer), so nothing shipped misses it.
``sdnbench/test_package.py`` builds the wheel and checks its contents. An editable install and
runs from the tree still import all of it: they read the source directory.
"""

from setuptools import setup
from setuptools.command.build_py import build_py


def is_test_code(module: str) -> bool:
    return module.startswith("test_") or module == "conftest"


class BuildPyWithoutTests(build_py):
    def find_package_modules(self, package, package_dir):
        return [(p, m, f) for p, m, f in super().find_package_modules(package, package_dir)
                if not is_test_code(m)]


setup(cmdclass={"build_py": BuildPyWithoutTests})
