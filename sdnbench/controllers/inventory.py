"""What controllers this machine can run, and how to get the rest (for ``controllers list``).

Each row is a spec pattern with its status here: installed (with the recorded version), missing
(with the command that installs it), or external (reached with ``tcp:HOST:PORT``). Each kind
gives its own rows (``kinds/``); the controllers sdnbench does not install come from
``catalog.EXTERNAL``.
"""

from __future__ import annotations

import os

from ..install import by_variable, variables as installed_variables
from .catalog import EXTERNAL
from .kinds import CONTROLLER_KINDS


def inventory() -> list:
    """Rows: dicts with spec, controller, status, version, of_versions, summary, how."""
    rows = [row for kind in CONTROLLER_KINDS.values() for row in kind.inventory()]
    installed = installed_variables()      # what `sdnbench install` put in place
    for name, var, spec, note in EXTERNAL:
        status = "external" if not var else "your copy" if os.environ.get(var) else \
            "installed" if var in installed else f"set {var}"
        recipe = by_variable(var) if var else None
        how = f"sdnbench install {recipe.name} --from DIR" if recipe and status == f"set {var}" else ""
        rows.append({"spec": spec, "controller": name, "status": status, "version": None,
                     "of_versions": [], "summary": note, "how": how})
    return rows
