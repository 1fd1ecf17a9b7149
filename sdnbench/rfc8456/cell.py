"""The ``provisioning`` campaign kind: one cell = one trial (the campaign's repetitions are the
RFC's trials), ``test: reactive`` (§5.1.4/§5.1.6), ``proactive`` (§5.1.5/§5.1.7, through the
controller's northbound API), ``table-capacity`` or ``table-capacity-proactive`` (§5.2.3), with
its controller launched for the cell. Parameters and defaults are the CLI's
(``sdnbench controller provisioning`` / ``table-capacity``)."""

from __future__ import annotations

from argparse import Namespace

from ..result import Result
from .provisioning_params import DEFAULTS, TESTS, check, check_cell, validate_param  # noqa: F401  (the kind's checks)
from .provisioning_trial import trial


def run_provisioning(params: dict) -> Result:
    args = Namespace(**check({k: v for k, v in params.items() if k in DEFAULTS}, cli=False))
    args.mode = "proactive" if "proactive" in args.test else "reactive"
    return trial(args, TESTS[args.test], int(params.get("rep", params.get("repetition", 0)) or 0))
