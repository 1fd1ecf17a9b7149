"""Known answers for the verdict rules: each verdict from a made-up observation whose expected
reading is clear (the robustness timeline: loops of 250 ms, 2 warm-up loops, 4 before the
window 1.5–3.5 s, 8 in it, 8 after). The observation and the loops are the engine's typed views,
built with the fields each test is about (``testing/engine_views``)."""

from dataclasses import replace

from sdnbench.robustness.stable import by_case
from sdnbench.robustness.table import verdict_table
from sdnbench.robustness.verdicts import judge, percentile, phases
from sdnbench.testing import engine_views as views

N = 22          # 2 warm-up + 4 before + 8 during + 8 after


def loops(answered, latency_us=None):
    n = len(answered)
    return views.loops(loop_ms=250, warmup=2, k=list(range(1, n + 1)), t_s=[0.25 * (i + 1) for i in range(n)],
                       answered=answered, latency_us=latency_us)


def split(warm, before, during, after):
    """A per-loop list: 2 warm-up, 4 before, 8 during, 8 after."""
    return [warm] * 2 + [before] * 4 + [during] * 8 + [after] * 8


def lat_loops(before_us, during_us, after_us, n=100):
    """Each loop has ``n`` answered requests, all with the phase's latency."""
    return loops([n] * N, split([10**6] * n, [before_us] * n, [during_us] * n, [after_us] * n))


def obs(**kw):
    return views.observation(**dict({"case": "x", "started_s": 1.5, "ended_s": 3.5}, **kw))


def error(name: str) -> dict:
    return {"t_s": 1.6, "typ": 1, "code": 1, "name": name}


STEADY = loops([250] * N)


def table(by_ctl: dict, order: list) -> str:
    """verdict_table over single repetitions: {ctl: [Verdict]}."""
    return verdict_table({k: by_case(vs) for k, vs in by_ctl.items()}, order)


def test_phases_split_around_the_window():
    ph = phases(loops(split(0, 250, 125, 200)), 1.5, 3.5)
    assert (ph.before, ph.during, ph.after) == (1000.0, 500.0, 800.0)
    assert ph.longest_silence_ms == 0.0  # the warm-up loops' zeros do not count
    assert ph.lat_phase_loops == ["before"] * 4 + ["during"] * 8 + ["after"] * 8
    assert ph.rate_loops[:5] == [1000.0] * 4 + [500.0]


def test_crashed_wins_over_everything():
    v = judge(obs(errors=[error("OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE")]), STEADY, alive=False)
    assert v.verdict == "crashed"
    assert judge(None, STEADY, alive=False).verdict == "crashed"


def test_hung_needs_silence_longer_than_the_limit():
    silent = loops([250] * 6 + [0] * 4 + [250] * 12)          # 1 s without an answer in the window
    assert judge(obs(), silent, alive=True, hung_ms=1000).verdict == "hung"
    # not hung at 1.5 s; and half the window at full rate is no fall that holds over the loops
    # (p = 0.07): the silence is in the evidence, not a verdict
    v = judge(obs(), silent, alive=True, hung_ms=1500)
    assert v.verdict == "ignored" and "longest silence 1000 ms" in v.evidence
    lasting = loops([250] * 6 + [0] * 4 + [100] * 4 + [250] * 8)
    v = judge(obs(), lasting, alive=True, hung_ms=1500)
    assert v.verdict == "degraded" and "rate fell 80%" in v.evidence and "Mann-Whitney" in v.evidence


def test_degraded_by_a_significant_and_large_fall_or_lost_sessions():
    dip = loops(split(250, 250, 225, 250))                  # during: -10% in every loop
    assert judge(obs(), dip, alive=True, drop=0.3).verdict == "ignored"       # significant, too small
    v = judge(obs(), dip, alive=True, drop=0.05)
    assert v.verdict == "degraded" and v.test["measure"] == "rate" and v.test["p_value"] < 0.01
    assert v.test["effect_a"] == 1.0
    one = loops([250] * 6 + [0] + [250] * 15)               # one silent loop: mean -12.5%, not significant
    assert judge(obs(), one, alive=True, drop=0.1).verdict == "ignored"
    assert judge(obs(), STEADY, alive=True, disconnects=1).verdict == "degraded"


def test_rejected_and_ignored():
    err = [error("OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE")]
    v = judge(obs(errors=err), STEADY, alive=True)
    assert v.verdict == "rejected" and "OFPBRC_BAD_TYPE" in v.evidence
    v = judge(obs(closed_by_controller=["eof", 1.505]), STEADY, alive=True)
    assert v.verdict == "rejected" and "closed after 5 ms" in v.evidence
    v = judge(obs(probe_answered=True), STEADY, alive=True)
    assert v.verdict == "ignored" and "probe echo answered" in v.evidence


