"""RFC 8456 §5.1.3 rate search: the maximum and the loss-free asynchronous message processing
rate.

Procedure (as the RFC describes it, with our choices written down):
1. maximum: trials at the highest offered load (throughput mode, window full); the maximum APR
   (answered/s) counts once two trials agree within ±P% of each other;
2. loss-free: fixed-rate trials starting at the maximum, stepping the offered rate down by STEP
   each time, until a trial has no loss; it counts once a second trial at the same rate is also
   loss-free and agrees within ±P%. Loss is 1 − answered/sent (RFC: % unsuccessful).
Every trial is one row: offered rate, APR, loss ratio, marker ("max", "loss-free" or "").

The search logic is pure: ``search(trial, ...)`` calls ``trial(rate)`` (None = maximum load),
which runs one measurement and returns a ``Trial``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import UserError


@dataclass
class Trial:
    offered: float          # requests/s sent
    apr: float              # answered requests/s
    loss: float             # 1 - answered / sent
    marker: str = ""


@dataclass
class SearchResult:
    trials: list = field(default_factory=list)
    max_rate: Optional[float] = None
    loss_free_rate: Optional[float] = None
    stopped: str = ""


def agree(a: float, b: float, p_pct: float) -> bool:
    """Within ±P% of each other (relative to the larger)."""
    hi = max(abs(a), abs(b))
    return hi == 0 or abs(a - b) <= hi * p_pct / 100.0


def parse_step(text: str, reference: float) -> float:
    """STEP as an absolute rate ("5000") or a percentage of ``reference`` ("10%")."""
    t = str(text).strip()
    try:
        v = float(t[:-1]) * reference / 100.0 if t.endswith("%") else float(t)
    except ValueError:
        raise UserError(f"--step must be a rate or a percentage such as 10%, not {text!r}")
    if v <= 0:
        raise UserError(f"--step must be positive, not {text!r}")
    return v


def search(trial: Callable[[Optional[float]], Trial], step: str = "10%", p_pct: float = 5.0,
           max_trials: int = 20) -> SearchResult:
    res = SearchResult()

    def run(rate: Optional[float]) -> Trial:
        t = trial(rate)
        res.trials.append(t)
        return t

    prev = run(None)
    while res.max_rate is None:
        if len(res.trials) >= max_trials:
            res.stopped = f"no two maximum-load trials agreed within ±{p_pct:g}% in {max_trials} trials"
            return res
        t = run(None)
        if agree(t.apr, prev.apr, p_pct):
            best = max((prev, t), key=lambda x: x.apr)
            best.marker = "max"
            res.max_rate = best.apr
        prev = t
    if prev.loss == 0 and res.trials[-2].loss == 0:
        res.loss_free_rate = res.max_rate
        res.stopped = "the maximum load was already loss-free"
        return res
    delta = parse_step(step, res.max_rate)
    rate = res.max_rate
    while len(res.trials) < max_trials:
        rate -= delta
        if rate <= 0:
            res.stopped = "stepped down to zero without a loss-free rate"
            return res
        t = run(rate)
        if t.loss > 0:
            continue
        if len(res.trials) >= max_trials:
            break
        c = run(rate)
        if c.loss == 0 and agree(c.apr, t.apr, p_pct):
            best = max((t, c), key=lambda x: x.apr)
            best.marker = "loss-free"
            res.loss_free_rate = best.apr
            return res
    res.stopped = res.stopped or f"trial budget ({max_trials}) used up"
    return res
