"""One §5.3.1 exception-handling trial, for ``sdnbench controller exceptions`` and the ``rfc8456``
campaign kind alike: the controller launched once, its session version negotiated once (or the
forced one checked), then each repetition runs every variant of ``exceptions.VARIANTS`` in turn.

``DEFAULTS`` are the load both use when a parameter is left out: its one definition (the command's
flags and the suite's cell take them from here; the engine's own defaults stay the engine's).
"""

from __future__ import annotations

import contextlib
from typing import Callable, Optional

from ..controllers import launch
from ..controllers.negotiation import session_version
from ..controllers.spec import DEFAULT_SPEC
from ..engine.driver import EngineInterrupted
from ..engine.params import DEFAULT_MODE, check, launch_of_version, launch_spec
from ..engine.runner import measure
from ..errors import UserError
from . import exceptions

MODES = ("throughput", "fixed-rate")       # the engine's modes that load the controller with a share of invalid packet-ins
DEFAULTS = {"controller": DEFAULT_SPEC, "mode": DEFAULT_MODE, "switches": 4, "loops": 5, "loop_ms": 1000,
            "warmup": 1}


def variant_params(base: dict) -> dict:
    """{variant: checked engine params}: ``base`` over ``DEFAULTS``, one per invalid share."""
    p = {**DEFAULTS, **{k: v for k, v in base.items() if v is not None}}
    return {v: check(dict(p, invalid_every=k)) for v, k in exceptions.VARIANTS.items()}


def run(base: dict, reps: int, on_run: Optional[Callable] = None) -> tuple:
    """(runs, of): ``runs`` is {variant: [Result per repetition]}; ``of`` the session version
    (None when the controller sent no HELLO: the runs say why). ``on_run(result)`` after each
    run, also for the partial result of an interrupted one (then the interrupt goes on)."""
    with Trial(base, reps) as trial:
        runs: dict = {v: [] for v in trial.params}
        for rep, v in trial.plan():
            try:
                r = trial.one(rep, v)
            except EngineInterrupted as e:
                if on_run:
                    on_run(e.result)
                raise
            runs[v].append(r)
            if on_run:
                on_run(r)
    return runs, trial.of


class Trial:
    """The trial one run at a time, as ``controller exceptions`` keeps each as it ends: ``with
    Trial(base, reps) as t: for rep, variant in t.plan(): t.one(rep, variant)``. Bad input fails at
    construction; the block launches the controller and negotiates its session version once
    (a controller that cannot speak a forced one is one line naming --of) and stops it at the
    end. ``of``: that version, None when no HELLO came back (the runs say why)."""

    def __init__(self, base: dict, reps: int):
        if reps < 1:
            raise UserError("--reps must be at least 1")
        self.base, self.reps = base, reps
        self.params = variant_params(base)
        self.of: Optional[str] = None
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> "Trial":
        clean = self.params["clean"]
        with contextlib.ExitStack() as stack:
            self.ctl = stack.enter_context(launch(launch_spec(clean), of_version=launch_of_version(clean)))
            # the invalid packet-ins need a known session version: negotiated once, then every
            # variant uses it
            self.of = session_version(self.ctl.host, self.ctl.port, self.base.get("of_version"),
                                      self.ctl.info.get("name") or clean["controller"])
            self._stack = stack.pop_all()
        if self.of:
            self.params = {v: check(dict(p, of_version=self.of)) for v, p in self.params.items()}
        return self

    def __exit__(self, *exc) -> None:
        self._stack.__exit__(*exc)

    def plan(self):
        """(repetition, variant): every variant in turn within each repetition."""
        return ((rep, v) for rep in range(self.reps) for v in self.params)

    def one(self, rep: int, variant: str):
        """The Result of ``variant`` in repetition ``rep``; an interrupted one propagates
        ``EngineInterrupted`` carrying its partial ``result``."""
        r = measure(self.params[variant], self.ctl)
        r.benchmark = "exceptions"
        r.params.update(rep=rep, variant=variant, of_session=self.of)
        return r
