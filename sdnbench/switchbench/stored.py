"""The counters of a stored ``switch bench`` test (``convert.py``: the tool's ``counters`` of each
test, ``crates/switchbench/SCHEMA.md``), declared once (``sdnbench.counters``). Each test writes
its own few; the others are ``None``. A campaign cell that merges several parts
(``cell.py``) keys a part's counters ``name[part]``: those are not read through this view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import View, counter


@dataclass(frozen=True)
class SwitchBenchCounters(View):
    # insertion, barrier
    flows: Optional[int] = counter("flows", "flows inserted")
    forwarded: Optional[int] = counter("flows", "flows whose probe was forwarded")
    never_forwarded: Optional[int] = counter("flows", "flows whose probe never was")
    flow_mod_errors: Optional[int] = counter("messages", "errors answering the flow-mods")
    forwarded_after_barrier: Optional[int] = counter("flows", "barrier=after: forwarded after the barrier reply")
    # insertion, barrier, pipeline
    probes_sent: Optional[int] = counter("frames", "probe frames sent")
    probes_received: Optional[int] = counter("frames", "probe frames received")
    # packet-in, packet-out, first-packet
    sent: Optional[int] = counter("messages", "packet-ins provoked / packet-outs sent")
    lost: Optional[int] = counter("messages", "of those (first-packet: rounds), never seen")
    errors: Optional[int] = counter("messages", "packet-out: errors from the switch")
    rounds: Optional[int] = counter("rounds", "first-packet: rounds run")
    next_packets_to_controller: Optional[int] = counter("frames", "first-packet: next packets still sent to the "
                                                        "controller")
    # stats
    flow_stats_entries: Optional[int] = counter("entries", "entries the flow stats reply listed")
    probes_sent_by_polling: Optional[dict] = counter("frames", "probe frames sent per polling (none, flow; "
                                                     "stored as probes_sent_<polling>)", prefix="probes_sent_")
    probes_received_by_polling: Optional[dict] = counter("frames", "probe frames received per polling "
                                                         "(stored as probes_received_<polling>)",
                                                         prefix="probes_received_")
    # capacity
    accepted: Optional[int] = counter("flows", "flow-mods the switch accepted")
    table_flows: Optional[int] = counter("flows", "flows the table reported")
    refusal: Optional[str] = counter("", "the switch's refusal (None: none)")
    sample_size: Optional[int] = counter("flows", "flows probed")
    sample_forwarded: Optional[int] = counter("flows", "of those, forwarded")
    verdict: Optional[str] = counter("", "refused-when-full / max-reached / silent-failure")
    # pipeline
    latency_lost: Optional[int] = counter("frames", "latency probes never received")
