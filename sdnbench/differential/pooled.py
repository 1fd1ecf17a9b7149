"""Pure: the pooled connect-phase floor (docs/conformance.md, "The noise floor and the verdicts").

Every stimulus but ``restart`` and ``echo-silence`` (whose compared window starts later) begins
with the same connect phase: the controller launched fresh, the switches' handshake, the
controller's first flows and probes, until the stimulus at ``stimuli.SETTLE_S`` after the
handshake (``clock.py``). Up to that moment nothing differs between the cells of one controller
and OpenFlow version, so the Open vSwitch runs of all of them are samples of the same connect
phase; a cell's own two or three runs are one small sample of it.

What may pool, from the views (``normalise.View.pre`` / ``post``, read from each message's
capture time against the run's own handshake):

- an item of ``received`` or ``sent`` that the run having it (OVS A for an item only OVS had,
  the engine for an item only the engine had) shows *only* before the stimulus: an item also
  seen at or after the stimulus is a difference after it too, which other stimuli's runs did
  not sample, and is never pooled; ``flows`` (read at the end) never pool, nor ``SESSIONS``;
- it is judged by the floor's own rule (``noise.is_noise``) against the connect phases (the
  ``pre`` items) of every Open vSwitch run of the cell and of the other cells of the same
  controller and version (``Sample``): noise when Open vSwitch runs disagree about it there;
  an item every connect phase shows and the engine lacks, or one only the engine shows, stays
  unexplained however many runs pool.

Only Open vSwitch runs pool (never an engine run), and only runs whose views have the phase
(``pre`` not None).
"""

from __future__ import annotations

from dataclasses import dataclass

PHASED = ("received", "sent")
LABEL = "pooled"                 # an item the pooled connect-phase floor makes noise


@dataclass(frozen=True)
class Sample:
    """The connect phase of one Open vSwitch run: which cell (stimulus) and run it came from,
    and its items before the stimulus ({category: set})."""
    stimulus: str
    run: str
    pre: dict


def samples(stimulus: str, runs: dict) -> list:
    """The connect-phase samples of a cell's Open vSwitch runs ({run name: View}; the engine's
    left out), those whose views have the phase."""
    return [Sample(stimulus, name, {c: frozenset(v.pre[c]) for c in PHASED})
            for name, v in runs.items() if name != "engine" and getattr(v, "pre", None) is not None]


def connect_phase_only(view, cat: str, item: str) -> bool:
    """Does ``view`` show ``item`` only before the stimulus (so that it may pool)?"""
    if cat not in PHASED or getattr(view, "pre", None) is None:
        return False
    return item in view.pre[cat] and item not in view.post[cat]
