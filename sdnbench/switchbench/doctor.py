"""Doctor checks for switch-under-test: the ``sdnbench-switch`` binary, and the switches this
machine can put under test (the CPqD user switch is optional: a warning with where to get it).

``sdnbench doctor`` imports this module (``EXTRA_CHECK_MODULES``).
"""

from __future__ import annotations

import subprocess

from .. import paths
from ..doctor import FAIL, OK, WARN, Check
from . import cpqd
from .driver import BINARY


def check_switchbench() -> Check:
    binary = paths.engine_binary(BINARY)
    if not binary.exists():
        return Check("switchbench", FAIL, f"{binary} not built", "cargo build --release (or `make setup`)")
    cp = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=10)
    if cp.returncode != 0:
        return Check("switchbench", FAIL, f"{binary} --version failed", "cargo build --release")
    return Check("switchbench", OK, cp.stdout.strip(), "", {"path": str(binary)})


def check_cpqd() -> Check:
    missing = cpqd.missing()
    if missing:
        return Check("switch-cpqd", WARN, f"CPqD user switch not installed ({', '.join(missing)} not found): "
                     "`switch bench --target cpqd` is refused",
                     "build ofsoftswitch13 (https://github.com/CPqD/ofsoftswitch13, its README), then "
                     "`sdnbench install cpqd --from DIR`")
    return Check("switch-cpqd", OK, "CPqD user switch (ofdatapath, ofprotocol) installed")


def doctor_checks() -> dict:
    return {"switchbench": check_switchbench, "switch-cpqd": check_cpqd}
