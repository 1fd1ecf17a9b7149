"""Campaign logic with scripted runners (fakes are fine here: this is the pure scheduling logic;
the real kinds are exercised by the subprocess test and the engine campaign)."""

import io

import pytest

from sdnbench.campaign import runner
from sdnbench.campaign.measure import measure
from sdnbench.campaign.plan import Overrides, combinations, plan
from sdnbench.campaign.progress import Progress, fmt_duration
from sdnbench.campaign.scenario import parse
from sdnbench.errors import Interrupted, UserError
from sdnbench.result import Result
from sdnbench.store import Store

TEXT = """\
name: t
seed: 7
repetitions: 3
benchmarks:
  - name: b
    kind: synthetic
    params: {samples: 2}
    matrix:
      value: [1, 2]
      spread: [0, 1]
"""


def quiet(total=0, done=0):
    return Progress(total, done, stream=io.StringIO(), live=False)


def test_plan_is_the_cross_product_times_repetitions_in_a_seeded_order():
    sc = parse(TEXT)
    assert len(combinations(sc.benchmarks[0])) == 4
    cells = plan(sc, 7)
    assert len(cells) == 12 and len({c.key for c in cells}) == 12
    assert [c.key for c in cells] == [c.key for c in plan(sc, 7)]
    assert [c.key for c in cells] != [c.key for c in plan(sc, 8)]
    seq = plan(parse(TEXT.replace("seed: 7", "order: sequential")), 0)
    assert [(c.params["value"], c.params["spread"], c.repetition) for c in seq[:4]] == \
        [(1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 1, 0)]
    assert len(plan(sc, 7, Overrides(repetitions=1))) == 4


class Script:
    """A runner that records its calls and fails or raises on chosen calls."""

    def __init__(self, fail_on=(), raise_on=(), interrupt_on=None, bug_on=()):
        self.calls = []
        self.fail_on, self.raise_on, self.interrupt_on, self.bug_on = fail_on, raise_on, interrupt_on, bug_on

    def __call__(self, params):
        n = len(self.calls)
        self.calls.append(dict(params))
        if n == self.interrupt_on:
            raise Interrupted(15)
        if n in self.raise_on:
            raise UserError(f"controller died on call {n}")
        if n in self.bug_on:
            raise ZeroDivisionError("oops")
        r = Result("synthetic", "b", params)
        r.add("throughput", "flows/s", [float(params["value"])])
        if n in self.fail_on:
            return r.finish("failed", "tool error")
        return r.finish()


def test_failed_cells_are_recorded_and_the_campaign_goes_on(tmp_path):
    sc = parse(TEXT)
    script = Script(fail_on=(1,), raise_on=(3,), bug_on=(5,))
    with Store(tmp_path) as st:
        run_id = runner.start(st, sc)
        out = runner.execute(st, run_id, sc, {"synthetic": script}, quiet(12))
        assert (out.total, out.ok, out.failed, out.measured) == (12, 9, 3, 12)
        errors = sorted(c.error for c in st.cells(run_id, "failed"))
        assert errors[0] == "controller died on call 3"
        assert errors[1].startswith("internal error in the synthetic runner: ZeroDivisionError: oops")
        assert errors[2] == "tool error"
        bug = [r for c, r in st.results(run_id) if c.error and "ZeroDivision" in c.error][0]
        assert "Traceback" in bug.notes[0]
        assert st.run(run_id).status == "failed"     # some cells failed: never shown as done


def test_interrupt_marks_the_run_and_resume_finishes_each_cell_once(tmp_path):
    sc = parse(TEXT)
    with Store(tmp_path) as st:
        run_id = runner.start(st, sc)
        first = Script(interrupt_on=5)
        with pytest.raises(Interrupted):
            runner.execute(st, run_id, sc, {"synthetic": first}, quiet(12))
        info = st.run(run_id)
        assert info.status == "interrupted" and info.counts == {"ok": 5, "running": 1, "pending": 6}
        before = {c.id: c.result_id for c in st.cells(run_id, "ok")}
        second = Script()
        out = runner.execute(st, run_id, sc, {"synthetic": second}, quiet(12, 5))
        assert (out.ok, out.measured, len(second.calls)) == (12, 7, 7)
        cells = st.cells(run_id)
        assert all(c.status == "ok" and c.result_id for c in cells)
        assert st.conn.execute("SELECT count(*) FROM results").fetchone()[0] == 12
        # the five finished cells kept their results; only the other seven were measured again
        assert {c.id: c.result_id for c in cells if c.id in before} == before
        assert runner.execute(st, run_id, sc, {"synthetic": Script()}, quiet(12, 12)).measured == 0


