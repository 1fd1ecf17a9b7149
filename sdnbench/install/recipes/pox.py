"""POX, the Python OpenFlow 1.0 controller of the controller study (seeds/002). Pure Python: a
checkout is a usable tree (no build); its ``gar-experimental`` branch runs on Python 3.11."""

from ..recipe import Recipe

RECIPE = Recipe(
    name="pox",
    title="POX",
    url="https://github.com/noxrepo/pox",
    pin="5f82461e01f8822bd7336603b361bff4ffbd2380",
    pin_note="branch gar-experimental, 2020-05-20",
    markers=("pox.py", "pox/core.py", "pox/openflow/of_01.py", "pox/forwarding/l2_learning.py"),
    entries={"pox.py": "pox.py"},
    variable=("POX_DIR", "."),
)
