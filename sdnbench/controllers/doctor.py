"""Doctor checks for the controllers under test: one per isolated environment.

``sdnbench doctor`` imports this module (``EXTRA_CHECK_MODULES``). A missing environment is a
warning, not a failure: the machine is fine, one command installs it.
"""

from __future__ import annotations

import subprocess

from ..doctor import FAIL, OK, WARN, Check
from . import envs


def check_env(name: str) -> Check:
    r = envs.recipe(name)
    label = f"controller-{name}"
    data = envs.manifest(name)
    if data is None:
        return Check(label, WARN, f"{r.package} {r.version} is not installed for sdnbench",
                     f"sdnbench controllers install {name} (or `make setup`)")
    cp = subprocess.run([str(envs.bin_path(name)), "-c", f"import {r.module}"],
                        capture_output=True, text=True, timeout=60)
    if cp.returncode != 0:
        last = (cp.stderr.strip().splitlines() or ["?"])[-1]
        return Check(label, FAIL, f"{r.package} is installed but `import {r.module}` fails: {last}",
                     f"sdnbench controllers install {name} --force", data={"path": data["path"]})
    return Check(label, OK, f"{r.package} {data['version']} in {data['path']}", "",
                 {"version": data["version"], "path": data["path"], "python": data["python"]})


def doctor_checks() -> dict:
    return {f"controller-{name}": (lambda n: lambda: check_env(n))(name) for name in envs.RECIPES}
