"""One §5.3.1 exception-handling trial, for ``sdnbench controller exceptions`` and the ``rfc8456``
campaign kind alike: the controller launched once, its session version negotiated once (or the
forced one checked), then each repetition runs every variant of ``exceptions.VARIANTS`` in turn.

``DEFAULTS`` are the load both use when a parameter is left out: its one definition (the command's
flags and the suite's cell take them from here; the engine's own defaults stay the engine's).
"""

from __future__ import annotations

from typing import Callable, Optional

from ..controllers import launch
from ..controllers.negotiation import session_version
from ..controllers.spec import DEFAULT_SPEC
from ..engine.driver import EngineInterrupted
from ..engine.params import check, launch_of_version, launch_spec
from ..engine.runner import measure
from ..errors import UserError
from . import exceptions

DEFAULTS = {"controller": DEFAULT_SPEC, "mode": "throughput", "switches": 4, "loops": 5, "loop_ms": 1000,
            "warmup": 1}


def variant_params(base: dict) -> dict:
    """{variant: checked engine params}: ``base`` over ``DEFAULTS``, one per invalid share."""
    p = {**DEFAULTS, **{k: v for k, v in base.items() if v is not None}}
    return {v: check(dict(p, invalid_every=k)) for v, k in exceptions.VARIANTS.items()}


def run(base: dict, reps: int, on_run: Optional[Callable] = None) -> tuple:
    """(runs, of): ``runs`` is {variant: [Result per repetition]}; ``of`` the session version
    (None when the controller sent no HELLO: the runs say why). ``on_run(result)`` after each
    run, also for the partial result of an interrupted one (then the interrupt goes on)."""
    if reps < 1:
        raise UserError("--reps must be at least 1")
    params = variant_params(base)
    runs: dict = {v: [] for v in params}
    clean = params["clean"]
    with launch(launch_spec(clean), of_version=launch_of_version(clean)) as ctl:
        # the invalid packet-ins need a known session version: negotiated once (or the forced
        # one checked: a controller that cannot speak it is one line naming --of), then every
        # variant uses it. No HELLO back: the runs say why.
        of = session_version(ctl.host, ctl.port, base.get("of_version"), ctl.info.get("name") or clean["controller"])
        if of:
            params = {v: check(dict(p, of_version=of)) for v, p in params.items()}
        for rep in range(reps):
            for v, p in params.items():
                try:
                    r = measure(p, ctl)
                except EngineInterrupted as e:
                    if on_run:
                        on_run(e.result)
                    raise
                r.benchmark = "exceptions"
                r.params.update(rep=rep, variant=v, of_session=of)
                runs[v].append(r)
                if on_run:
                    on_run(r)
    return runs, of
