from sdnbench.report.conftest import campus_run, controller_run
from sdnbench.report.observations import (cells, group_by_metric, layout_for, observations,
                                          sort_key)


def _group(runs, metric):
    return next(g for (k, m, u, mode), g in group_by_metric(observations(runs)).items() if m == metric)


def test_campus_layout_is_size_across_switch_down_and_host_names_do_not_split_lines():
    lay = layout_for(_group([campus_run()], "rtt"))
    # src differs per switch but is only another name for it, so it must not become a line.
    assert (lay.x, lay.row, lay.lines) == ("size", "switch", [])


def test_two_runs_become_two_set_ups():
    lay = layout_for(_group([campus_run("a"), campus_run("b", seed=5)], "rtt"))
    assert lay.lines == ["run"]


def test_controller_layout_is_switch_count_per_controller():
    lay = layout_for(_group([controller_run()], "throughput"))
    assert (lay.x, lay.row, lay.lines) == ("switches", None, ["controller"])


def test_cells_pool_repetitions_and_keep_each_one_apart():
    group = _group([controller_run(reps=3, switch_counts=(1, 2))], "throughput")
    by = cells(group, ["controller", "switches"])
    assert len(by) == 4
    c = by[("osken:learning", 1)]
    assert len(c.reps) == 3 and len(c.samples) == 12 and len(c.rep_values) == 3


def test_failed_results_are_left_out():
    run = campus_run(reps=2)
    run.results[0].finish(status="failed", error="boom")
    obs = observations([run])
    assert {o.factors["rep"] for o in obs} == {1}


def test_natural_sort_puts_s2_before_s10_and_numbers_first():
    assert sorted(["s10", "s2", 3, "s1"], key=sort_key) == [3, "s1", "s2", "s10"]


def test_campaign_repetitions_stay_apart_when_the_runner_numbers_its_own_reps_from_zero():
    run = campus_run(reps=3)
    for i, r in enumerate(run.results):     # as loaded from the store: cell repetition i
        r.params = {"repetition": i}
        for s in r.series:
            s.labels["rep"] = 0
    group = _group([run], "rtt")
    c = next(iter(cells(group, ["switch", "size"]).values()))
    assert len(c.reps) == 3


def test_lost_and_non_finite_samples_are_left_out():
    run = campus_run(switches=1, reps=1)
    run.results[0].series = []
    run.results[0].add("rtt", "ms", [1.0, None, float("nan"), float("inf"), 3.0], size=64)
    (o,) = observations([run])
    assert o.values == [1.0, 3.0]


def test_trials_are_counted_per_condition():
    from sdnbench.report.fields import _trials
    from sdnbench.result import Result
    rs = [Result("controller", "throughput", {"switches": s, "repetition": i})
          for s in (1, 2) for i in range(3)]
    rs += [Result("controller", "latency", {"switches": 1, "repetition": i}) for i in range(2)]
    rs += [Result("controller", "capacity", {"repetition": 0})]
    assert _trials(rs) == "throughput 3, latency 2, capacity 1 per condition"
    assert _trials(rs[:6]) == "3 per condition"
    assert _trials([Result("net", "ping", {})]) == "1 result, no repetition number recorded"
