"""The counters of a stored ``net`` result (``runner.py`` and its tools: ``ping.py``, ``iperf.py``,
``ditg.py``), declared once (``sdnbench.counters``): totals over every host pair, beside the raw
series. A counter of a tool the benchmark did not run is ``None``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import View, counter


@dataclass(frozen=True)
class NetCounters(View):
    pairs: Optional[int] = counter("pairs", "host pairs measured")
    ping_sent: Optional[int] = counter("packets", "echo requests sent")
    ping_lost: Optional[int] = counter("packets", "echo requests never answered")
    tcp_retransmits: Optional[int] = counter("segments", "iperf3 TCP retransmissions, as the sender's intervals count them")
    udp_datagrams: Optional[int] = counter("datagrams", "iperf3 UDP datagrams, as the receiver's intervals count them")
    udp_lost: Optional[int] = counter("datagrams", "of those, lost (the receiver's lost_packets)")
    ditg_packets: Optional[int] = counter("packets", "D-ITG decoder summary: total packets")
    ditg_dropped: Optional[int] = counter("packets", "D-ITG decoder summary: packets dropped")
