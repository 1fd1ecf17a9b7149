"""The ``discovery`` campaign kind: one cell = one trial (the campaign's repetitions are the
RFC's trials), ``test: discovery`` (§5.1.1) or ``test: topology-change`` (§5.1.8), each with its
controller launched for the cell. Parameters and defaults are the CLI's (``sdnbench controller
discovery`` / ``topology-change``): the same ``params.Discovery``, built by ``params.build``."""

from __future__ import annotations

from ..result import Result
from . import launched
from .params import DEFAULTS, TESTS, build, check_cell, validate_param  # noqa: F401  (the kind's checks)


def run_discovery(params: dict) -> Result:
    p = build({k: v for k, v in params.items() if k in DEFAULTS}, cli=False)
    if p.test == "topology-change":
        return launched.change_trial(p)
    t, info, adapter = launched.trial(p, p.topo, quiet=True)
    return launched.result(p, "topology-discovery", [t], info, adapter)
