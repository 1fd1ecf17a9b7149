"""Known-answer tests of the engine's numbers: a scripted controller (``scripted_controller.py``)
does exactly what each test says — drop 1 request in K, answer after the loss timeout, speak
only OpenFlow 1.0, send a broken length field — and counts what it did; the engine's figures
must agree. Also: the written counter invariants hold for every workload."""

import struct
import time

import pytest

from sdnbench.testing.engine_fixtures import HIST_FLOOR, assert_reads_delay, engine_longest_wait_ms, free_port, responder, run_doc, scheduling_slack_us
from sdnbench.testing.peers.scripted_controller import ScriptedController
from sdnbench.errors import UserError

pytestmark = pytest.mark.integration

SHORT = dict(macs=4, learn=False, loops=2, loop_ms=400, warmup=1)


def _invariant(t: dict) -> None:
    assert t["requests_sent"] == (t["requests_answered"] + t["late_replies"] + t["requests_lost"]
                                  + t["requests_discarded"] + t["requests_in_flight_at_stop"]), t
    # reconnection (crates/engine/SCHEMA.md): every lost session came back or is down at the stop
    assert t["sessions_lost"] == t["reconnects"] + t["switches_down_at_stop"], t
    assert t["reconnect_attempts"] == t["reconnects"] + t["reconnect_failures"], t
    assert (t["disconnected_ms"] > 0) == (t["sessions_lost"] > 0), t
    assert t["switches_reconnecting_at_stop"] <= t["switches_down_at_stop"], t


def test_one_in_k_answered_reads_its_share_not_zero():
    with ScriptedController(version=4) as ctl:
        full = run_doc(ctl.address, switches=2, **SHORT)
    with ScriptedController(version=4, drop_every=2) as ctl:
        doc = run_doc(ctl.address, switches=2, **SHORT)
    t = doc["totals"]
    _invariant(t)
    # every dropped request is lost (or still in flight at the stop); every answer counted
    assert t["requests_lost"] + t["requests_in_flight_at_stop"] == ctl.dropped
    assert t["requests_answered"] + t["late_replies"] == len(ctl.answered_ids)
    assert abs(t["requests_lost"] / t["requests_sent"] - 0.5) < 0.01
    # the window keeps the controller loaded: the engine before this read 0 here. Dropping is
    # cheaper for the controller than answering, so the share is at least (1 - 1/K), give or
    # take the noise of a Python controller on a shared machine.
    ratio = doc["throughput"]["mean"] / full["throughput"]["mean"]
    assert ratio > 0.35, (ratio, doc["throughput"]["mean"], full["throughput"]["mean"])
    assert doc["status"] == "ok"


def test_answers_after_the_loss_timeout_are_late_with_their_latency():
    delay_ms = 300
    with ScriptedController(version=4, delay_s=delay_ms / 1000) as ctl:
        doc = run_doc(ctl.address, mode="latency", switches=1, macs=4, learn=False, loops=2, loop_ms=500,
                      warmup=0, timeout_ms=100, adaptive_timeout=False)
    t = doc["totals"]
    _invariant(t)
    assert t["requests_answered"] == 0 and t["late_replies"] >= 4, t
    lat = t["late_latency_us"]
    assert lat["count"] == t["late_replies"]
    # within 5% (+5 ms) of the delay, plus how late the peer's timer fired on average (its own record)
    late_ms = sum(ctl.late_s) / len(ctl.late_s) * 1000
    assert abs(lat["mean"] / 1000 - delay_ms - late_ms) <= 0.05 * delay_ms + 5, (lat, late_ms)
    assert doc["status"] == "failed" and "nothing measured" in doc["error"]


def test_an_address_where_nothing_listens_is_refused_before_the_run_naming_it():
    # issue 40: the user's wrong address, not the controller's failure: exit 1, one line naming
    # --controller and the address, before any session (the kernel's listening table is read)
    port = free_port()
    t0 = time.monotonic()
    with pytest.raises(UserError, match=f"--controller 127.0.0.1:{port}: nothing listens there"):
        run_doc(f"127.0.0.1:{port}", switches=2, loops=1, loop_ms=200, warmup=0)
    assert time.monotonic() - t0 < 3


