"""The robustness suite's parameters, each once: type, default, rule, and its flag's help. What
``controller robustness`` and ``controller dos`` take from the command line and the
``robustness`` campaign kind takes from a cell (``cell.py``) are built from this one table
(``paramcheck.Params``), so one bad value is the same one line everywhere: by flag on the
command line, by key in a scenario.

A cell runs one ``case``; the commands run several (``--cases``, which they select with
``cases.select``), so ``case`` is required of a cell only (``check_cell``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..controllers.spec import DEFAULT_SPEC, validate_controller_param
from ..errors import UserError
from ..paramcheck import Params, choice, number, param, whole
from .cases import select
from .runner import SYN_RATE
from .verdicts import DROP, HUNG_MS

U32 = (1 << 32) - 1        # counts the engine reads as unsigned 32-bit: refused here, by flag


def _controller(v: Any) -> Optional[str]:
    return validate_controller_param("controller", v)


def _case(v: Any) -> Optional[str]:
    try:
        select(str(v), None)
    except UserError as e:
        return str(e).replace("--cases: ", "")
    return None


def _fraction(v: Any) -> Optional[str]:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1
    return None if ok else f"must be between 0 and 1 (a fraction of the rate before the case), got {v!r}"


@dataclass(frozen=True)
class Robustness:
    """One case's run (``case``) against a controller: its OpenFlow version (``None``:
    negotiated per launch, as ``controller bench``), the measured background the verdict reads,
    and how many fresh launches it is repeated on."""
    controller: str = param(DEFAULT_SPEC, _controller)
    case: Optional[str] = param(None, _case)
    of_version: Optional[str] = param(None, choice(("1.0", "1.3")), flag="--of")
    rate: Optional[float] = param(None, number(0, "of requests/s", above=True),
                                  help="offered requests/s of the measured switches beside the case "
                                       "(the legitimate ones under dos) (1000; Faucet: 200)")
    switches: int = param(4, whole(1, U32), help="measured switches beside the case (4)")
    drop: float = param(DROP, _fraction, help=f"rate drop that counts as degraded ({DROP})")
    hung_ms: float = param(HUNG_MS, number(0, "of milliseconds", above=True),
                           help=f"silence that counts as hung ({HUNG_MS} ms)")
    syn_rate: int = param(SYN_RATE, whole(1, U32), help=f"syn-flood: SYNs/s ({SYN_RATE}; needs root)")
    reps: int = param(3, whole(1, what="fresh launches"), help="repetitions, each against a fresh launch (3)")
    workers: Optional[int] = param(None, whole(1, U32))

    @property
    def background(self) -> dict:
        """The measured switches' load, as the engine's background takes it (unset: its defaults)."""
        return {k: v for k, v in (("rate", self.rate), ("switches", self.switches), ("workers", self.workers))
                if v is not None}


PARAMS = Params.table("robustness", Robustness, lambda p: [])
build, validate_param = PARAMS.build, PARAMS.validate_param


def check_cell(params: dict) -> list:
    """A cell's keys together: each is checked on its own first; a cell runs one case."""
    missing = [] if params.get("case") is not None else [("case", "a robustness cell needs a case")]
    return missing + PARAMS.check_cell(params)


def from_args(args, keys: tuple) -> Robustness:
    """The typed parameters of a command's flags ``keys`` (those given; the table's defaults
    for the rest), or one line naming every bad flag."""
    return build({k: getattr(args, k) for k in keys if getattr(args, k, None) is not None})
