"""RFC 8456 §5.1.3 rate search: the maximum and the loss-free asynchronous message processing
rate.

Procedure (as the RFC describes it, with our choices written down):
1. maximum: trials at the highest offered load (throughput mode, window full); the maximum APR
   (answered/s) counts once two trials agree within ±P% of each other;
2. loss-free: fixed-rate (open-loop) trials starting at the maximum, stepping the offered rate
   down by STEP each time, until a trial is *stable*; it counts once a second trial at the same
   rate is also stable and agrees within ±P%. A closed-loop maximum-load trial never counts as
   loss-free: its window hides a controller that falls behind.

A trial is stable (``Trial.unstable`` is empty) when all of these hold, each checked from the
trial's own counters (``trial_from``):
- nothing unsuccessful: no request lost, none answered late (after the loss timeout), none still
  in flight when the drain after the trial ended;
- the engine sent what was offered: its send rate over the measured loops is at least
  ``SEND_SHORTFALL`` below the offered rate at most;
- the controller kept up: answered/s over the measured loops at least (1 − ``BACKLOG``) × sent/s.
  Answers the drain collects after the last loop are no proof of keeping up: a controller whose
  queue grows through the trial answers less than it is sent *during* the trial.
Every trial is one row: offered, sent, APR, answered, late, lost, in flight at stop, loss,
marker ("max", "loss-free" or ""), and why it was not stable.

The search logic is pure: ``search(trial, ...)`` calls ``trial(rate)`` (None = maximum load),
which runs one measurement and returns a ``Trial``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import UserError
from .stored import EngineCounters


SEND_SHORTFALL = 0.01      # the engine may send at most 1% less than offered
BACKLOG = 0.01             # answered/s may fall at most 1% short of sent/s over the trial


@dataclass
class Trial:
    offered: float          # requests/s asked for (fixed rate), or sent (maximum load)
    apr: float              # answered requests/s over the measured loops
    loss: float             # 1 - answered / sent, over the whole trial (RFC: % unsuccessful)
    marker: str = ""
    sent: float = 0.0       # requests/s the engine actually sent over the measured loops
    answered: int = 0
    late: int = 0
    lost: int = 0
    in_flight: int = 0      # still unanswered when the drain after the trial ended
    unstable: str = ""      # why this trial cannot be loss-free ("" = stable)

    @property
    def stable(self) -> bool:
        return not self.unstable


def trial_from(rate: Optional[float], c: EngineCounters, sent_per_s: list, answered_per_s: list) -> Trial:
    """One trial's row from the engine's counters and its measured loops' sent/s and answered/s."""
    sent_total, answered = c.requests_sent or 0, c.requests_answered or 0
    late, lost, in_flight = c.late_replies or 0, c.requests_lost or 0, c.requests_in_flight_at_stop or 0
    sent = sum(sent_per_s) / len(sent_per_s) if sent_per_s else 0.0
    apr = sum(answered_per_s) / len(answered_per_s) if answered_per_s else 0.0
    why = []
    if lost or late or in_flight:
        why.append(f"{lost} lost, {late} late, {in_flight} in flight at stop")
    if rate is not None and sent < (1 - SEND_SHORTFALL) * rate:
        why.append(f"the engine sent {sent:,.0f}/s of {rate:,.0f}/s offered")
    if rate is None:
        why.append("maximum load (closed loop)")
    elif apr < (1 - BACKLOG) * sent:
        why.append(f"answers fell behind: {apr:,.0f}/s answered of {sent:,.0f}/s sent (the controller's queue grew)")
    loss = 1 - answered / sent_total if sent_total else 1.0
    return Trial(offered=sent if rate is None else rate, apr=apr, loss=max(0.0, loss), sent=sent,
                 answered=answered, late=late, lost=lost, in_flight=in_flight, unstable="; ".join(why))


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
    delta = parse_step(step, res.max_rate)
    rate = res.max_rate + delta      # the first open-loop trial is at the maximum itself
    while len(res.trials) < max_trials:
        rate -= delta
        if rate <= 0:
            res.stopped = "stepped down to zero without a loss-free rate"
            return res
        t = run(rate)
        if not t.stable:
            continue
        if len(res.trials) >= max_trials:
            break
        c = run(rate)
        if c.stable and agree(c.apr, t.apr, p_pct):
            best = max((t, c), key=lambda x: x.apr)
            best.marker = "loss-free"
            res.loss_free_rate = best.apr
            return res
    res.stopped = res.stopped or f"trial budget ({max_trials}) used up"
    return res