def test_a_version_mismatch_names_the_fix():
    with ScriptedController(version=1) as ctl:
        doc = run_doc(ctl.address, of_version="1.3", switches=1, loops=1, loop_ms=200, warmup=0)
        assert doc["status"] == "failed"
        assert "answered HELLO with 1.0 only" in doc["error"] and "use --of 1.0" in doc["error"], doc["error"]
        # without --of the engine offers both and follows the controller
        doc = run_doc(ctl.address, switches=1, loops=1, loop_ms=200, warmup=0, learn=False)
    assert doc["status"] == "ok" and doc["switches"][0]["of_version"] == "1.0"


def test_a_broken_length_field_fails_the_run():
    with ScriptedController(version=4, garbage_after=5) as ctl:
        doc = run_doc(ctl.address, switches=1, reconnect=False, **SHORT)
    assert doc["status"] == "failed", doc["status"]
    assert "every session was lost" in doc["error"] and "length" in doc["error"], doc["error"]
    assert doc["disconnects"][0]["kind"] == "malformed"
    _invariant(doc["totals"])


def test_a_broken_length_field_costs_a_reconnection_when_switches_reconnect():
    # garbage on the first connection only: the switch is back after OVS's first backoff (1 s)
    with ScriptedController(version=4, garbage_after=5) as ctl:
        doc = run_doc(ctl.address, switches=1, **dict(SHORT, loops=3))
    t = doc["totals"]
    _invariant(t)
    assert (t["sessions_lost"], t["reconnects"], ctl.accepted) == (1, 1, 2), t
    assert 1000 <= t["disconnected_ms"] < 1300, t
    assert doc["status"] == "partial" and "1 of them re-established" in doc["error"], doc["error"]


@pytest.mark.parametrize("mode, extra", [("throughput", {}), ("latency", {}), ("fixed-rate", {"rate": 2000})])
def test_counters_add_up_in_every_request_workload(mode, extra):
    with ScriptedController(version=4, drop_every=3) as ctl:
        doc = run_doc(ctl.address, mode=mode, switches=3, timeout_ms=200, **SHORT, **extra)
    t = doc["totals"]
    _invariant(t)
    assert t["requests_sent"] == ctl.packet_ins
    assert sum(doc["loops"]["sent"]) <= t["requests_sent"]


def test_capacity_counters_add_up():
    with ScriptedController(version=4) as ctl:
        doc = run_doc(ctl.address, mode="capacity", switches=5, hold_ms=200, loops=1)
    c = doc["capacity"]
    assert c["attempted"] == c["established"] + (1 if c["first_failure"] else 0)
    assert c["held"] <= c["established"] == 5 == ctl.accepted
    h = doc["handshake"]
    assert (h["sessions_attempted"], h["sessions_up"], h["sessions_failed"]) == (5, 5, 0)
    assert doc["status"] == "ok"


class RefusesAfter(ScriptedController):
    """A controller that takes ``n`` sessions, then refuses every connection (its listener closed)."""

    def __init__(self, n: int):
        super().__init__(version=4)
        self.n, self.taken = n, 0

    async def _serve(self, reader, writer) -> None:
        self.taken += 1
        if self.taken == self.n:
            self._server.close()                 # no more listening; the sessions taken go on
        await super()._serve(reader, writer)


def test_capacity_stopped_by_a_refusal_counts_the_attempt_once():
    # an address where nothing listens is refused before the run (exit 1): here the controller
    # listens, takes 3 sessions, and refuses the 4th (one handshake at a time)
    with RefusesAfter(3) as ctl:
        doc = run_doc(ctl.address, mode="capacity", switches=50, hold_ms=100, loops=1, connect_parallel=1)
    h, c = doc["handshake"], doc["capacity"]
    assert (h["sessions_attempted"], h["sessions_up"], h["sessions_failed"]) == (4, 3, 1), h
    assert sum(f["count"] for f in h["failures"]) == h["sessions_failed"]
    assert c["attempted"] == 4 and c["established"] == 3 and "refused" in c["first_failure"], c


