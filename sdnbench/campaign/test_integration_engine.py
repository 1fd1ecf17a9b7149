"""A real campaign through the ``controller`` kind: the Rust engine against a launched os-ken,
and a failing cell (a controller that never says HELLO) recorded while the campaign goes on."""

import pytest

from sdnbench.cli import main
from sdnbench.store import Store

pytestmark = pytest.mark.integration

SCENARIO = """\
name: engine campaign
seed: 9
repetitions: 2
benchmarks:
  - name: throughput
    kind: controller
    # one warm-up loop: the first 300 ms after the handshake, when a starved os-ken may answer
    # nothing, is not measured (the test is the campaign's; every measured loop must read > 0)
    params: {mode: throughput, macs: 10, loops: 2, loop_ms: 300, warmup: 1}
    matrix:
      controller: [osken:learning]
      switches: [1, 2]
  - name: unreachable
    kind: controller
    repetitions: 1
    params: {mode: throughput, loops: 1, loop_ms: 200, controller: "tcp:127.0.0.1:SILENT", connect_timeout_ms: 500}
"""


def test_an_engine_campaign_runs_records_a_failure_and_compares(tmp_path, capsys):
    import socket
    f = tmp_path / "engine.yaml"
    store = tmp_path / "store"
    # a listener that never says HELLO: it passes the plan's check (something listens; where nothing
    # does, the run is refused before the store), and its cell fails when it runs
    with socket.create_server(("127.0.0.1", 0)) as silent:
        f.write_text(SCENARIO.replace("SILENT", str(silent.getsockname()[1])))
        # a failed cell makes the campaign exit 2 (docs/cli.md), and the others are kept
        assert main(["run", str(f), "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert "run 1 FAILED: 4 ok, 1 failed of 5 cells" in err, err
    with Store(store) as st:
        info = st.run(1)
        assert info.versions.get("controller:os-ken") and "sdnbench-engine" in info.versions
        (failed,) = st.cells(1, "failed")
        assert failed.benchmark == "unreachable" and failed.error
        ok = [(c, r) for c, r in st.results(1) if c.status == "ok"]
        assert len(ok) == 4
        for _cell, r in ok:
            assert r.kind == "controller" and r.status == "ok"
            thr = [v for s in r.find("throughput") for v in s.values]
            assert len(thr) == 2 and all(v > 0 for v in thr)
            assert r.resources, "the controller's CPU/RSS samples are kept"
    assert main(["compare", "1@switches=1", "1@switches=2", "--store", str(store),
                 "--metric", "throughput", "--json"]) == 0
    assert '"mark"' in capsys.readouterr().out
    assert main(["results", "best", "1", "--vary", "switches", "--metric", "throughput",
                 "--store", str(store)]) == 0
    assert "best switches=" in capsys.readouterr().out
