"""The counters of a stored ``controller`` result that the engine measured (``convert.to_result``),
declared once (``sdnbench.counters``): read them as ``EngineCounters.of(result).requests_sent``.

The totals, efficiency and capacity figures are the engine's document's own fields
(``crates/engine/SCHEMA.md``, ``result_types.Totals``/``Efficiency``/``Capacity``, the last two
with ``engine_``/``capacity_`` before their names); ``test_stored`` fails when the schema gains a
field this view does not declare. Every counter is ``None`` in a result stored before it existed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import View, counter


@dataclass(frozen=True)
class EngineCounters(View):
    # totals, over the whole run (``totals``)
    requests_sent: Optional[int] = counter("requests", "requests sent")
    requests_answered: Optional[int] = counter("requests", "requests answered (the first reply naming each)")
    requests_lost: Optional[int] = counter("requests", "timed out and never answered, or in flight at a disconnect")
    late_replies: Optional[int] = counter("requests", "answered after their loss timeout (neither answered nor lost)")
    late_latency_us: Optional[dict] = counter("us", "the late replies' count, mean and max latency")
    requests_in_flight_at_stop: Optional[int] = counter("requests", "neither answered nor timed out at the end")
    requests_discarded: Optional[int] = counter("requests", "answered in a pause after a loop, thrown away")
    requests_not_sent_disconnected: Optional[int] = counter("requests", "fixed rate: due while the switch had no session")
    extra_replies: Optional[int] = counter("messages", "further request-related messages beyond the first answer")
    extra_per_answered: Optional[float] = counter("ratio", "extra_replies / requests_answered")
    unmatched_replies: Optional[int] = counter("messages", "replies naming no request")
    learning_replies: Optional[int] = counter("messages", "answers to the learning phase (not measured)")
    learning_late_replies: Optional[int] = counter("messages", "learning answers after the measured phase began")
    invalid_packet_ins_sent: Optional[int] = counter("messages", "malformed packet-ins sent (robustness exceptions)")
    errors: Optional[int] = counter("messages", "OpenFlow errors from the controller")
    errors_by_code: Optional[dict] = counter("messages", "errors by \"type.code\" (stored as errors_<code>)",
                                             prefix="errors_")
    replies_by_type: Optional[dict] = counter("messages", "every message from the controller by type name "
                                              "(stored as replies_<type>)", prefix="replies_")
    disconnects: Optional[int] = counter("switches", "switches whose session was lost")
    sessions_lost: Optional[int] = counter("sessions", "sessions that were up and ended before the run did")
    reconnect_attempts: Optional[int] = counter("attempts", "reconnection attempts")
    reconnects: Optional[int] = counter("sessions", "attempts whose session came up (re-established)")
    reconnect_failures: Optional[int] = counter("attempts", "attempts refused, unfinished or still connecting")
    switches_down_at_stop: Optional[int] = counter("switches", "no session when the run ended, after a loss")
    switches_reconnecting_at_stop: Optional[int] = counter("switches", "of those, only waiting out their backoff")
    disconnected_ms: Optional[float] = counter("ms", "time without a session after each loss")
    # the sessions' opening (``handshake``, ``transport``)
    sessions_up: Optional[int] = counter("sessions", "sessions up after the handshake phase")
    sessions_failed: Optional[int] = counter("sessions", "sessions attempted that did not come up")
    handshake_s: Optional[float] = counter("s", "until the last session was up")
    handshake_rate_per_s: Optional[float] = counter("sessions/s", "sessions up per second of handshake_s")
    sessions_tls: Optional[int] = counter("sessions", "TLS runs: sessions that completed TLS")
    tcp_connect_p50_us: Optional[float] = counter("us", "TCP connect, median over the switches")
    tcp_connect_p90_us: Optional[float] = counter("us", "TCP connect, 90th percentile")
    tcp_connect_p99_us: Optional[float] = counter("us", "TCP connect, 99th percentile")
    tcp_connect_max_us: Optional[float] = counter("us", "TCP connect, maximum")
    tls_handshake_p50_us: Optional[float] = counter("us", "TLS handshake, median over the switches")
    tls_handshake_p90_us: Optional[float] = counter("us", "TLS handshake, 90th percentile")
    tls_handshake_p99_us: Optional[float] = counter("us", "TLS handshake, 99th percentile")
    tls_handshake_max_us: Optional[float] = counter("us", "TLS handshake, maximum")
    openflow_handshake_p50_us: Optional[float] = counter("us", "OpenFlow handshake, median over the switches")
    openflow_handshake_p90_us: Optional[float] = counter("us", "OpenFlow handshake, 90th percentile")
    openflow_handshake_p99_us: Optional[float] = counter("us", "OpenFlow handshake, 99th percentile")
    openflow_handshake_max_us: Optional[float] = counter("us", "OpenFlow handshake, maximum")
    # latency of the answered requests in the measured loops (``latency``)
    latency_p50_us: Optional[float] = counter("us", "median latency")
    latency_p90_us: Optional[float] = counter("us", "90th percentile latency")
    latency_p99_us: Optional[float] = counter("us", "99th percentile latency")
    latency_p99_9_us: Optional[float] = counter("us", "99.9th percentile latency")
    latency_max_us: Optional[float] = counter("us", "maximum latency")
    latency_mean_us: Optional[float] = counter("us", "mean latency")
    # the engine's own cost (``efficiency``)
    engine_engine_cpu_s: Optional[float] = counter("s", "engine CPU time in the measured loops")
    engine_measured_answered: Optional[int] = counter("requests", "answered in the measured loops")
    engine_answered_per_engine_cpu_s: Optional[float] = counter("requests/s", "answered per engine CPU-second")
    engine_coalescing: Optional[dict] = counter("", "coalescing: pct, waits, waited_s, max_quantum_us")
    # capacity mode (``capacity``)
    capacity_attempted: Optional[int] = counter("sessions", "sessions tried")
    capacity_established: Optional[int] = counter("sessions", "sessions that completed handshake and echo")
    capacity_held: Optional[int] = counter("sessions", "of those, still up after the hold")
    capacity_hold_ms: Optional[int] = counter("ms", "the hold")
    capacity_establish_s: Optional[float] = counter("s", "time to establish them")
    capacity_rate_per_s: Optional[float] = counter("sessions/s", "established per second of capacity_establish_s")
    capacity_first_failure: Optional[str] = counter("", "why the next session could not be opened "
                                                    "(None: the requested number was reached)")


@dataclass(frozen=True)
class RateSearchCounters(View):
    """``controller search`` (``rate_search.search_result``): one result for the whole search."""

    max_rate: Optional[float] = counter("flows/s", "RFC 8456 §5.1.3 maximum asynchronous message processing rate")
    loss_free_rate: Optional[float] = counter("flows/s", "RFC 8456 §5.1.3 loss-free rate")
    trials: Optional[int] = counter("trials", "trials run")
    markers: Optional[list] = counter("", "each trial's marker, in trial order")
    unstable: Optional[list] = counter("", "each trial's reason it cannot be loss-free (\"\": stable)")
