"""Known answers for the starved load generator (verdicts.engine_lateness, engine_starved): the
engine's loop ends stamped late read as its own lateness, and a case whose engine was starved
reads "unmeasured", not "degraded" or "hung"; a view that was fooled still stands."""

from dataclasses import replace

from sdnbench.robustness.verdicts import ENGINE_LATE_MS, engine_lateness, judge, phases
from sdnbench.testing import engine_views as views

N = 22          # 2 warm-up + 4 before + 8 during + 8 after (loops of 250 ms; window 1.5-3.5 s)


def loops(answered, late_ms=None, settle_s=0.2, latency_us=None):
    """Loop ends at settle + k × 250 ms, each ``late_ms[k-1]`` late."""
    late_ms = late_ms or [0.0] * len(answered)
    return views.loops(loop_ms=250, warmup=2, k=list(range(1, len(answered) + 1)),
                       t_s=[settle_s + 0.25 * k + late_ms[k - 1] / 1000.0 for k in range(1, len(answered) + 1)],
                       answered=answered, latency_us=latency_us)


def obs(case="x", **kw):
    return views.observation(case=case, started_s=1.5, ended_s=3.5, **kw)


def test_lateness_is_measured_from_the_promptest_loop():
    late = [0.4] * N
    late[9] = 412.0
    got = engine_lateness(loops([250] * N, late))
    assert got[9] == 412.0 - 0.4 and max(got[:9] + got[10:]) == 0.0
    assert engine_lateness(loops([250] * 3, settle_s=0.7)) == [0.0, 0.0, 0.0], "the settle time is not lateness"


def test_phases_keep_the_worst_lateness_of_each_phase():
    late = [0.0] * N
    late[1], late[4], late[9], late[18] = 900.0, 3.0, 40.0, 7.5   # loop 2 is warm-up: not counted
    ph = phases(loops([250] * N, late), 1.5, 3.5)
    assert (ph.engine_late_ms_before, ph.engine_late_ms_during, ph.engine_late_ms_after) == (3.0, 40.0, 7.5)
    assert len(ph.engine_late_ms_loops) == N - 2


def starved_run():
    """The engine stopped for 400 ms in the window: the loop that spans it ends 400 ms late, its
    requests go out late (latency from their schedule), the controller untouched."""
    late = [0.5] * N
    late[9] = 400.5
    lat = [[1500] * 250 for _ in range(N)]
    lat[9] = [1500] * 150 + [200_000] * 100
    for k in range(5, 14):       # the window's loops: what a latency rule reads as a slower controller
        lat[k] = [9000] * 250
    return loops([250] * 9 + [150] + [250] * 12, late, latency_us=lat)


def test_a_starved_engine_is_unmeasured_not_degraded():
    run = starved_run()
    fresh = replace(run, t_s=[0.2 + 0.25 * k for k in run.k])   # the same samples, the engine on time
    assert judge(obs(), fresh, alive=True).verdict == "degraded", "the samples alone would read degraded"
    v = judge(obs(), run, alive=True)
    assert v.verdict == "unmeasured"
    assert v.evidence.startswith("the load generator was starved (the engine's loop clock ran late by up to 400 ms "
                                  "during it (limit 50 ms)")


def test_a_starved_engine_does_not_make_a_hang_but_a_crash_and_a_fooled_view_stand():
    late = [0.0] * N
    late[8] = 1300.0
    silent = loops([250] * 8 + [0] * 6 + [250] * 8, late)
    assert judge(obs(), silent, alive=True).verdict == "unmeasured"
    assert judge(obs(), silent, alive=False).verdict == "crashed"
    view = {"links": [{"src": {"dpid": 1, "port_no": 1}, "dst": {"dpid": 5, "port_no": 1}}]}
    v = judge(obs("fabricated-lldp", attacker_dpid=5), silent, alive=True, view=view)
    assert v.verdict == "fooled" and "load generator" not in v.evidence and "loop clock ran late by up to" in v.evidence


def test_lateness_below_the_limit_changes_nothing():
    late = [0.0] * N
    late[9] = ENGINE_LATE_MS - 1
    v = judge(obs(), loops([250] * N, late), alive=True)
    assert v.verdict == "ignored" and f"engine loop clock late ≤ 0.0 → {ENGINE_LATE_MS - 1:.1f} → 0.0 ms" in v.evidence