def test_session_counters_add_up_when_some_fail():
    with ScriptedController(version=4, close_nth=1, close_after_s=0.0) as ctl:
        doc = run_doc(ctl.address, switches=3, **SHORT)
    h = doc["handshake"]
    assert h["sessions_attempted"] == 3
    assert h["sessions_up"] + sum(f["count"] for f in h["failures"]) == 3, h


# ---- learning drains before the measured phase (crates/engine/src/switch/learning.rs) ----

LEARN = dict(macs=20, learn=True, loops=2, loop_ms=400, warmup=1, settle_ms=0)


def test_learning_waits_for_every_answer_of_a_slow_controller():
    """Every learning reply comes 0.4 s after its ARP: the drain takes 0.4 s (plus the poll and
    the scripted controller's own floor), then every learning request is answered and none of
    them is counted in the measured phase."""
    with ScriptedController(version=4, delay_s=0.4) as ctl:
        doc = run_doc(ctl.address, switches=2, **LEARN)
    ln, t = doc["learning"], doc["totals"]
    assert (ln["requests"], ln["replies"], ln["outstanding"], ln["ended"]) == (40, 40, 0, "drained"), ln
    assert ctl.learning_packet_ins == 40
    # at least the delay; at most 5% more plus the poll, plus how late the peer's last answer went out
    assert 0.4 <= ln["duration_s"] < 0.4 * 1.05 + 0.1 + max(ctl.late_s), (ln, max(ctl.late_s))
    assert t["learning_replies"] == 40 and t["learning_late_replies"] == 0 and t["unmatched_replies"] == 0, t
    assert t["requests_answered"] + t["late_replies"] == len(ctl.answered_ids)
    assert not [w for w in doc["warnings"] if "learning" in w]
    _invariant(t)


def test_cbench_traffic_first_teaches_its_destination_as_cbench_does():
    """cbench's default ``-L``: each switch's first packet-in is cbench's gratuitous ARP reply
    from the destination MAC 80:00:00:00:00:<dpid> (xid 1, unbuffered, port 2), answered in the
    learning phase, before anything is measured; with learning off there is none."""
    common = dict(switches=2, traffic="cbench", of_version="1.0", macs=10, loops=2, loop_ms=300, warmup=1, settle_ms=0)
    with ScriptedController(version=1) as ctl:
        doc = run_doc(ctl.address, learn=True, **common)
    assert len(ctl.first_packet_ins) == 2
    dpids = set()
    for m in ctl.first_packet_ins:
        ver, ty, _, xid, buffer_id, _, in_port = struct.unpack("!BBHIIHH", m[:16])
        frame = m[18:]
        assert (ver, ty, xid, buffer_id, in_port) == (1, 10, 1, 0xFFFFFFFF, 2)
        assert frame[:6] == b"\xff" * 6 and frame[6:11] == bytes([0x80, 0, 0, 0, 0]) and frame[12:14] == b"\x08\x06"
        dpids.add(frame[11])
    assert dpids == {1, 2}
    ln, t = doc["learning"], doc["totals"]
    assert (ln["requests"], ln["replies"], ln["outstanding"], ln["ended"]) == (2, 2, 0, "drained"), ln
    assert t["learning_replies"] == 2 and t["requests_answered"] > 0, t
    _invariant(t)
    with ScriptedController(version=1) as ctl:
        doc = run_doc(ctl.address, learn=False, **common)
    assert all(struct.unpack("!I", m[4:8])[0] != 1 for m in ctl.first_packet_ins), "no -L packet-in"
    assert doc["learning"]["requests"] == 0


def test_learning_never_answered_ends_when_quiet_with_a_warning():
    with ScriptedController(version=4, ignore_learning=True) as ctl:
        doc = run_doc(ctl.address, switches=2, learn_quiet_ms=300, **LEARN)
    ln = doc["learning"]
    assert (ln["requests"], ln["replies"], ln["outstanding"], ln["ended"]) == (40, 0, 40, "quiet"), ln
    assert 0.3 <= ln["duration_s"] < 0.3 * 1.05 + 0.1, ln
    assert any(w.startswith("learning did not drain: 40 of 40") for w in doc["warnings"]), doc["warnings"]
    assert doc["status"] == "ok" and doc["totals"]["requests_answered"] > 0


