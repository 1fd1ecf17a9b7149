"""The evaluation and its report from scripted trials with known figures: averages, variances,
intervals and the significance verdict by hand; the report's first page, fields and trial
tables; every exporter."""

import json
import math

import pytest

from sdnbench.report import export_html, export_json, export_md
from sdnbench.result import Result
from sdnbench.rfc8456 import suite
from sdnbench.rfc8456.evaluation import compare, evaluate, header, parse_header
from sdnbench.rfc8456.evaluation_report import build
from sdnbench.errors import UserError

A, B = "osken:learning", "ryu:simple_switch_13"
META = {"controllers": [A, B], "profile": "quick", "only": ["async-rate", "sessions", "failover"]}


def _rate(per_loop: list, ctl: str) -> Result:
    r = Result(kind="controller", benchmark="throughput", params={"controller": ctl, "of_version": "1.3"},
               controller={"name": ctl.split(":")[0], "version": "9.9", "of_version": "1.3"},
               topology={"spec": "emulated,4", "switches": 4})
    r.add("throughput", "flows/s", per_loop)
    r.counters.update(requests_sent=1000, requests_answered=990)
    r.machine.update(loadavg_before=1.5, loadavg_after=2.5)
    return r.finish()


def _sessions(n: int, ctl: str, offered: int = 600) -> Result:
    r = Result(kind="controller", benchmark="capacity", params={"controller": ctl})
    r.add("sessions", "switches", [n])
    r.counters.update(capacity_attempted=offered, capacity_held=n,
                      capacity_first_failure=None if n == offered else n + 1)
    return r.finish()


def _rows():
    rows = []
    for i, (a, b) in enumerate([(100, 200), (110, 210), (120, 220)]):
        rows.append((f"async-rate@{A}", i, _rate([a - 5, a + 5], A)))     # trial means 100, 110, 120
        rows.append((f"async-rate@{B}", i, _rate([b], B)))                # 200, 210, 220
        rows.append((f"sessions@{A}", i, _sessions(500, A)))
        rows.append((f"sessions@{B}", i, _sessions(500, B)))
    failed = Result(kind="resilience", benchmark="failover", params={"controller": "osken:takeover"})
    rows.append((f"failover@{A}", 0, failed.finish("failed", "the standby never took over")))
    return rows


def test_average_variance_and_interval_by_hand():
    cells = evaluate(META, _rows(), {f"async-rate@{A}": 3})
    f = cells[("async-rate", A)].figures[0]
    assert (f.n, f.mean, f.variance) == (3, 110.0, 100.0)     # Σ(x−110)²/(3−1) = 200/2
    half = 4.302652729911275 * 10 / math.sqrt(3)               # t(0.975, 2) · s / √n
    assert f.ci == pytest.approx((110 - half, 110 + half))
    assert cells[("async-rate", A)].planned == 3
    assert cells[("failover", B)].spec is None and cells[("failover", B)].status == "not applicable"
    assert cells[("failover", A)].status == "0/1 trials ok"


def test_the_better_controller_is_marked_only_when_significant():
    cells = evaluate(META, _rows())
    v = compare(cells, "async-rate", 0, [A, B])
    assert v.better == B and v.p_value < 0.05                  # 200..220 vs 100..120, higher is better
    same = compare(cells, "sessions", 0, [A, B])
    assert same.better is None and same.note == "equal means"
    one = compare(cells, "failover", 0, [A, B])
    assert one.better is None


def test_one_trial_each_is_never_called_significant():
    rows = [(f"async-rate@{A}", 0, _rate([100], A)), (f"async-rate@{B}", 0, _rate([900], B))]
    cells = evaluate(META, rows)
    f = cells[("async-rate", A)].figures[0]
    assert (f.n, f.mean, f.variance, f.ci) == (1, 100.0, None, None)      # n − 1 = 0: no variance
    v = compare(cells, "async-rate", 0, [A, B])
    assert v.better is None and "too few trials" in v.note


