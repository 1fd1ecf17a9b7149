"""The command line starts without the heavy libraries: ``sdnbench --help`` (and a subcommand's
help) must not import scipy, numpy or matplotlib, which cost about a second here; a module the
CLI imports for its help text that pulls them in at its top fails this."""

import subprocess
import sys

import pytest

HEAVY = ("scipy", "numpy", "matplotlib", "pandas")
PROBE = """
import sys
from sdnbench import cli
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
print("loaded:", *sorted(m for m in {heavy!r} if m in sys.modules))
"""


@pytest.mark.parametrize("argv", [["--help"], ["controller", "exceptions", "--help"], ["run", "--help"]])
def test_help_loads_no_heavy_library(argv):
    cp = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *argv], capture_output=True, text=True,
                        timeout=120)
    assert cp.returncode == 0, cp.stderr
    assert cp.stdout.splitlines()[-1] == "loaded:", cp.stdout[-300:]
