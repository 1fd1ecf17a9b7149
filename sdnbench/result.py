"""The one results format that every benchmark produces.

A ``Result`` is what one measurement run yields, whether it came from the Rust load engine or the
Mininet runner, so the store, the statistics and the reports treat both alike.

Raw samples first: a ``Series`` holds every raw sample of one metric for one set of labels
(per packet RTTs for one payload size and host pair; per-interval throughput of one switch, ...).
Summaries are computed from series by ``sdnbench.stats``; they are never stored instead of them.

Serialized as JSON with ``"schema": "sdnbench.result/1"``.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

from . import __version__, jsonload
from .errors import UserError
from .machine import machine_info

SCHEMA = "sdnbench.result/1"


@dataclass
class Series:
    """Raw samples of one metric under one label set. ``t`` (seconds from the run's start) is
    optional; when present it has the same length as ``values``."""

    metric: str
    unit: str
    values: list
    labels: dict = field(default_factory=dict)
    t: Optional[list] = None

    def __post_init__(self) -> None:
        if self.t is not None and len(self.t) != len(self.values):
            raise ValueError(f"series {self.metric}: {len(self.t)} times for {len(self.values)} values")

    def matches(self, metric: Optional[str] = None, **labels: Any) -> bool:
        if metric is not None and self.metric != metric:
            return False
        return all(self.labels.get(k) == v for k, v in labels.items())


@dataclass
class Result:
    kind: str                      # "net" or "controller"
    benchmark: str                 # e.g. "ping", "iperf3-tcp", "throughput", "capacity"
    params: dict = field(default_factory=dict)
    series: list = field(default_factory=list)        # list[Series]: the measurement
    resources: list = field(default_factory=list)     # list[Series]: CPU %, RSS, threads over time
    counters: dict = field(default_factory=dict)      # totals, e.g. requests sent/answered/lost
    controller: Optional[dict] = None                 # spec, name, version, app, of_version, pid
    topology: Optional[dict] = None                   # spec, switches, hosts, links
    versions: dict = field(default_factory=dict)      # tool -> version
    machine: dict = field(default_factory=machine_info)
    notes: list = field(default_factory=list)         # warnings a reader must see
    status: str = "ok"                                # "ok" or "failed"
    error: Optional[str] = None
    started: float = field(default_factory=time.time)
    finished: Optional[float] = None
    sdnbench_version: str = __version__
    schema: str = SCHEMA

    def add(self, metric: str, unit: str, values: list, t: Optional[list] = None,
            **labels: Any) -> Series:
        s = Series(metric=metric, unit=unit, values=list(values), labels=labels,
                   t=list(t) if t is not None else None)
        self.series.append(s)
        return s

    def find(self, metric: Optional[str] = None, **labels: Any) -> list:
        return [s for s in self.series if s.matches(metric, **labels)]

    def finish(self, status: str = "ok", error: Optional[str] = None) -> "Result":
        self.finished = time.time()
        self.status = status
        self.error = error
        return self

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Result":
        if d.get("schema") != SCHEMA:
            raise UserError(f"not an sdnbench result (schema {d.get('schema')!r}, want {SCHEMA!r})")
        d = dict(d)
        d["series"] = [Series(**s) for s in d.get("series", [])]
        d["resources"] = [Series(**s) for s in d.get("resources", [])]
        known = cls.__dataclass_fields__.keys()
        return cls(**{k: v for k, v in d.items() if k in known})

    def write_json(self, path: Path) -> None:
        write_json_atomic(Path(path), self.to_dict())

    @classmethod
    def read_json(cls, path: Path) -> "Result":
        [r] = cls.read_json_list(path, one=True)
        return r

    @classmethod
    def read_json_list(cls, path: Path, one: bool = False) -> list:
        """The results of a file ``-o`` wrote: one Result, or a JSON list of them (what the
        ``controller`` commands write); ``one`` refuses a list."""
        data = jsonload.read(path, what="Result JSON file")
        items = data if isinstance(data, list) and not one else [data]
        for d in items:
            if not isinstance(d, dict):
                raise UserError(f"{path}: JSON, but not a Result (a {type(d).__name__})")
        try:
            return [cls.from_dict(d) for d in items]
        except (TypeError, AttributeError) as e:
            raise UserError(f"{path}: JSON, but not a Result ({e})")
        except UserError as e:
            raise UserError(f"{path}: {e}") from None


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON so that a crash leaves either the old file or the new one, never half of one
    (``output.write_file``: no temp file left, an error naming ``path``)."""
    from .output import write_file

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_file(path, (json.dumps(data, indent=1, default=_json_default) + "\n").encode())


def _json_default(o: Any) -> Any:
    if hasattr(o, "to_dict"):
        return o.to_dict()
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"cannot serialize {type(o).__name__}")

