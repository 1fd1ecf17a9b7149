"""The counters of stored RFC 8456 path provisioning, re-provisioning and failover trials
(``provisioning_trial``, ``reprovisioning_trial``, ``failover_trial``: each trial's summary from
``provisioning``/``proactive``, ``reprovisioning``, ``failover``), declared once
(``sdnbench.counters``). ``invariant``/``network_invariant``: the engine's, ``ok`` or the one that
broke."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import View, counter


@dataclass(frozen=True)
class ProvisioningCounters(View):
    """§5.1.6/5.1.7 path provisioning and §5.2.3 forwarding table capacity (reactive; proactive)."""

    flows: Optional[int] = counter("flows", "flows offered")
    started: Optional[int] = counter("flows", "flows whose first frame was sent")
    provisioned: Optional[int] = counter("flows", "flows delivered across their path")
    timed_out: Optional[int] = counter("flows", "flows not delivered before their timeout")
    in_flight: Optional[int] = counter("flows", "flows still waiting at the end")
    late: Optional[int] = counter("flows", "flows delivered after their timeout")
    rate_per_s: Optional[float] = counter("paths/s", "provisioned per second of span_s (None: no span)")
    span_s: Optional[float] = counter("s", "first start to last delivery (proactive: first request)")
    invariant: Optional[str] = counter("", "the provisioning record's invariant")
    network_invariant: Optional[str] = counter("", "the emulated network's invariant")
    path_switches: Optional[int] = counter("switches", "switches on the flows' paths")
    entries_on_path_min: Optional[int] = counter("entries", "fewest flow entries on a path switch")
    entries_on_path_max: Optional[int] = counter("entries", "most flow entries on a path switch")
    entries_per_switch: Optional[dict] = counter("entries", "flow entries per switch (dpid as a string)")
    table_full: Optional[int] = counter("errors", "TABLE_FULL errors the switches sent")
    table_size: Optional[int] = counter("entries", "each switch's configured table size (0: unlimited)")
    delivered_frames: Optional[int] = counter("frames", "frames the hosts received")
    verdict: Optional[str] = counter("", "what the trial shows, in a few words")
    table_capacity: Optional[int] = counter("entries", "§5.2.3: entries reached (entries_on_path_max)")
    table_limit: Optional[str] = counter("", "what stopped the table growing: switch-table, controller, none")
    # proactive (flows pushed through the northbound API)
    before_request: Optional[int] = counter("flows", "delivered before their request: the controller did it itself")
    repeated: Optional[int] = counter("frames", "frames the engine sent again (repeat_ms)")
    pushed: Optional[int] = counter("paths", "paths pushed whole through the northbound API")
    refused: Optional[str] = counter("", "the northbound refusal that ended the pushing (None: none)")


@dataclass(frozen=True)
class ReprovisioningCounters(View):
    """§5.4.2 network re-provisioning time (a link fails)."""

    pairs: Optional[list] = counter("", "per stream pair: pair, sent, received, missing, reordered, "
                                    "before_failure, reprovisioning_ms, rfc_ms, lost, sender_late_ms")
    interval_us: Optional[int] = counter("us", "the streams' frame interval")
    failure_ms: Optional[float] = counter("ms", "when the link went down")
    rfc_reprovisioning_ms: Optional[float] = counter("ms", "(FDRT + RDRT) / 2 (None: a pair never resumed)")
    reprovisioning_ms: Optional[float] = counter("ms", "the slowest pair's first frame after the failure")
    lost_forward: Optional[int] = counter("frames", "frames lost on the first pair")
    lost_reverse: Optional[int] = counter("frames", "frames lost on the second pair")
    invariant: Optional[str] = counter("", "the stream record's invariant")
    network_invariant: Optional[str] = counter("", "the emulated network's invariant")
    verdict: Optional[str] = counter("", "what the trial shows, in a few words")


@dataclass(frozen=True)
class FailoverCounters(View):
    """§5.4.1 controller failover time (the master is killed)."""

    pairs: Optional[list] = counter("", "per stream pair: pair, sent, received, missing, before_kill, after_kill, "
                                    "gap_ms, resume_ms, lost")
    roles: Optional[dict] = counter("", "per switch (dpid): a_master, b_master_ms")
    kill_ms: Optional[float] = counter("ms", "the kill, from the streams' go")
    kill_in_window: Optional[bool] = counter("", "the kill fell inside the streams' window")
    a_master_everywhere: Optional[bool] = counter("", "every switch saw A as master before the kill")
    role_change_ms: Optional[float] = counter("ms", "kill -> the last switch sees B as master (None: one never did)")
    role_change_first_ms: Optional[float] = counter("ms", "kill -> the first switch sees B as master")
    switches_with_b_master: Optional[int] = counter("switches", "switches that saw B as master")
    switches: Optional[int] = counter("switches", "switches")
    rfc_failover_ms: Optional[float] = counter("ms", "T2 - T1: the longest gap on the streams")
    lost: Optional[int] = counter("frames", "frames lost on the streams")
    new_flow_ms: Optional[float] = counter("ms", "kill -> the first flow started after it is delivered")
    flows: Optional[int] = counter("flows", "flows offered")
    flows_started: Optional[int] = counter("flows", "flows started")
    flows_provisioned: Optional[int] = counter("flows", "flows delivered")
    flows_lost: Optional[int] = counter("flows", "flows timed out or in flight at the end")
    provisioning_invariant: Optional[str] = counter("", "the provisioning record's invariant")
    invariant: Optional[str] = counter("", "the stream record's invariant")
    network_invariant: Optional[str] = counter("", "the emulated network's invariant")
    verdict: Optional[str] = counter("", "what the trial shows, in a few words")


@dataclass(frozen=True)
class ExceptionsTrialCounters(View):
    """§5.3.1 exception handling as one suite trial (``exception_handling.trial``)."""

    exceptions_summary: Optional[list] = counter("", "one row per variant (robustness.exceptions.summarize)")
    answered_per_s: Optional[dict] = counter("requests/s", "mean answered/s per variant (stored as "
                                             "answered_per_s_<variant>)", prefix="answered_per_s_", item=float)
    drop: Optional[dict] = counter("ratio", "the drop against clean per invalid variant (stored as drop_<variant>)",
                                   prefix="drop_", item=float)
    invalid_sent: Optional[int] = counter("messages", "invalid packet-ins sent, all variants")
    sessions_lost: Optional[int] = counter("sessions", "sessions lost, all variants")
