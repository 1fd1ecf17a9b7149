"""The benchmark kinds a scenario can name: each suite declares its own ``KIND`` (``sdnbench.kind``)
beside its parameters, and this module only collects them. Runners are imported only when a
campaign uses them, so a part missing from this install is a one-line ``UserError`` naming the
kind, not an ImportError.

To plug in a suite, declare its ``KIND`` and add it to ``CAMPAIGN_KINDS`` below; nothing else in the
campaign changes. The test-only ``synthetic`` kind is registered by the tests, never here.
"""

from __future__ import annotations

from .. import doctor
from ..controllers.kinds import kind_of
from ..controllers.spec import parse_spec
from ..discovery import params as discovery_params
from ..engine import controller_params
from ..errors import UserError
from ..kind import Kind
from ..net import params as net_params
from ..rfc8456 import provisioning_params, resilience_params, suite_cell
from ..robustness import cell as robustness_cell
from ..switchbench import cell as switch_cell

__all__ = ["CAMPAIGN_KINDS", "Kind", "get", "requirements"]

CAMPAIGN_KINDS: dict = {k.name: k for k in (
    controller_params.KIND, net_params.KIND, switch_cell.KIND, robustness_cell.KIND, discovery_params.KIND,
    provisioning_params.KIND, resilience_params.KIND, suite_cell.KIND,
)}


def get(name: str) -> Kind:
    try:
        return CAMPAIGN_KINDS[name]
    except KeyError:
        raise UserError(f"unknown benchmark kind {name!r}; known: {', '.join(sorted(CAMPAIGN_KINDS))}")


def requirements(scenario) -> list:
    """The doctor checks a scenario needs: each kind's, plus one per controller kind used
    (``controller-osken``, ``controller-ryu``, ``ovs-testcontroller``) when the doctor has it."""
    known = doctor.all_checks()
    names: list = []
    for b in scenario.benchmarks:
        names += [n for n in get(b.kind).requires if n not in names]
        for spec in _controller_specs(b):
            name = _doctor_check(spec)     # its kind's record says which
            if name in known and name not in names:
                names.append(name)
    return names


def _doctor_check(spec: str):
    try:
        return kind_of(parse_spec(spec)).doctor
    except UserError:
        return None


def _controller_specs(bench) -> list:
    vals = bench.matrix.get("controller", [])
    if "controller" in bench.params:
        vals = [bench.params["controller"]]
    return [v for v in vals if isinstance(v, str)]
