"""A real campaign through the ``net`` kind: Mininet + Open vSwitch, no mocks."""

import pytest

from sdnbench.cli import main
from sdnbench.store import Store

pytestmark = pytest.mark.integration

SCENARIO = """\
name: net campaign
seed: 3
repetitions: 2
benchmarks:
  - name: ping
    kind: net
    params: {measurements: [ping], ping: {sizes: [64], count: 3, interval: 0.2}, controller: standalone}
    matrix:
      topo: ["linear,2", "single,2"]
"""


def test_a_net_campaign_runs_stores_and_compares(tmp_path, capsys):
    f = tmp_path / "net.yaml"
    f.write_text(SCENARIO)
    store = tmp_path / "store"
    assert main(["run", str(f), "--store", str(store)]) == 0
    assert "run 1 done: 4 ok of 4 cells" in capsys.readouterr().err
    with Store(store) as st:
        info = st.run(1)
        assert "ovs" in info.versions and "mininet-python" in info.versions
        results = list(st.results(1))
        assert len(results) == 4
        for _cell, r in results:
            assert r.kind == "net" and r.status == "ok"
            rtts = [v for s in r.find("rtt") for v in s.values]
            assert len(rtts) >= 3 and all(v is None or v > 0 for v in rtts)
    assert main(["compare", "1@topo=linear,2", "1@topo=single,2", "--store", str(store),
                 "--fail-on", "rtt:100000"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("benchmark=ping; controller=standalone")
    assert out[1].split()[:3] == ["metric", "mean", "run"]
    assert any(line.startswith("rtt (ms)") for line in out)
