"""Known answers for the verdict rules: each verdict from a made-up observation whose expected
reading is clear (loops of 500 ms, window 1.5–3.5 s)."""

from sdnbench.robustness.table import verdict_table
from sdnbench.robustness.verdicts import judge, percentile, phases


def loops(answered, latency_us=None):
    n = len(answered)
    d = {"loop_ms": 500, "warmup": 1, "k": list(range(1, n + 1)),
         "t_s": [0.5 * (i + 1) for i in range(n)], "answered": answered}
    if latency_us is not None:
        d["latency_us"] = latency_us
    return d


def lat_loops(before_us, during_us, after_us, n=100):
    """11 loops of 500 ms (window 1.5-3.5 s): warm-up, 2 before, 4 during, 4 after; each loop
    has ``n`` answered requests, all with the phase's latency except one outlier per loop."""
    per = [[10**6] * n] + [[before_us] * n] * 2 + [[during_us] * n] * 4 + [[after_us] * n] * 4
    return loops([n] * 11, per)


def obs(**kw):
    o = {"case": "x", "started_s": 1.5, "ended_s": 3.5, "errors": [], "closed_by_controller": None,
         "received": {}, "probe_answered": None}
    o.update(kw)
    return o


STEADY = loops([500] * 11)


def test_phases_split_around_the_window():
    ph = phases(loops([0, 500, 500, 250, 250, 250, 250, 400, 400, 400, 400]), 1.5, 3.5)
    assert (ph.before, ph.during, ph.after) == (1000.0, 500.0, 800.0)
    assert ph.longest_silence_ms == 0.0  # the warm-up loop's zero does not count


def test_crashed_wins_over_everything():
    v = judge(obs(errors=[{"name": "OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE"}]), STEADY, alive=False)
    assert v.verdict == "crashed"
    assert judge(None, STEADY, alive=False).verdict == "crashed"


def test_hung_needs_silence_longer_than_the_limit():
    silent = loops([500, 500, 500, 500, 0, 0, 500, 500, 500, 500, 500])
    assert judge(obs(), silent, alive=True, hung_ms=1000).verdict == "hung"
    assert judge(obs(), silent, alive=True, hung_ms=1500).verdict == "degraded"


def test_degraded_by_drop_or_lost_sessions():
    dip = loops([500, 500, 500, 500, 300, 500, 500, 500, 500, 500, 500])  # during: mean 450 (-10%)
    assert judge(obs(), dip, alive=True, drop=0.3).verdict == "ignored"
    assert judge(obs(), dip, alive=True, drop=0.05).verdict == "degraded"
    assert judge(obs(), STEADY, alive=True, disconnects=1).verdict == "degraded"


def test_rejected_and_ignored():
    err = [{"t_s": 1.6, "typ": 1, "code": 1, "name": "OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE"}]
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
    text = verdict_table({"ctl1": {"a": a, "b": b}}, ["a", "b"])
    assert "crashed (restarted)" in text and "1/2 (50%)" in text
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
    assert judge(o, STEADY, alive=True, view=None).verdict == "ignored"   # no view: OpenFlow only


def test_no_baseline_is_unmeasured_not_hung():
    v = judge(obs(errors=[{"name": "E"}]), loops([0] * 11), alive=True)
    assert v.verdict == "unmeasured" and "no baseline" in v.evidence
    assert judge(obs(), loops([0] * 11), alive=False).verdict == "crashed"


def test_unmeasured_cases_are_left_out_of_the_score():
    a = judge(obs(case="a"), STEADY, alive=True)
    u = judge(obs(case="u"), loops([0] * 11), alive=True)
    assert "1/1 (100%)" in verdict_table({"c": {"a": a, "u": u}}, ["a", "u"])


def test_controller_cpu_is_split_like_the_loops():
    t = [0.5 * (i + 1) for i in range(11)]
    cpu = [50, 10, 10, 10, 90, 90, 90, 20, 20, 20, 20]   # first sample: warm-up, left out
    v = judge(obs(), STEADY, alive=True, ctl_cpu=(t, cpu))
    assert (v.phases["ctl_cpu_before"], v.phases["ctl_cpu_during"], v.phases["ctl_cpu_after"]) == (10, 70, 20)
    assert "controller CPU 10% → 70% → 20%" in v.evidence


