"""Judging northbound polls (RFC 8456 §5.1.1, §5.2.2). Pure: times and link sets in, verdict out.

A poll is (t_ns, links or None, error). The run stops when
- the view equals the emulated links: ``complete`` at that poll's time;
- ``stable`` non-empty answers in a row are identical but not equal: ``incomplete`` (the RFC's
  "3 identical polls"); an empty view does not count, it means discovery has not started;
- the deadline passes: ``timeout``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..northbound.links import missing_and_extra, undirected_names


@dataclass
class Poll:
    t_ns: int
    links: Optional[frozenset] = None
    error: Optional[str] = None


@dataclass
class Verdict:
    state: str                       # complete | incomplete | timeout | running
    at_ns: Optional[int] = None      # the poll that decided (complete/incomplete)
    before_ns: Optional[int] = None  # the poll before it (the view changed in between)
    seen: int = 0                    # link directions in the last good answer
    want: int = 0
    missing: list = field(default_factory=list)
    extra: list = field(default_factory=list)

    def missing_names(self) -> list:
        return undirected_names(self.missing)


def judge(want: frozenset, polls: list, stable: int = 3, deadline_ns: Optional[int] = None) -> Verdict:
    good = [p for p in polls if p.links is not None]
    last = good[-1] if good else None
    seen = len(last.links) if last else 0
    missing, extra = missing_and_extra(set(want), set(last.links)) if last else (sorted(want), [])
    v = Verdict("running", seen=seen, want=len(want), missing=missing, extra=extra)
    if last is not None and last.links == want:
        v.state, v.at_ns = "complete", last.t_ns
        v.before_ns = good[-2].t_ns if len(good) > 1 else None
        return v
    tail = good[-stable:]
    if len(tail) == stable and tail[0].links and all(p.links == tail[0].links for p in tail):
        v.state, v.at_ns = "incomplete", last.t_ns
        return v
    if deadline_ns is not None and polls and polls[-1].t_ns >= deadline_ns:
        v.state = "timeout"
    return v
