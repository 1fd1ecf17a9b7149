"""§5.2.2 Network Discovery Size as one cell of the ``rfc8456`` campaign kind: the size search of
``sdnbench controller discovery --size-search`` (doubling, then bisection), each size with its
controller launched.

Its ``Test`` record (``suite.py``) carries ``Params`` and ``trial``; the record's ``params`` are a
cell's own defaults, the rest are the discovery suite's (``discovery/params.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..discovery import launched
from ..discovery import params as discovery_params
from ..paramcheck import param
from ..result import Result
from .cell_rules import controller, seconds, whole_1


@dataclass(frozen=True)
class Params:
    """The keys a discovery-size cell takes, with each key's own rule; the cell as a whole is
    judged as ``controller discovery --size-search`` judges it (``problems``)."""
    controller: Optional[str] = param(None, controller)
    of_version: Any = param(None)
    topo: Any = param(None)
    max_switches: Optional[int] = param(None, whole_1("max_switches"))
    poll_s: Optional[float] = param(None, seconds("poll_s"))
    deadline_s: Optional[float] = param(None, seconds("deadline_s"))
    stable: Any = param(None)
    api: Any = param(None)
    api_url: Any = param(None)
    workers: Any = param(None)

    @staticmethod
    def problems(params: dict, defaults: dict) -> list:
        """Every problem of one cell's combination of keys (``run --dry-run``)."""
        return discovery_params.problems(_as_size_search(params, defaults))


KEYS = frozenset(Params.__dataclass_fields__)


def _as_size_search(params: dict, defaults: dict) -> dict:
    """A discovery-size cell as ``controller discovery --size-search`` takes it, unchecked."""
    own = {k: v for k, v in defaults.items() if k != "test"}
    return {**own, **{k: v for k, v in params.items() if k in KEYS}, "size_search": True}


def size_params(params: dict, defaults: dict) -> discovery_params.Discovery:
    """A discovery-size cell's typed parameters (the discovery suite's), ``defaults`` (the
    record's) filled in, checked by the discovery suite before anything starts (``ParamError``
    names every problem)."""
    return discovery_params.build(_as_size_search(params, defaults), cli=False)


def trial(params: dict, defaults: dict) -> Result:
    p = size_params(params, defaults)
    res, seen, info, adapter = launched.size_search(p, p.max_switches)
    largest = res["largest"]
    r = launched.size_result(p, res, seen, info, adapter)
    r.kind, r.params = "rfc8456", dict(params)
    biggest = next((t for t in seen if t.get("size") == largest), None)
    r.counters.update({"largest_size": largest, "first_failure_size": res["first_failure"],
                       "size_tried": res["tried"],
                       "largest_switches": biggest.get("switches") if biggest else None,
                       "largest_links": biggest.get("links") if biggest else None,
                       "stopped": res.get("stopped")})
    if largest is not None:
        r.add("largest-size", "switches", [biggest.get("switches") if biggest else largest])
        r.status, r.error = "ok", None
    elif r.status == "ok":
        r.status, r.error = "failed", f"even {p.topo} was not discovered within {p.deadline_s:g} s"
    return r
