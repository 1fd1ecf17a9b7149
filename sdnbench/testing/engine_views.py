"""Typed views of parts of the engine's document (``engine/result_types.py``) for known-answer
tests: each builder takes the fields a test cares about, gives every other field of the schema
a neutral value, and reads the whole through ``from_json``, so a test's made-up record is checked
against the schema as a real one is (a field the schema renames breaks the test, not the reader)."""

from __future__ import annotations

from sdnbench.engine.result_types import Idle, Loops, Observation, PairReport


def observation(**fields) -> Observation:
    """A robustness observation (``robustness`` of the document): nothing seen unless given."""
    o = {"attacker_dpid": 5, "bytes_sent": 0, "case": "x", "closed_by_controller": None, "connect_error": None,
         "connected": True, "ended_s": 3.5, "errors": [], "family": "test", "finished_s": 3.5, "flood_sent": 0,
         "handshake_ms": None, "idle": None, "notes": [], "of_version": 4, "probe_answered": None,
         "probe_rtt_ms": None, "received": {}, "started_s": 1.5, "syn_refused": 0, "syn_sent": 0}
    o.update(fields)
    return Observation.from_json(o, "robustness")


def idle(**fields) -> Idle:
    """A connection flood's idle connections (``robustness.idle``)."""
    o = {"closed_by_controller": 0, "files_room": 0, "limit": 1, "opened": 0, "refusal": None, "refused": 0,
         "stopped_by": ""}
    o.update(fields)
    return Idle.from_json(o, "robustness.idle")


def loops(**fields) -> Loops:
    """The per-loop record (``loops``); ``k``, ``t_s`` and ``answered`` given, the counters the
    readers under test do not read zero."""
    n = len(fields["k"])
    o = {"latency_us": None, "lost_cumulative": [0] * n, "sent": [0] * n, "sessions_up": [0] * n}
    o.update(fields)
    return Loops.from_json(o, "loops")


def pair_report(**fields) -> PairReport:
    """One stream pair's raw record (``network.stream.pairs[i]``)."""
    o = {"dst": 1, "events": [], "first_rx_ns": 0, "first_sent_ns": 0, "first_seq": None, "gaps": [],
         "gaps_dropped": 0, "last_rx_ns": 0, "last_seq": None, "max_late_ns": 0, "max_seq_gap": 0, "max_time_gap_ns": 0,
         "received": 0, "reordered": 0, "sent": 0, "src": 0}
    o.update(fields)
    return PairReport.from_json(o, "network.stream.pairs[0]")
