"""The counters of a stored topology discovery result (``record.to_result``,
``launched.size_result``), declared once (``sdnbench.counters``). The topology-change result
(``change.py``) keeps its trial's record as counters and is not declared here yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import View, counter


@dataclass(frozen=True)
class DiscoveryCounters(View):
    """RFC 8456 §5.1.5 topology discovery (``topology-discovery``)."""

    rfc8456: Optional[dict] = counter("", "the §4.8 reporting fields (controller, topology, nodes, links, ...)")
    trials: Optional[list] = counter("", "every trial's record (state, discovery_s, verification, southbound, "
                                     "seen/want, missing)")
    trials_complete: Optional[int] = counter("trials", "trials that saw the whole topology")
    trials_total: Optional[int] = counter("trials", "trials run")
    discovery_mean_s: Optional[float] = counter("s", "mean discovery time of the complete trials")
    discovery_variance_s2: Optional[float] = counter("s²", "its variance (n - 1, RFC 8456 §4.7)")


@dataclass(frozen=True)
class DiscoverySizeCounters(DiscoveryCounters):
    """RFC 8456 §5.2.2 network discovery size (``topology-discovery-size``)."""

    largest_size: Optional[int] = counter("switches", "the largest size discovered in time (None: none)")
    first_failure_size: Optional[int] = counter("switches", "the first size that failed (None: none did)")
    size_tried: Optional[list] = counter("", "[size, discovered in time] of every size tried, in order")
    # the RFC 8456 suite's §5.2.2 cell (``rfc8456/discovery_size.py``) adds
    largest_switches: Optional[int] = counter("switches", "switches of the largest size discovered in time")
    largest_links: Optional[int] = counter("links", "its links")
    stopped: Optional[str] = counter("", "why the search stopped short of a failure (None: it found one)")