def test_table_has_cases_as_rows_and_a_score():
    a = judge(obs(case="a"), STEADY, alive=True)
    b = judge(obs(case="b"), STEADY, alive=False)
    b.restarted = True
    text = table({"ctl1": [a, b]}, ["a", "b"])
    assert "crashed restarted" in text and "1/2 (50%)" in text
    assert text.splitlines()[0].split() == ["case", "ctl1"]


def test_view_cases_fooled_or_not():
    port = lambda d, p: {"dpid": d, "port_no": p}  # noqa: E731
    fake = {"links": [{"src": port(5, 1), "dst": port(1, 1)}], "hosts": []}
    o = obs(case="fabricated-lldp", attacker_dpid=5)
    v = judge(o, STEADY, alive=True, view=fake, victim_dpid=1)
    assert v.verdict == "fooled" and "1:1 ↔ 5:1" in v.evidence
    real = {"links": [{"src": port(1, 2), "dst": port(2, 1)}], "hosts": []}
    v = judge(o, STEADY, alive=True, view=real, victim_dpid=1)
    assert v.verdict == "ignored" and "no fabricated link" in v.evidence
    moved = {"links": [], "hosts": [{"mac": "00:00:00:00:00:01", "dpid": 5, "port_no": 1}]}
    o = obs(case="host-hijack", attacker_dpid=5)
    assert judge(o, STEADY, alive=True, view=moved).verdict == "fooled"
    kept = {"links": [], "hosts": [{"mac": "00:00:00:00:00:01", "dpid": 1, "port_no": 1}]}
    v = judge(o, STEADY, alive=True, view=kept)
    assert v.verdict == "ignored" and "dpid 1 port 1" in v.evidence


def test_a_view_case_without_a_view_is_not_applicable_and_not_counted():
    o = obs(case="host-hijack", attacker_dpid=5, received={"flow_mod": 2})
    v = judge(o, STEADY, alive=True, view=None, no_view="ctl serves no view")
    assert v.verdict == "not applicable" and v.evidence.startswith("ctl serves no view") and "got flow_mod 2" in v.evidence
    assert judge(o, loops([250] * 6 + [0] * 4 + [250] * 12), alive=True).verdict == "hung"   # worse still wins
    a = judge(obs(case="a"), STEADY, alive=True)
    assert "1/1 (100%)" in table({"c": [a, v]}, ["a", "host-hijack"])


def test_no_baseline_or_a_starved_one_is_unmeasured_not_hung():
    v = judge(obs(errors=[error("E")]), loops([0] * N), alive=True)
    assert v.verdict == "unmeasured" and "no baseline" in v.evidence
    assert judge(obs(), loops([0] * N), alive=False).verdict == "crashed"
    t = [0.25 * (i + 1) for i in range(N)]
    busy = (t, split(50, 95, 95, 95))
    v = judge(obs(), loops([250] * 6 + [0] * 4 + [250] * 12), alive=True, ctl_cpu=busy)
    assert v.verdict == "unmeasured" and "starved baseline: the controller used 95% of a core" in v.evidence
    assert judge(obs(), STEADY, alive=True, ctl_cpu=(t, split(50, 89, 95, 95))).verdict == "ignored"


def test_unmeasured_cases_are_left_out_of_the_score():
    a = judge(obs(case="a"), STEADY, alive=True)
    u = judge(obs(case="u"), loops([0] * N), alive=True)
    assert "1/1 (100%)" in table({"c": [a, u]}, ["a", "u"])


def test_controller_cpu_is_split_like_the_loops():
    t = [0.25 * (i + 1) for i in range(N)]
    cpu = split(50, 10, 70, 20)   # warm-up samples left out
    v = judge(obs(), STEADY, alive=True, ctl_cpu=(t, cpu))
    assert (v.phases["ctl_cpu_before"], v.phases["ctl_cpu_during"], v.phases["ctl_cpu_after"]) == (10, 70, 20)
    assert "controller CPU 10% → 70% → 20%" in v.evidence


def test_latency_per_phase_from_raw_samples():
    # before: 99 samples of 1 ms and one of 9 ms per loop -> p50 1 ms, p99 1 ms (nearest rank:
    # 396 of 400 samples are 1 ms, the 396th is still 1 ms)
    per = split([5000] * 100, [1000] * 99 + [9000], [2000] * 100, [1000] * 100)
    ph = phases(loops([100] * N, per), 1.5, 3.5)
    assert (ph.lat_p50_before, ph.lat_p99_before, ph.lat_n_before) == (1000.0, 1000.0, 400)
    assert (ph.lat_p50_during, ph.lat_p99_during, ph.lat_n_during) == (2000.0, 2000.0, 800)
    assert ph.lat_p99_after == 1000.0      # the warm-up loops' 5 ms are left out
    assert ph.lat_p50_loops[:5] == [1000.0] * 4 + [2000.0]
    assert percentile([1, 2, 3, 4], 0.5) == 2.0 and percentile([], 0.99) is None