def test_first_page_fields_and_trial_tables():
    rep = build(META, evaluate(META, _rows()), {"id": 7, "status": "done", "started": 0, "finished": 60})
    glance = rep.sections[0]
    assert glance.title == "Headline"
    rows = glance.tables[0].rows
    rate = next(r for r in rows if r[0].startswith("§5.1.3"))
    assert rate[3].startswith("★ 210 ± ") and "responses/s (n=3)" in rate[3] and not rate[2].startswith("★")
    assert rate[4].startswith("ryu:simple_switch_13 (p = ")
    fail = next(r for r in rows if r[0].startswith("§5.4.1") and "failover time" in r[1])
    assert fail[2] == "failed (1/1)" and fail[3] == "n/a"
    [[test, ctl, why]] = glance.tables[1].rows
    assert (test, ctl) == ("§5.4.1 Controller Failover Time", B) and why.startswith("single instance only")
    assert "load average 1.50 – 2.50" in " ".join(glance.text)
    sessions = next(r for r in rows if r[0].startswith("§5.2.1"))
    assert sessions[2] == "500 ± 0 sessions (n=3)"                      # refused the 501st of 600
    rows_all_held = [(f"sessions@{A}", i, _sessions(600, A)) for i in range(2)]
    held = build(META, evaluate(META, rows_all_held), {"id": 8}).sections[0].tables[0].rows
    assert next(r for r in held if r[0].startswith("§5.2.1"))[2].startswith("≥ 600")
    sec = next(s for s in rep.sections if s.title.startswith("§5.1.3"))
    fields = dict((r[0], r[1]) for r in sec.tables[0].rows)
    for k in ("test set-up", "controller and version", "southbound interface", "northbound interface",
              "topology", "test traffic", "trials"):
        assert fields[k]
    assert fields["southbound interface"].startswith("OpenFlow 1.3")
    trials = sec.tables[1]
    assert [r[1] for r in trials.rows] == [100.0, 110.0, 120.0]
    assert [s[0] for s in trials.summary_rows] == ["average", "variance", "95 % CI"]
    assert trials.summary_rows[0][1] == 110.0 and trials.summary_rows[1][1] == 100.0
    assert "Nrx 990 of Ntx 1,000 (1.00% unsuccessful)" == trials.rows[0][-1]


def test_every_exporter_writes_it(tmp_path):
    rep = build(META, evaluate(META, _rows()), {"id": 7, "status": "done"})
    md = export_md.render(rep)
    assert "## Headline" in md and "| average |" in md.replace("**", "")
    html = export_html.render(rep)
    assert html.count('class="report-table"') == len(rep.all_tables()) and "<script" not in html
    doc = json.loads(export_json.render(rep))
    cell = next(c for c in doc["cells"] if c["test"] == "async-rate" and c["controller"] == A)
    assert cell["figures"][0]["mean"] == 110.0 and len(cell["trials"]) == 3


def test_the_header_names_an_rfc8456_run():
    text = header([A], "quick", None) + "name: x\n"
    assert parse_header(text)["controllers"] == [A]
    with pytest.raises(UserError, match="not an `sdnbench rfc8456` evaluation"):
        parse_header("name: x\n")


def test_figures_of_each_test_from_scripted_results():
    r = Result(kind="controller", benchmark="x")
    r.add("provisioning_time", "ms", [1.0, 3.0])
    r.add("provisioning_rate", "paths/s", [50.0])
    assert [f.value(r) for f in suite.BY_SLUG["reactive"].figures] == [2.0, 50.0]
    d = Result(kind="controller", benchmark="robustness")
    d.counters["robustness"] = {"phases": {"before": 1000.0, "during": 750.0, "lat_p99_during": 4500.0},
                                "verdict": "degraded", "evidence": "slower"}
    assert [f.value(d) for f in suite.BY_SLUG["dos-syn-flood"].figures] == [-25.0, 4.5]
    e = Result(kind="rfc8456", benchmark="exceptions",
               counters={"answered_per_s_clean": 4000.0, "drop_1%": 0.5, "drop_2%": 1.0})
    assert [f.value(e) for f in suite.BY_SLUG["exceptions"].figures] == [4000.0, -50.0, -100.0]
    t = Result(kind="controller", benchmark="topology-discovery")
    t.add("discovery_time", "s", [2.0])
    t.add("discovery_rfc_dt", "s", [0.004])
    assert [f.value(t) for f in suite.BY_SLUG["discovery"].figures] == [2.0, 4.0]
    failed = Result(kind="controller", benchmark="x").finish("failed", "boom")
    assert suite.BY_SLUG["sessions"].figures[0].value(failed) is None
    assert suite.BY_SLUG["sessions"].detail(failed) == "failed: boom"
