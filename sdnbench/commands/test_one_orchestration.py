"""The CLI and campaigns share one orchestration (issue 41): ``controller bench`` is a
one-benchmark plan measured by the campaigns' executor (``campaign/executor.py``). So a bench run
and a one-cell campaign of the same parameters store the same cell (the params asked) and Results
with the same params keys (the config the engine resolved); ``-o`` adds the repetition. And a
command stopped by SIGTERM keeps what it finished, as a campaign does. Against the minimal
responder (crates/responder) and the scripted controller (``sdnbench/testing/peers``)."""

import json
import signal

import pytest

from sdnbench.cli import main
from sdnbench.store.store import Store
from sdnbench.testing.engine_fixtures import responder
from sdnbench.testing.peers.scripted_controller import ScriptedController
from sdnbench.testing.sigterm_run import sigterm_after

FLAGS = {"switches": 2, "loops": 1, "loop_ms": 200, "macs": 4, "warmup": 0}

SCENARIO = """\
name: one-cell
order: sequential
repetitions: 1
benchmarks:
  - name: throughput
    kind: controller
    params: {{controller: "tcp:{addr}", mode: throughput, {params}}}
"""


def _argv(flags: dict) -> list:
    return [x for k, v in flags.items() for x in ("--" + k.replace("_", "-"), str(v))]


@pytest.mark.integration
def test_a_bench_run_and_a_one_cell_campaign_store_the_same_cell_and_params(tmp_path):
    cli, campaign, out, scenario = tmp_path / "cli", tmp_path / "campaign", tmp_path / "out.json", tmp_path / "s.yaml"
    with responder("1.3") as addr:
        assert main(["controller", "bench", "--controller", f"tcp:{addr}", "--reps", "1", *_argv(FLAGS),
                     "--store", str(cli), "-o", str(out)]) == 0
        scenario.write_text(SCENARIO.format(addr=addr, params=", ".join(f"{k}: {v}" for k, v in FLAGS.items())))
        assert main(["run", str(scenario), "--store", str(campaign)]) == 0
    with Store(cli, create=False) as a, Store(campaign, create=False) as b:
        [(cell_a, ra)], [(cell_b, rb)] = list(a.results(1)), list(b.results(1))
        assert (a.run(1).kind, b.run(1).kind) == ("single", "campaign")
    assert (cell_a.benchmark, cell_a.params, cell_a.repetition) == (cell_b.benchmark, cell_b.params, cell_b.repetition)
    assert sorted(ra.params) == sorted(rb.params)
    assert {"window", "frame_size", "timeout_ms"} <= set(ra.params), "the resolved config, in both"
    assert {k: ra.params[k] for k in FLAGS} == {k: rb.params[k] for k in FLAGS} == FLAGS
    [written] = json.loads(out.read_text())
    assert sorted(written["params"]) == sorted(set(ra.params) | {"rep"})


@pytest.mark.integration
def test_sigterm_keeps_the_finished_repetitions_of_a_search_and_a_bench_in_the_store(tmp_path):
    """SIGTERM (``timeout`` sends it) as Ctrl-C: exit 143, every finished repetition stored, the
    one cut short stored as failed, the run marked interrupted."""
    store = tmp_path / "store"
    with ScriptedController(version=4) as peer:
        rc, err = sigterm_after(["controller", "bench", "--controller", f"tcp:{peer.address}", "--switches", "1,2",
                                 "--reps", "2", "--loops", "2", "--loop-ms", "500", "--warmup", "0", "--macs", "4",
                                 "--store", str(store)], store, ok=2, within_s=60)
    assert rc == 128 + signal.SIGTERM, err
    with Store(store, create=False) as s:
        [run] = s.runs()
        cells = s.cells(run.id)
    assert run.status == "interrupted" and "marked interrupted" in err, err
    ok = [(c.params["switches"], c.repetition) for c in cells if c.status == "ok"]
    assert ok[:2] == [(1, 0), (1, 1)], cells
    assert all(c.status == "ok" or "interrupted" in c.error for c in cells), cells
    assert len(cells) < 4 or cells[-1].status == "ok", "a cell planned after the signal is never stored"
