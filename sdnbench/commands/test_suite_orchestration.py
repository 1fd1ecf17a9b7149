"""The CLI and campaigns share one orchestration (issue 41), for the RFC 8456 suites too:
``controller provisioning`` (and ``table-capacity``, ``reprovisioning``, ``failover``,
``discovery``, ``topology-change``) is a one-benchmark plan measured by the campaigns' executor
(``campaign/executor.py``), each trial one cell. So a provisioning run and a one-cell campaign of
the same parameters store the same cell and a Result with the same params; a run stopped by
SIGTERM keeps the trials it finished, the one cut short as failed, the run marked interrupted.
Against the scripted path controller (``sdnbench/testing/peers``), which provisions at once."""

import signal

import pytest

from sdnbench.cli import main
from sdnbench.store.store import Store
from sdnbench.testing.peers.path_controller import PathController
from sdnbench.testing.sigterm_run import sigterm_after

FLAGS = {"flows": 4, "timeout_ms": 300, "announce_ms": 300}

SCENARIO = """\
name: one-cell
order: sequential
repetitions: 1
benchmarks:
  - name: provisioning-reactive
    kind: provisioning
    params: {{controller: "tcp:{addr}", {params}}}
"""


def _argv(flags: dict) -> list:
    return [x for k, v in flags.items() for x in ("--" + k.replace("_", "-"), str(v))]


@pytest.mark.integration
def test_a_provisioning_run_and_a_one_cell_campaign_store_the_same_cell_and_params(tmp_path):
    cli, campaign, scenario = tmp_path / "cli", tmp_path / "campaign", tmp_path / "s.yaml"
    with PathController() as c:
        assert main(["controller", "provisioning", "--controller", f"tcp:{c.address}", "--reps", "1",
                     *_argv(FLAGS), "--store", str(cli)]) == 0
        scenario.write_text(SCENARIO.format(addr=c.address, params=", ".join(f"{k}: {v}" for k, v in FLAGS.items())))
        assert main(["run", str(scenario), "--store", str(campaign)]) == 0
    with Store(cli, create=False) as a, Store(campaign, create=False) as b:
        [(cell_a, ra)], [(cell_b, rb)] = list(a.results(1)), list(b.results(1))
        assert (a.run(1).kind, b.run(1).kind) == ("single", "campaign")
    assert (cell_a.benchmark, cell_a.kind, cell_a.params, cell_a.repetition) == \
        (cell_b.benchmark, cell_b.kind, cell_b.params, cell_b.repetition)
    assert cell_a.params == {"controller": f"tcp:{c.address}", **FLAGS}, "what was asked, as a campaign's cell"
    assert ra.params == rb.params and ra.params["of_version"] == "1.0", "the same Result params, the negotiated version"
    assert ra.counters["provisioned"] == rb.counters["provisioned"] == FLAGS["flows"]


@pytest.mark.integration
def test_sigterm_keeps_the_finished_trials_of_a_provisioning_run_in_the_store(tmp_path):
    """SIGTERM (``timeout`` sends it) as in a campaign: exit 143, every finished trial stored, the
    one cut short stored as failed, the run marked interrupted. Each trial takes about 2 s (20
    flows at 10/s), so the signal lands inside the second or a later one."""
    store = tmp_path / "store"
    with PathController() as c:
        rc, err = sigterm_after(["controller", "provisioning", "--controller", f"tcp:{c.address}", "--flows", "20",
                                 "--rate", "10", "--timeout-ms", "300", "--announce-ms", "300", "--reps", "5",
                                 "--store", str(store)], store, ok=1, within_s=120, then_s=0.5)  # inside the next trial
    assert rc == 128 + signal.SIGTERM, err
    assert "marked interrupted" in err and "Traceback" not in err, err
    with Store(store, create=False) as s:
        [run] = s.runs()
        cells = s.cells(run.id)
        results = [r for _, r in s.results(run.id)]
    assert run.status == "interrupted", run
    ok = [c.repetition for c in cells if c.status == "ok"]
    assert ok and ok == list(range(len(ok))) and len(cells) <= len(ok) + 1, cells
    assert all(c.status == "ok" or "interrupted" in (c.error or "") for c in cells), cells
    assert [r.params["rep"] for r in results if r.status == "ok"] == ok, "each trial's own repetition"




DISCOVERY = """\
name: one-cell
order: sequential
repetitions: 1
benchmarks:
  - name: topology-discovery
    kind: discovery
    params: {{controller: "tcp:{addr}", of_version: "1.0", topo: "ring,4", api: osken, api_url: "{url}", poll_s: 0.1, deadline_s: 8.0}}
"""


@pytest.mark.integration
def test_a_discovery_run_and_a_one_cell_campaign_store_the_same_cell_and_params(tmp_path):
    """``controller discovery`` is one cell (its Result holds every trial), against the scripted
    LLDP controller whose view holds ring,4 (``sdnbench/testing/peers/scripted_discovery.py``)."""
    from sdnbench.testing.peers.scripted_discovery import LldpController
    cli, campaign, scenario = tmp_path / "cli", tmp_path / "campaign", tmp_path / "s.yaml"
    with LldpController() as c:
        assert main(["controller", "discovery", "--controller", f"tcp:{c.address}", "--of", "1.0", "--topo", "ring,4",
                     "--api", "osken", "--api-url", c.api.url, "--poll-s", "0.1", "--deadline-s", "8", "--reps", "1",
                     "--store", str(cli)]) == 0
        scenario.write_text(DISCOVERY.format(addr=c.address, url=c.api.url))
        assert main(["run", str(scenario), "--store", str(campaign)]) == 0
    with Store(cli, create=False) as a, Store(campaign, create=False) as b:
        [(cell_a, ra)], [(cell_b, rb)] = list(a.results(1)), list(b.results(1))
    assert (cell_a.benchmark, cell_a.kind, cell_a.params, cell_a.repetition) == \
        (cell_b.benchmark, cell_b.kind, cell_b.params, cell_b.repetition)
    assert ra.params == rb.params and ra.counters["rfc8456"]["links"] == rb.counters["rfc8456"]["links"] == 4
