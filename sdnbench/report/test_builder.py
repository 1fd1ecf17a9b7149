from sdnbench.report.builder import build
from sdnbench.report.conftest import campus_run, controller_run


def _kinds(section):
    return [t.kind for t in section.tables], [f.kind for f in section.figures]


def _section(report, title_start):
    return next(s for s in report.sections if s.title.startswith(title_start))


def test_campus_run_gets_a_per_switch_table_and_size_plots():
    rep = build([campus_run(switches=3)], now=0)
    tables, figures = _kinds(_section(rep, "ping: rtt"))
    assert "per_row" in tables and figures == ["lines", "boxplot"]
    per_row = next(t for t in _section(rep, "ping: rtt").tables if t.kind == "per_row")
    assert [r[0] for r in per_row.rows] == ["s1", "s2", "s3"]
    assert [r[0] for r in per_row.summary_rows] == ["avg", "stdev", "var"]


def test_two_set_ups_get_a_gap_table_and_gap_bars():
    rep = build([campus_run("mininet"), campus_run("prototype", base=3.0, seed=3)], now=0)
    tables, figures = _kinds(_section(rep, "ping: rtt"))
    assert tables.count("per_row") == 2 and "gap" in tables and "gap" in figures
    gap = next(t for t in _section(rep, "ping: rtt").tables if t.kind == "gap")
    assert [r[0] for r in gap.rows] == ["Avg. mininet", "Avg. prototype"]
    assert all(g > 0.5 for g in gap.summary_rows[0][1:])   # base latencies differ by 1 ms


def test_controller_run_gets_trials_best_scenario_cdf_capacity_and_resources():
    rep = build([controller_run()], now=0)
    tables, figures = _kinds(_section(rep, "throughput: throughput"))
    assert {"trials", "best"} <= set(tables) and {"lines", "boxplot"} <= set(figures)
    assert "cdf" in _kinds(_section(rep, "latency: latency"))[1]
    assert "distribution" in _kinds(_section(rep, "capacity: sessions"))[0]
    res = _section(rep, "Controller resources")
    assert [f.kind for f in res.figures] == ["resources"] and len(res.tables[0].rows) == 2
    assert any(t.kind == "fields" for t in _section(rep, "Runs").tables)
    best = next(t for t in _section(rep, "throughput: throughput").tables if t.kind == "best")
    # The synthetic throughput peaks at 4 switches for both controllers.
    assert [r[1] for r in best.rows] == [4, 4]


def test_trials_table_rows_are_the_repetitions():
    rep = build([controller_run(reps=4, switch_counts=(1, 2))], now=0)
    trials = next(t for t in _section(rep, "throughput: throughput").tables if t.kind == "trials")
    assert [r[0] for r in trials.rows] == [1, 2, 3, 4]
    assert [r[0] for r in trials.summary_rows] == ["average", "variance"]
    assert len(trials.columns) == 1 + 2 * 2


def test_cells_cover_every_metric_for_csv_and_json():
    rep = build([controller_run(reps=2, switch_counts=(1,))], now=0, with_plots=False)
    assert {c["metric"] for c in rep.cells} == {"throughput", "latency", "sessions"}
    assert not rep.all_figures()


def test_two_set_up_factors_without_x_give_a_two_way_table_and_bars():
    # The Zodiac FX study's shape: flow type (benchmark) down, application (controller) across.
    from sdnbench.report.model import RunData
    from sdnbench.result import Result
    results = []
    for bench, base in (("c2s", 50.0), ("s2c", 70.0)):
        for ctl, factor in (("osken:passthrough", 1.0), ("osken:multitable", 0.2)):
            for rep in range(2):
                r = Result(kind="net", benchmark=bench, controller={"spec": ctl},
                           params={"repetition": rep})
                r.add("tcp_throughput", "Mbit/s", [base * factor + rep, base * factor - rep], rep=0)
                results.append(r.finish())
    rep = build([RunData("1", "zodiac", results)], now=0)
    sec = _section(rep, "tcp throughput")
    pivot = next(t for t in sec.tables if t.kind == "pivot")
    assert pivot.columns == ["benchmark", "osken:multitable", "osken:passthrough"]
    assert pivot.rows == [["c2s", 10.0, 50.0], ["s2c", 14.0, 70.0]]
    assert [f.kind for f in sec.figures] == ["bars"]