def test_learning_deadline_keeps_late_learning_replies_out_of_the_measurement():
    """Learning replies after 1 s, deadline 0.3 s: the measured phase starts without them; when
    they come they are counted as late learning replies (the packet-outs) and never as answers."""
    with ScriptedController(version=4, delay_s=1.0, packet_out_too=True) as ctl:
        doc = run_doc(ctl.address, switches=2, learn_deadline_ms=300, learn_quiet_ms=5000, **LEARN)
    ln, t = doc["learning"], doc["totals"]
    assert (ln["outstanding"], ln["ended"]) == (40, "deadline"), ln
    assert 0.3 <= ln["duration_s"] < 0.3 * 1.05 + 0.1, ln
    assert t["learning_late_replies"] == 40, t
    assert t["requests_answered"] + t["late_replies"] == len(ctl.answered_ids)
    _invariant(t)


def test_wake_coalescing_keeps_latency_within_its_bound():
    """A responder that answers every request after exactly 20 ms: coalescing (on by default in
    throughput mode) waits up to 1% of the lowest latency, 200 us, before sleeping; the latency
    read stays within 1% (+ the measured floor) of the known delay and of a run without it, and
    the throughput is window / latency in both."""
    delay_ms, window, switches = 20, 8, 2
    with responder("1.0", extra=("--delay-us", str(delay_ms * 1000))) as addr:
        # no warm-up loop: the quantum is taken from every latency the engine saw, so the
        # latencies read must be all of them for the bound below to be the definition's
        common = dict(switches=switches, window=window, macs=4, learn=False, loops=3, loop_ms=500, warmup=0)
        on = run_doc(addr, **common)
        off = run_doc(addr, coalesce_pct=0, **common)
    c = on["efficiency"]["coalescing"]
    assert c["pct"] == 1.0 and c["waits"] > 0, c
    # 1% of a latency the engine measured (the lowest of a recent window): at least 1% of the
    # delay, at most 1% of the largest latency read (on a loaded machine that can be well past
    # the delay: the bound holds to what was measured, not to the machine's luck)
    assert 0.01 * delay_ms * 1000 <= c["max_quantum_us"] <= 0.0101 * on["latency"]["max"], (c, on["latency"])
    assert off["efficiency"]["coalescing"]["waits"] == 0
    # what coalescing adds, it adds to every sample, the fastest too: the fastest of each run
    # within 1% (+ the floor) of D and of the other's, the median at least D (a busy machine
    # moves medians, hardly the fastest of ~1,600 samples)
    for doc in (on, off):
        _invariant(doc["totals"])
        assert_reads_delay(doc["latency"], delay_ms * 1000, delay_ms * 1000 * 0.01 + 1000)
    assert abs(on["latency"]["min"] - off["latency"]["min"]) <= 0.01 * off["latency"]["min"] + 500
    # the window kept full: Little's law over the whole run (no warm-up loop), for the latency
    # each run measured. The n = switches x window requests in flight spend at most the run's T
    # each between them, and at least T minus one latency (the ones left in flight at the end),
    # less the refill gaps a busy machine leaves (3 %); never more than n per D, plus the n
    # answered last.
    n = switches * window
    for doc in (on, off):
        loops = doc["loops"]
        t = len(loops["answered"]) * loops["loop_ms"] / 1000
        mean_s, max_s = doc["latency"]["mean"] / 1e6, doc["latency"]["max"] / 1e6
        got = sum(loops["answered"])
        assert 0.97 * n * (t - max_s) / mean_s <= got <= n * t / mean_s + n, (got, n, t, mean_s, max_s)
        assert got <= n * (t / (delay_ms / 1000) + 1), got