def test_warm_up_runs_before_each_combination_and_is_discarded(tmp_path):
    sc = parse(TEXT.replace("repetitions: 3", "repetitions: 2\nwarmup: 1\npause: 0.25"))
    script, slept = Script(), []
    with Store(tmp_path) as st:
        run_id = runner.start(st, sc)
        runner.execute(st, run_id, sc, {"synthetic": script}, quiet(8), sleep=slept.append)
        assert len(script.calls) == 8 + 4          # 8 cells + one warm-up per combination
        assert st.conn.execute("SELECT count(*) FROM results").fetchone()[0] == 8
        assert slept == [0.25] * 7                  # between cells, not after the last


def test_overrides_are_stored_with_the_run(tmp_path):
    sc = parse(TEXT)
    with Store(tmp_path) as st:
        run_id = runner.start(st, sc, Overrides(quick=True, repetitions=1, warmup=0))
        info = st.run(run_id)
        assert info.options == {"quick": True, "repetitions": 1, "warmup": 0}
        assert sum(info.counts.values()) == 4 and info.seed == 7


def test_seed_is_drawn_and_recorded_when_the_scenario_has_none(tmp_path):
    sc = parse(TEXT.replace("seed: 7\n", ""))
    with Store(tmp_path) as st:
        run_id = runner.start(st, sc)
        seed = st.run(run_id).seed
        assert isinstance(seed, int)
        assert [c.key for c in st.cells(run_id)] == [c.key for c in plan(sc, seed)]


def test_measure_wraps_a_non_result():
    r = measure(lambda p: 42, "net", "ping", {"a": 1})
    assert r.status == "failed" and "returned int, not a Result" in r.error


def test_missing_runner_module_is_a_user_error():
    from sdnbench.campaign.kinds import Kind
    with pytest.raises(UserError, match="does not have yet"):
        Kind("x", "sdnbench.nonexistent.runner", "run").load()


def test_every_kind_s_runner_loads():
    """A kind names its runner by module and function (imported when a campaign uses it): a
    module moved or a function renamed is found here, not in the first campaign that runs it."""
    from sdnbench.campaign.kinds import CAMPAIGN_KINDS
    for kind in CAMPAIGN_KINDS.values():
        assert callable(kind.load()), kind.name


def test_progress_plain_lines_and_eta():
    t = [0.0]
    out = io.StringIO()
    p = Progress(4, 1, stream=out, live=False, clock=lambda: t[0])
    p.begin("b value=1 #1")
    t[0] = 10.0
    p.end("b value=1 #1", True)
    assert p.eta() == pytest.approx(20.0)       # 10 s per cell here, 2 cells left
    p.begin("b value=2 #1")
    t[0] = 30.0
    p.end("b value=2 #1", False, "boom")
    lines = out.getvalue().splitlines()
    assert lines[0] == "[1/4] running b value=1 #1"
    assert lines[1] == "[2/4]  50% elapsed 10s eta 20s ok b value=1 #1 (10s)"
    assert lines[3] == "FAILED b value=2 #1 (20s): boom"
    assert fmt_duration(3725) == "1h02m05s"


def test_progress_live_line_rewrites_in_place():
    out = io.StringIO()
    p = Progress(2, 0, stream=out, live=True)
    p.begin("cell one")
    p.end("cell one", True)
    p.close()
    text = out.getvalue()
    assert "\r\x1b[K[0/2]" in text and "cell one" in text and text.endswith("\n")
    assert text.count("\n") == 1                   # only the final line stays


def test_requirements_include_each_controller_kinds_check():
    from sdnbench.campaign.kinds import requirements
    sc = parse(TEXT.replace("kind: synthetic", "kind: controller").replace(
        "samples: 2", "loops: 2").replace("      spread: [0, 1]\n", "").replace(
        "      value: [1, 2]\n", "      controller: [osken:learning, ryu:simple_switch_13, ovs-testcontroller]\n"))
    assert requirements(sc) == ["engine", "controller-osken", "controller-ryu", "ovs-testcontroller"]


def test_a_run_is_measured_by_one_process_at_a_time(tmp_path):
    import subprocess
    import sys
    sc = parse(TEXT)
    with Store(tmp_path) as st:
        run_id = runner.start(st, sc)
        with runner.run_lock(st, run_id):
            # another process (flock is per open file, so a second process is the real test)
            code = ("import sys; from sdnbench.store import Store; from sdnbench.campaign import runner\n"
                    "from sdnbench.errors import UserError\n"
                    f"st = Store({str(tmp_path)!r})\n"
                    "try:\n"
                    f"    runner.run_lock(st, {run_id}).__enter__()\n"
                    "except UserError as e:\n"
                    "    print(e); sys.exit(7)\n")
            cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            assert cp.returncode == 7, cp.stderr
            assert f"is being measured by another process (pid {__import__('os').getpid()})" in cp.stdout
        runner.execute(st, run_id, sc, {"synthetic": Script()}, quiet(12))
