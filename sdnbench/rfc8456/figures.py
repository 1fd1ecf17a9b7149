"""Each RFC 8456 test's figures: how one trial's ``Result`` becomes the number the RFC reports.

A figure has a name, a unit and a direction (``higher`` is better or not). ``value(result)`` is
the trial's figure, None when the trial did not produce it. Pure: Results in, numbers out.

- §5.1.1: the trial's discovery time (until the northbound view equals the emulated links, to
  the poll interval), and the RFC's DT = Tmn − Tm1 (first LLDP packet-out to last LLDP
  packet-in, at the emulator's southbound interface).
- §5.1.2 APT: the mean of the trial's per-request latencies (µs); §5.1.3 APR: the mean of its
  per-loop answered rates.
- §5.1.4–5.1.7: the mean provisioning time of the trial's flows (ms) and its rate (paths/s).
- §5.1.8: time until the view showed the link down.
- §5.2.1 CCn, §5.2.2 Ns (switches of the largest topology discovered), §5.2.3 Nrp (entries).
- §5.3.1: the clean run's answered rate, and the rate with 1 % and 2 % invalid packet-ins
  against it (%).
- §5.3.2: the legitimate switches' answered rate during the attack against before (%), and
  their latency p99 during the attack.
- §5.4.1: the first frame after the gap minus the last before it (ms) and the first new flow
  provisioned by the standby; §5.4.2: (FDRT + RDRT) / 2 (ms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean
from typing import Callable, Optional

from ..discovery.stored import DiscoverySizeCounters
from ..engine.stored import EngineCounters
from ..robustness.stored import RobustnessCounters
from .stored import (ExceptionsTrialCounters, FailoverCounters, ProvisioningCounters, ReprovisioningCounters)


@dataclass(frozen=True)
class Figure:
    name: str
    unit: str
    higher: bool
    get: Callable

    def value(self, r) -> Optional[float]:
        if r is None or r.status != "ok":
            return None
        try:
            v = self.get(r)
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            return None
        if v is None or isinstance(v, bool) or not math.isfinite(float(v)):
            return None
        return float(v)


def _series_mean(metric: str, **labels) -> Callable:
    def get(r):
        vals = [v for s in r.find(metric, **labels) for v in s.values if v is not None]
        return fmean(vals) if vals else None
    return get


def _ms(get: Callable) -> Callable:
    def in_ms(r):
        v = get(r)
        return None if v is None else 1000.0 * v
    return in_ms


def _exc_rate(variant: str) -> Callable:
    return lambda r: ExceptionsTrialCounters.of(r).answered_per_s[variant]


def _exc_change(variant: str) -> Callable:
    def get(r):
        d = (ExceptionsTrialCounters.of(r).drop or {}).get(variant)
        return None if d is None else -100.0 * d
    return get


def _dos_change(r):
    ph = RobustnessCounters.of(r).robustness["phases"]
    return 100.0 * (ph["during"] / ph["before"] - 1)


def _dos_p99(r):
    return RobustnessCounters.of(r).robustness["phases"]["lat_p99_during"] / 1000.0


TIME_RATE = (Figure("provisioning time", "ms", False, _series_mean("provisioning_time")),
             Figure("provisioning rate", "paths/s", True, _series_mean("provisioning_rate")))
DOS = (Figure("answered during attack", "% vs before", True, _dos_change),
       Figure("latency p99 during attack", "ms", False, _dos_p99))
DISCOVERY = (Figure("discovery time", "s", False, _series_mean("discovery_time")),
             Figure("RFC DT (Tmn − Tm1)", "ms", False, _ms(_series_mean("discovery_rfc_dt"))))
APT = (Figure("processing time", "µs", False, _series_mean("latency")),)
APR = (Figure("processing rate", "responses/s", True, _series_mean("throughput")),)
CHANGE = (Figure("link-down detection", "s", False, _series_mean("change_detect_down")),)
SESSIONS = (Figure("sessions held", "sessions", True, _series_mean("sessions")),)
SIZE = (Figure("largest discovered", "switches", True, _series_mean("largest-size")),)
ENTRIES = (Figure("entries", "entries", True, _series_mean("table_capacity")),)
EXCEPTIONS = (Figure("rate clean", "responses/s", True, _exc_rate("clean")),
              Figure("rate with 1% invalid", "% vs clean", True, _exc_change("1%")),
              Figure("rate with 2% invalid", "% vs clean", True, _exc_change("2%")))
FAILOVER = (Figure("failover time", "ms", False, _series_mean("failover_time")),
            Figure("new flow after the kill", "ms", False, _series_mean("new_flow_time")))
REPROVISIONING = (Figure("re-provisioning time", "ms", False, _series_mean("rfc_reprovisioning_time")),)


# -- what a trial hit: the test's own limit (its figure is then a lower bound) -----------------------
def sessions_at_limit(r) -> bool:
    """Every session offered was held (§5.2.1)."""
    c = EngineCounters.of(r)
    return c.capacity_first_failure is None and c.capacity_held == c.capacity_attempted


def size_at_limit(r) -> bool:
    """The size search stopped at its maximum (§5.2.2)."""
    return bool(DiscoverySizeCounters.of(r).stopped)


# -- a trial's own words beside its figures (each takes the trial's Result): a verdict, the sizes
# it reached, its losses ---------------------------------------------------------------------------
def no_detail(r) -> str:
    return ""


def dos_detail(r) -> str:
    rb = RobustnessCounters.of(r).robustness or {}
    return f"{rb.get('verdict', '')}: {rb.get('evidence', '')}".strip(": ")


def exceptions_detail(r) -> str:
    c = ExceptionsTrialCounters.of(r)
    return f"{c.invalid_sent or 0:,} invalid sent, {c.sessions_lost or 0} sessions lost"


def size_detail(r) -> str:
    c = DiscoverySizeCounters.of(r)
    return (f"tried {', '.join(f'{n}{chr(10003) if ok else chr(10007)}' for n, ok in c.size_tried or [])}"
            + (f"; {c.stopped}" if c.stopped else ""))


def provisioning_detail(r) -> str:
    c = ProvisioningCounters.of(r)
    return f"{c.provisioned}/{c.flows} provisioned, {_or(c.verdict, _or(c.invariant, ''))}"


def stream_detail(r) -> str:
    """Failover counts its lost frames; re-provisioning, per direction."""
    lost = FailoverCounters.of(r).lost
    if lost is None:
        rp = ReprovisioningCounters.of(r)
        lost = (rp.lost_forward or 0) + (rp.lost_reverse or 0)
    return f"{_or(FailoverCounters.of(r).verdict, '')}, {lost} frames lost"


def _or(v, absent):
    return absent if v is None else v


def sessions_detail(r) -> str:
    c = EngineCounters.of(r)
    return f"{c.capacity_established} of {c.capacity_attempted} established"


def async_detail(r) -> str:
    c = EngineCounters.of(r)
    sent, got = c.requests_sent, c.requests_answered
    if not (isinstance(sent, int) and isinstance(got, int) and sent):
        return ""
    return f"Nrx {got:,} of Ntx {sent:,} ({100 * (1 - got / sent):.2f}% unsuccessful)"
