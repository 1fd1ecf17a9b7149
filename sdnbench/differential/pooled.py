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
- it is judged by the floor's own rule (``noise.is_noise``) against the Open vSwitch runs of
  the cell and of the other cells of the same controller and version (``Sample``), each side
  read so that a run only counts where it is comparable: an item only the engine had (in its
  connect phase) is noise when some run had it *in its connect phase* (``pre``); an item only
  A had is noise when some run lacked it *in the whole run* (``whole``: a run of another
  stimulus that shows it only after its stimulus may have shown the same message late, so it
  counts as having it). An item every run shows and the engine lacks, or one only the engine
  shows, stays unexplained however many runs pool.

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
    its items before the stimulus and all its items ({category: set} each)."""
    stimulus: str
    run: str
    pre: dict
    whole: dict

    def evidence(self, side: str) -> dict:
        """The items that count for an item only ``side`` had (module doc)."""
        return self.pre if side == "only_engine" else self.whole


def samples(stimulus: str, runs: dict) -> list:
    """The connect-phase samples of a cell's Open vSwitch runs ({run name: View}; the engine's
    left out), those whose views have the phase."""
    return [Sample(stimulus, name, {c: frozenset(v.pre[c]) for c in PHASED},
                   {c: frozenset(getattr(v, c)) for c in PHASED})
            for name, v in runs.items() if name != "engine" and getattr(v, "pre", None) is not None]


def connect_phase_only(view, cat: str, item: str) -> bool:
    """Does ``view`` show ``item`` only before the stimulus (so that it may pool)?"""
    if cat not in PHASED or getattr(view, "pre", None) is None:
        return False
    return item in view.pre[cat] and item not in view.post[cat]