def test_latency_per_phase_from_raw_samples():
    # before: 99 samples of 1 ms and one of 9 ms per loop -> p50 1 ms, p99 1 ms (nearest rank:
    # 198 of 200 samples are 1 ms, the 198th is still 1 ms), max 9 ms
    per = [[5000] * 100] + [[1000] * 99 + [9000]] * 2 + [[2000] * 100] * 4 + [[1000] * 100] * 4
    ph = phases(loops([100] * 11, per), 1.5, 3.5)
    assert (ph.lat_p50_before, ph.lat_p99_before, ph.lat_n_before) == (1000.0, 1000.0, 200)
    assert (ph.lat_p50_during, ph.lat_p99_during, ph.lat_n_during) == (2000.0, 2000.0, 400)
    assert ph.lat_p99_after == 1000.0      # the warm-up loop's 5 ms is left out
    assert percentile([1, 2, 3, 4], 0.5) == 2.0 and percentile([], 0.99) is None


def test_latency_rise_is_degraded_by_the_documented_rule():
    # p99 before 1 ms: the limit is max(2 ms, 6 ms) = 6 ms
    assert judge(obs(), lat_loops(1000, 5900, 1000), alive=True).verdict == "ignored"
    v = judge(obs(), lat_loops(1000, 6100, 1000), alive=True)
    assert v.verdict == "degraded" and "latency during: p99 6.10 ms > 6.00 ms" in v.evidence
    assert "p50 6.10 ms > 3.00 ms" in v.evidence
    # p99 before 20 ms: the limit is max(40 ms, 25 ms) = 40 ms; a rise after the window counts too
    assert judge(obs(), lat_loops(20000, 39000, 20000), alive=True).verdict == "ignored"
    v = judge(obs(), lat_loops(20000, 20000, 41000), alive=True)
    assert v.verdict == "degraded" and "latency after: p99 41.00 ms" in v.evidence
    assert "latency p50 20.00 → 20.00 → 41.00 ms" in v.evidence


def test_latency_rule_needs_enough_samples():
    assert judge(obs(), lat_loops(1000, 50000, 1000, n=5), alive=True).verdict == "ignored"
    assert judge(obs(), STEADY, alive=True).verdict == "ignored"   # no samples: no latency clause


def test_one_stalled_loop_is_not_a_latency_rise():
    # before p99 1 ms (limit 6 ms); one loop of the window at 50 ms, the rest at 1 ms: the phase's
    # p99 is 50 ms but only one loop is above the limit -> not degraded; three such loops (the
    # window's median moves too) -> degraded
    one = [[10**6] * 100] + [[1000] * 100] * 2 + [[50000] * 100] + [[1000] * 100] * 7
    v = judge(obs(), loops([100] * 11, one), alive=True)
    assert v.phases["lat_p99_during"] == 50000.0 and v.verdict == "ignored"
    assert v.phases["lat_p99_loops"][:3] == [1000.0, 1000.0, 50000.0]
    three = [[10**6] * 100] + [[1000] * 100] * 2 + [[50000] * 100] * 3 + [[1000] * 100] * 5
    v = judge(obs(), loops([100] * 11, three), alive=True)
    assert v.verdict == "degraded" and "3 loops above it" in v.evidence


def test_a_tail_alone_is_not_a_latency_rise():
    # every loop of the window: 97 answers at 1 ms, 3 at 60 ms -> p99 60 ms in 4 loops, p50 1 ms
    tail = [[1000] * 97 + [60000] * 3]
    per = [[10**6] * 100] + [[1000] * 100] * 2 + tail * 4 + [[1000] * 100] * 4
    v = judge(obs(), loops([100] * 11, per), alive=True)
    assert v.phases["lat_p99_during"] == 60000.0 and v.phases["lat_p50_during"] == 1000.0
    assert v.verdict == "ignored"
    # the same with the median at 2.9 ms (not > max(2 x 1 ms, 1 ms + 2 ms)): ignored; at 3.1 ms: degraded
    near = [[2900] * 97 + [60000] * 3]
    per = [[10**6] * 100] + [[1000] * 100] * 2 + near * 4 + [[1000] * 100] * 4
    assert judge(obs(), loops([100] * 11, per), alive=True).verdict == "ignored"
    both = [[3100] * 97 + [60000] * 3]
    per = [[10**6] * 100] + [[1000] * 100] * 2 + both * 4 + [[1000] * 100] * 4
    assert judge(obs(), loops([100] * 11, per), alive=True).verdict == "degraded"


def test_wait_quiet_waits_for_two_calm_samples_and_gives_up():
    from sdnbench.robustness.runner import wait_quiet
    cpu = iter([100.0, 90.0, 10.0, 50.0, 5.0, 4.0, 100.0])
    assert wait_quiet(123, sample=lambda pid: next(cpu)) >= 0        # calm only at 5.0, 4.0
    assert next(cpu) == 100.0, "stopped after the second calm sample"
    assert wait_quiet(None) is None                                  # tcp: no process to watch
    assert wait_quiet(1, sample=lambda pid: 100.0, timeout_s=0.05) == -0.05
