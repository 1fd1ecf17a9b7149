"""The ``resilience`` campaign kind: one cell = one trial (the campaign's repetitions are the
RFC's trials) of ``test: reprovisioning`` (§5.4.2, a link fails) or ``failover`` (§5.4.1, the
master controller is killed), with its controllers launched for the cell. Parameters and
defaults are the CLI's (``sdnbench controller reprovisioning`` / ``failover``): the same
``resilience_params.Reprovisioning`` / ``Failover``, built by ``resilience_params.build``; the
trial is the one the test's record carries (``suite.py``)."""

from __future__ import annotations

from ..result import Result
from .resilience_params import DEFAULTS, KNOWN, build, check_cell, validate_param  # noqa: F401  (the kind's checks)
from .suite import BY_SLUG


def run_resilience(params: dict) -> Result:
    test = params.get("test", "reprovisioning")
    p = build(test, {k: v for k, v in params.items() if k in DEFAULTS[test]}, cli=False)
    rep = int(params.get("rep", params.get("repetition", 0)) or 0)
    return BY_SLUG[test].trial(p, rep)