def _jitter(base_us: int, n: int = 100) -> list:
    """Per-loop latency samples around ``base_us`` that differ from loop to loop (no ties)."""
    return [[base_us + 7 * i + j for j in range(n)] for i in range(N)]


def test_latency_rise_is_degraded_by_a_significant_large_change_of_the_median():
    # median before ~1 ms: the effect floor is max(2 ms, 3 ms) = 3 ms
    for during, want in ((2900, "ignored"), (3100, "degraded")):
        per = _jitter(1000)
        for i in range(6, 14):
            per[i] = [x - 1000 + during for x in per[i]]
        v = judge(obs(), loops([100] * N, per), alive=True)
        assert v.verdict == want, (during, v.evidence)
    assert "latency p50 rose 1.0" in v.evidence and "p = 0.00" in v.evidence and "A = 1.00" in v.evidence
    assert v.test["test"] == "one-sided Mann-Whitney U" and v.test["phase"] == "during"
    # a rise after the window counts too
    v = judge(obs(), lat_loops(20000, 20000, 41000), alive=True)
    assert v.verdict == "degraded" and v.test["phase"] == "after"
    assert "latency p50 20.00 → 20.00 → 41.00 ms" in v.evidence


def test_one_stalled_loop_or_a_tail_is_not_a_latency_rise():
    one = _jitter(1000)
    one[6] = [50000] * 100                       # one loop of the window at 50 ms: not significant
    v = judge(obs(), loops([100] * N, one), alive=True)
    assert v.verdict == "ignored" and v.phases["lat_p99_during"] == 50000.0
    tail = _jitter(1000)
    for i in range(6, 14):
        tail[i] = tail[i][:97] + [60000] * 3     # p99 60 ms in every loop, the median unmoved
    v = judge(obs(), loops([100] * N, tail), alive=True)
    assert v.phases["lat_p99_during"] == 60000.0 and v.verdict == "ignored"
    assert judge(obs(), STEADY, alive=True).verdict == "ignored"   # no samples: no latency clause


def test_wait_quiet_waits_for_two_calm_samples_and_gives_up():
    from sdnbench.robustness.runner import wait_quiet
    cpu = iter([100.0, 90.0, 10.0, 50.0, 5.0, 4.0, 100.0])
    assert wait_quiet(123, sample=lambda pid: next(cpu)) >= 0        # calm only at 5.0, 4.0
    assert next(cpu) == 100.0, "stopped after the second calm sample"
    assert wait_quiet(None) is None                                  # tcp: no process to watch
    assert wait_quiet(1, sample=lambda pid: 100.0, timeout_s=0.05) == -0.05


def test_syn_flood_evidence_says_whether_cookies_or_the_queue_decided():
    from sdnbench.robustness.verdicts import syn_defence
    cookies = {"ListenOverflows": 0, "ListenDrops": 0, "SyncookiesSent": 9943, "TCPReqQFullDoCookies": 9943,
               "TCPReqQFullDrop": 0}
    text = syn_defence(cookies)
    assert "listen queue drops: ListenOverflows +0, ListenDrops +0, TCPReqQFullDrop +0" in text
    assert "kernel SYN cookies: SyncookiesSent +9,943" in text and "decided by the kernel's SYN cookies" in text
    assert "decided by the controller's listen queue (it dropped" in syn_defence(dict(cookies, SyncookiesSent=0,
                                                                                      ListenDrops=12))
    v = judge(obs(syn_sent=10000, handshake_ms=1.2), STEADY, alive=True, listen_queue=cookies)
    assert v.verdict == "ignored" and "decided by the kernel's SYN cookies" in v.evidence


def test_packet_in_flood_rate_is_stated():
    v = judge(obs(flood_sent=60000), STEADY, alive=True)
    assert "flood 60,000 packet-ins (30,000/s over 2.0 s)" in v.evidence


def test_connection_flood_evidence_says_what_stopped_its_growth():
    from sdnbench.robustness.verdicts import idle_growth
    idle = {"opened": 1024, "refused": 1, "closed_by_controller": 0, "limit": 16384, "stopped_by": "refused",
            "refusal": "connection 1025 not accepted within 1 s (its accept queue was full)", "files_room": 19900}
    v = judge(obs(case="connection-flood", idle=idle), STEADY, alive=True)
    idle = views.idle(**idle)
    assert ("idle conns 1,024 opened (grown until the controller took no more: connection 1025 not accepted "
            "within 1 s (its accept queue was full)), 0 closed by controller") in v.evidence
    assert idle_growth(replace(idle, stopped_by="count", opened=16384)) == " (the cap of 16,384 reached)"
    assert idle_growth(replace(idle, stopped_by="files")) == " (stopped by the engine's open files: 19,900 free)"
    assert idle_growth(views.idle(opened=1, limit=1, stopped_by="count")) == ""
    assert idle_growth(replace(idle, opened=2003, stopped_by="window"), 2.0) == \
        " (stopped by the end of the case's 2.0 s window: 1,002/s taken, none refused)"
