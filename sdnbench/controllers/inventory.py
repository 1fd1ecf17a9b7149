"""What controllers this machine can run, and how to get the rest (for ``controllers list``).

Each row is a spec pattern with its status here: installed (with the recorded version), missing
(with the command that installs it), or external (reached with ``tcp:HOST:PORT``).
"""

from __future__ import annotations

import os

from . import envs
from ..install import by_variable, variables as installed_variables
from .catalog import EXTERNAL, OSKEN_APPS, RYU_APPS
from .plan import ovs_testcontroller_version


def inventory() -> list:
    """Rows: dicts with spec, controller, status, version, of_versions, summary, how."""
    rows = []
    osken = envs.manifest("osken")
    for app in OSKEN_APPS.values():
        rows.append(_row(f"osken:{app.name}", "os-ken", osken, "osken", app.of_versions, app.summary))
    ryu = envs.manifest("ryu")
    for app in RYU_APPS.values():
        rows.append(_row(f"ryu:{app.name}", "Ryu", ryu, "ryu", app.of_versions, app.summary))
    faucet = envs.manifest("faucet")
    rows.append(_row("faucet:CONFIG.yaml", "Faucet", faucet, "faucet", ("1.3",),
                     "Faucet with your config file"))
    rows.append(_row("faucet:auto", "Faucet", faucet, "faucet", ("1.3",),
                     "Faucet with a generated config: L2 on one VLAN across every port of the topology"))
    ovs = ovs_testcontroller_version()
    rows.append({"spec": "ovs-testcontroller", "controller": "ovs-testcontroller",
                 "status": "installed" if ovs else "missing", "version": ovs,
                 "of_versions": ["1.0", "1.3"], "summary": "Open vSwitch's learning-switch test "
                 "controller (at most 16 switches)",
                 "how": "" if ovs else "apt-get install openvswitch-testcontroller"})
    installed = installed_variables()      # what `sdnbench install` put in place
    for name, var, spec, note in EXTERNAL:
        status = "external" if not var else "your copy" if os.environ.get(var) else \
            "installed" if var in installed else f"set {var}"
        recipe = by_variable(var) if var else None
        how = f"sdnbench install {recipe.name} --from DIR" if recipe and status == f"set {var}" else ""
        rows.append({"spec": spec, "controller": name, "status": status, "version": None,
                     "of_versions": [], "summary": note, "how": how})
    return rows


def _row(spec: str, controller: str, manifest, env: str, of_versions: tuple, summary: str) -> dict:
    return {"spec": spec, "controller": controller,
            "status": "installed" if manifest else "missing",
            "version": manifest["version"] if manifest else None,
            "of_versions": list(of_versions), "summary": summary,
            "how": "" if manifest else f"sdnbench controllers install {env}"}