def test_faucet_traffic_is_answered_by_faucets_learning_flow_mods():
    """The ``faucet`` profile against a scripted Faucet (takes only its own cookie, reason
    ACTION and VLAN 100; learns each host once, forever, with two unbuffered flow-mods 20 ms
    later): every learned host is one answered request, its second flow-mod an extra reply, the
    latency the known delay. A second run against the same process (which keeps its hosts, as
    Faucet does for 300 s) is answered too: its hosts are new (the run salt)."""
    delay_ms = 20
    with ScriptedController(version=4, delay_s=delay_ms / 1000, faucet=True) as ctl:
        docs = [run_doc(ctl.address, traffic="faucet", mode="fixed-rate", rate=400, switches=2, loops=3, loop_ms=500, warmup=1)
                for _ in range(2)]
        ctl.settle()
        learned, ignored, late_s = len(ctl.learned), ctl.ignored, ctl.late_s
    answered = 0
    for doc in docs:
        t = doc["totals"]
        _invariant(t)
        assert doc["status"] == "ok" and doc["params"]["traffic"] == "faucet"
        # every request answered: none lost, none thrown away; on time, unless a wait this run
        # recorded (the peer's latest timer, the engine's longest run-queue wait) could push an
        # answer past the loss timeout's floor, where it is a late reply or still in flight
        assert t["requests_lost"] == 0 and t["requests_discarded"] == 0, t
        stall_ms = 1000 * max(late_s) + engine_longest_wait_ms(doc)
        if stall_ms < doc["params"]["timeout_floor_ms"] - delay_ms:
            assert t["requests_answered"] == t["requests_sent"], (t, stall_ms)
        assert t["extra_replies"] == t["requests_answered"] + t["late_replies"], t  # eth_dst + eth_src
        # no answer before D; the fastest within 1 ms of D; the median D within 5% plus 2 ms
        # and what the run recorded as scheduling delay (the peer's timer, the engine's wake-ups:
        # fixed rate measures from the scheduled send, so a late pacer counts too)
        lat = doc["latency"]
        assert HIST_FLOOR * delay_ms * 1000 <= lat["min"] <= delay_ms * 1000 + min(late_s) * 1e6 + 1000, (lat, min(late_s))
        slack = scheduling_slack_us(doc, late_s)
        assert delay_ms * 1000 <= lat["p50"] <= delay_ms * 1000 * 1.05 + 2000 + slack, (lat, slack)
        answered += t["requests_answered"] + t["late_replies"] + t["requests_in_flight_at_stop"]
    assert ignored == 0, "every packet-in was one Faucet takes"
    assert answered <= learned <= answered + 8, (answered, learned)


def test_table_miss_traffic_gets_nothing_from_faucet():
    """Why the profile exists: the default packet-ins (cookie 0, NO_MATCH, untagged) are all
    ignored by Faucet's rules, and the run says nothing was measured."""
    with ScriptedController(version=4, faucet=True) as ctl:
        doc = run_doc(ctl.address, traffic="unique-pairs", switches=1, loops=2, loop_ms=300, warmup=0, learn=False)
        assert ctl.ignored > 0 and not ctl.learned
    assert doc["status"] == "failed" and "nothing measured" in doc["error"], doc.get("error")


def test_a_known_cost_per_request_caps_the_answered_rate():
    """A single-threaded controller that spends 2 ms per packet-in serves at most 500/s: the
    throughput mode never reads more (exact), keeps the controller busy (its window: the
    controller seldom waits for a packet-in), and reads what the controller itself served over
    the run. That rate, not 500/s, is the lower bound: on a loaded machine the controller's own
    per-message overhead grows and it serves less, and the engine must read that, not luck."""
    with ScriptedController(version=4, cost_us=2000) as ctl:
        doc = run_doc(ctl.address, switches=2, macs=4, learn=False, loops=3, loop_ms=500, warmup=1)
        ctl.settle()
        served, at = ctl.replies, ctl.served_t
        idle_s = ctl.idle_s(at[0], at[-1])
    t = doc["totals"]
    _invariant(t)
    span = at[-1] - at[0]
    served_rate = (len(at) - 1) / span
    assert served_rate <= 500 * 1.02, served_rate
    assert idle_s <= 0.1 * span, ("the engine let the controller idle", idle_s, span)
    assert 0.85 * served_rate <= doc["throughput"]["mean"] <= 500 * 1.02, (doc["throughput"], served_rate)
    assert t["requests_answered"] + t["late_replies"] <= served <= t["requests_sent"], (t, served)
