"""The one orchestration (``executor``) with the store as its sink, for a command's run (kind
``single``, not resumable) and a campaign's (resumable): what each keeps when a cell fails, when a
signal cuts a cell short, and when a runner has a bug. Scripted runners: this is the pure logic;
the real engine goes through it in ``commands/test_one_orchestration.py``."""

import pytest

from sdnbench import proc
from sdnbench.campaign import runner
from sdnbench.campaign.executor import Sink, execute_cells
from sdnbench.campaign.plan import one_benchmark
from sdnbench.campaign.scenario import parse
from sdnbench.campaign.store_sink import StoreSink
from sdnbench.errors import Interrupted, UserError
from sdnbench.result import Result
from sdnbench.store import Store


def scripted(interrupt_on=None, partial=True, fail_on=(), bug_on=()):
    """A runner whose n-th call measures n, fails, has a bug, or is cut short by SIGTERM (with
    the part it measured, as the engine's ``EngineInterrupted`` carries it, or without)."""
    calls: list = []

    def run(params):
        n = len(calls)
        calls.append(params)
        r = Result(kind="synthetic", benchmark="b", params=dict(params, resolved=True))
        r.add("throughput", "flows/s", [float(n + 1)])
        if n == interrupt_on:
            e = Interrupted(15)
            if partial:
                e.result = r.finish("failed", "interrupted: partial results")
            raise e
        if n in fail_on:
            raise UserError(f"controller died on call {n}")
        if n in bug_on:
            raise KeyError("a bug")
        return r.finish()
    run.calls = calls
    return run


def single(tmp_path, fn, reps=3, contain_bugs=False, sinks=()):
    cells = one_benchmark("b", "synthetic", {"x": 1}, {"y": [1, 2]}, reps)
    with Store(tmp_path) as st:
        return execute_cells(cells, {"synthetic": fn}, [StoreSink(st, resumable=False), *sinks], contain_bugs)


def stored(tmp_path):
    with Store(tmp_path, create=False) as st:
        [run] = st.runs()
        return run, st.cells(run.id), [r for _, r in st.results(run.id)]


def test_a_commands_plan_commits_each_cell_as_it_ends_with_the_params_asked_and_run(tmp_path):
    done = single(tmp_path, scripted(), reps=2)
    assert [(c.params, c.repetition) for c, _ in done] == [({"x": 1, "y": 1}, 0), ({"x": 1, "y": 1}, 1),
                                                           ({"x": 1, "y": 2}, 0), ({"x": 1, "y": 2}, 1)]
    run, cells, results = stored(tmp_path)
    assert (run.kind, run.name, run.status) == ("single", "synthetic:b", "done")
    assert [(c.params, c.repetition, c.status) for c in cells] == [(c.params, c.repetition, "ok") for c, _ in done]
    assert all(r.params["resolved"] for r in results), "the Result keeps the params the runner ran"


def test_sigterm_keeps_the_finished_cells_and_the_part_of_the_one_cut_short(tmp_path):
    with pytest.raises(Interrupted):
        single(tmp_path, scripted(interrupt_on=2))
    run, cells, results = stored(tmp_path)
    assert run.status == "interrupted"
    assert [c.status for c in cells] == ["ok", "ok", "failed"], "nothing planned after the signal is stored"
    assert cells[2].error == "interrupted: partial results" and results[2].series[0].values == [3.0]


def test_a_cell_cut_short_before_it_measured_anything_is_failed_not_left_running(tmp_path):
    with pytest.raises(Interrupted):
        single(tmp_path, scripted(interrupt_on=1, partial=False))
    run, cells, _ = stored(tmp_path)
    assert run.status == "interrupted"
    assert [(c.status, c.error) for c in cells] == [("ok", None),
                                                    ("failed", "interrupted before it measured anything")]


def test_a_signal_a_finalizer_swallowed_during_a_cell_ends_the_plan_after_it(tmp_path):
    """The cell measured in full is kept as ok; nothing planned after it runs; the run reads
    interrupted (``proc.raise_if_swallowed``, fed as the unraisable hook feeds it)."""
    fn = scripted()

    def swallowed_during_the_second(params):
        if len(fn.calls) == 1:
            proc._swallowed.append(15)
        return fn(params)
    with pytest.raises(Interrupted):
        single(tmp_path, swallowed_during_the_second)
    run, cells, _ = stored(tmp_path)
    assert run.status == "interrupted" and len(fn.calls) == 2
    assert [c.status for c in cells] == ["ok", "ok"]


def test_a_failed_cell_is_recorded_and_the_plan_goes_on(tmp_path):
    done = single(tmp_path, scripted(fail_on=(1,)), reps=1)
    assert [r.status for _, r in done] == ["ok", "failed"]
    run, cells, _ = stored(tmp_path)
    assert run.status == "failed" and cells[1].error == "controller died on call 1"


def test_a_commands_bug_propagates_after_its_finished_cells_are_kept(tmp_path):
    class Seen(Sink):
        closed = None

        def close(self, completed):
            Seen.closed = completed
    with pytest.raises(KeyError):
        single(tmp_path, scripted(bug_on=(1,)), sinks=[Seen()])
    run, cells, _ = stored(tmp_path)
    assert run.status == "failed" and Seen.closed is False
    assert [(c.status, c.error) for c in cells] == [("ok", None),
                                                    ("failed", "stopped by an error in sdnbench before it finished")]


def test_a_campaign_contains_a_bug_and_leaves_a_cell_cut_short_to_resume(tmp_path):
    sc = parse("name: t\nrepetitions: 1\norder: sequential\nbenchmarks:\n  - name: b\n    kind: synthetic\n"
               "    matrix: {y: [1, 2, 3]}\n")
    with Store(tmp_path) as st:
        run_id = runner.start(st, sc)
        fn = scripted(bug_on=(0,), interrupt_on=1)
        with pytest.raises(Interrupted):
            execute_cells(st.cells(run_id), {"synthetic": fn}, [StoreSink(st, run_id)])
        cells = st.cells(run_id)
        assert st.run(run_id).status == "interrupted"
        assert [c.status for c in cells] == ["failed", "running", "pending"]
        assert cells[0].error.startswith("internal error in the synthetic runner: KeyError")
