"""The ``provisioning`` campaign kind: one cell = one trial (the campaign's repetitions are the
RFC's trials), ``test: reactive`` (§5.1.4/§5.1.6), ``proactive`` (§5.1.5/§5.1.7, through the
controller's northbound API), ``table-capacity`` or ``table-capacity-proactive`` (§5.2.3), with
its controller launched for the cell. Parameters and defaults are the CLI's
(``sdnbench controller provisioning`` / ``table-capacity``): the same
``provisioning_params.Provisioning``, built by ``provisioning_params.build``."""

from __future__ import annotations

from ..result import Result
from .provisioning_params import DEFAULTS, TESTS, build, check_cell, validate_param  # noqa: F401  (the kind's checks)
from .provisioning_trial import trial


def run_provisioning(params: dict) -> Result:
    p = build({k: v for k, v in params.items() if k in DEFAULTS}, cli=False)
    return trial(p, int(params.get("rep", params.get("repetition", 0)) or 0))