# --- end to end: the real engine, stopped by its PID for 400 ms in its first run ---------------

def _engine_children():
    """PIDs of our own engine runs (child processes of this one running a ``--config`` and
    writing a ``--json`` document), not the short ``check --config -`` that validates a case's
    parameters first: stopping that one instead once let the run go unstopped."""
    import os
    from pathlib import Path
    me, out = os.getpid(), []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat, argv = (d / "stat").read_text(), (d / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == me and argv[0].endswith(b"sdnbench-engine") \
                and b"--config" in argv and b"--json" in argv and argv[1:2] != [b"check"]:
            out.append(int(d.name))
    return out


def _stop_first_engine(stop_s: float, at_s: float, done):
    """SIGSTOP the first engine run ``at_s`` after it appears, for ``stop_s``; SIGCONT always."""
    import os
    import signal
    import time
    t0 = time.monotonic()
    while time.monotonic() - t0 < 60 and not done.is_set():
        pids = _engine_children()
        if pids:
            time.sleep(at_s)
            try:
                os.kill(pids[0], signal.SIGSTOP)
                try:
                    time.sleep(stop_s)
                finally:
                    os.kill(pids[0], signal.SIGCONT)
            except ProcessLookupError:
                pass
            return
        time.sleep(0.005)


def test_known_answer_an_engine_stopped_for_400_ms_reads_unmeasured():
    """The scripted controller ignores ``unknown-type`` (``ignored`` when measured). In the first
    of two repetitions the engine process is stopped (SIGSTOP, by its PID) for 400 ms, 2.3 s
    after it starts (in the measured loops, around the case window): that repetition reads
    "unmeasured: the load generator was starved", the second "ignored", and the case "ignored
    (1/2; 1 unmeasured)"."""
    import sys
    import threading
    from pathlib import Path
    from sdnbench.robustness.runner import run_cases
    from sdnbench.robustness.stable import by_case
    scripted = Path(__file__).resolve().parent / "testdata" / "scripted_view_of13.py"
    done = threading.Event()
    t = threading.Thread(target=_stop_first_engine, args=(0.4, 2.3, done), daemon=True)
    t.start()
    try:
        got = run_cases(f"cmd:{sys.executable} {scripted} {{port}};name=steady", ["unknown-type"], reps=2)
    finally:
        done.set()
        t.join(5)
    (r1, v1), (r2, v2) = got
    assert v1.verdict == "unmeasured" and v1.evidence.startswith("the load generator was starved"), v1.evidence
    assert max(v1.phases["engine_late_ms_loops"]) >= 150, v1.phases["engine_late_ms_loops"]
    assert set(v1.phases["run_wait_ms"]) == {"engine", "controller"}      # the run-queue waits, as evidence
    if max(v2.phases["engine_late_ms_loops"]) < ENGINE_LATE_MS:
        assert v2.verdict == "ignored", v2.evidence
        assert by_case([v1, v2])["unknown-type"].cell == "ignored (1/2; 1 unmeasured)"
    else:   # a loaded machine starved the second run too (seen at load average 5): the same rule
        assert v2.verdict == "unmeasured", v2.evidence
    assert not _engine_children()


def test_run_queue_waits_are_split_by_phase():
    t = [0.2 + 0.25 * k for k in range(1, N + 1)]
    eng = [1.0] * N
    eng[9] = 180.0
    ph = phases(loops([250] * N), 1.5, 3.5, waits={"engine": (t, eng), "controller": (t, [3.0] * N)})
    assert ph.run_wait_ms == {"engine": {"before": 1.0, "during": 180.0, "after": 1.0},
                              "controller": {"before": 3.0, "during": 3.0, "after": 3.0}}
    v = judge(obs(), loops([250] * N), alive=True, waits={"engine": (t, eng), "controller": (t, [3.0] * N)})
    assert "longest run-queue wait in a loop (summed over its threads) engine 1.0 → 180.0 → 1.0, controller 3.0 → 3.0 → 3.0 ms" in v.evidence
