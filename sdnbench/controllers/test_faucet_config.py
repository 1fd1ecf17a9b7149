"""Generated Faucet configs: one VLAN, every port, DPIDs and port numbers as Mininet assigns them."""

import pytest
import yaml

from sdnbench.controllers.faucet_config import chain, faucet_config, faucet_config_for, switches_of
from sdnbench.errors import UserError
from sdnbench.net.topology import parse_topology


def test_linear3_ports_follow_mininet_numbering():
    sw = switches_of(parse_topology("linear,3"))
    # s1: h1, s2 | s2: h2, s1, s3 | s3: h3, s2
    assert {k: (d, list(p)) for k, (d, p) in sw.items()} == {
        "s1": (1, [1, 2]), "s2": (2, [1, 2, 3]), "s3": (3, [1, 2])}


def test_config_shape():
    cfg = faucet_config({"s1": (1, [1, 2]), "s2": (2, [1])}, vid=200)
    assert cfg["vlans"]["sdnbench"]["vid"] == 200
    assert cfg["dps"]["s1"]["dp_id"] == 1
    assert cfg["dps"]["s1"]["interfaces"] == {
        1: {"name": "port1", "native_vlan": "sdnbench"}, 2: {"name": "port2", "native_vlan": "sdnbench"}}
    assert list(cfg["dps"]["s2"]["interfaces"]) == [1]


def test_written_yaml_round_trips(tmp_path):
    path = faucet_config_for(parse_topology("single,3"), path=tmp_path / "f.yaml")
    data = yaml.safe_load(path.read_text())
    assert data["dps"]["s1"]["dp_id"] == 1
    assert sorted(data["dps"]["s1"]["interfaces"]) == [1, 2, 3]


def test_other_inputs():
    assert switches_of({5: [1, 2]}) == {"s5": (5, [1, 2])}
    assert switches_of({"edge": (7, [3])}) == {"edge": (7, [3])}
    assert switches_of([1, 2], ports=[1]) == {"s1": (1, [1]), "s2": (2, [1])}
    with pytest.raises(UserError, match="port numbers"):
        switches_of([1, 2])


@pytest.mark.parametrize("switches,needle", [
    ({}, "no switches"),
    ({"a": (1, [1]), "b": (1, [2])}, "share DPID"),
    ({"a": (1, [])}, "no ports"),
])
def test_bad_networks(switches, needle):
    with pytest.raises(UserError, match=needle):
        faucet_config(switches)


def test_bad_vlan():
    with pytest.raises(UserError, match="VLAN"):
        faucet_config({"a": (1, [1])}, vid=5000)


def test_loops_are_refused():
    with pytest.raises(UserError, match="loop"):
        switches_of(parse_topology("leafspine,2,2,1"))


def test_max_hosts_on_the_vlan_and_every_port():
    cfg = faucet_config({"s1": (1, [1, 2])}, max_hosts=0)
    assert cfg["vlans"]["sdnbench"]["max_hosts"] == 0
    assert all(i["max_hosts"] == 0 for i in cfg["dps"]["s1"]["interfaces"].values())
    assert "max_hosts" not in faucet_config({"s1": (1, [1])})["vlans"]["sdnbench"]    # Faucet's default
    with pytest.raises(UserError, match="negative"):
        faucet_config({"s1": (1, [1])}, max_hosts=-1)


def test_stacked_chain():
    """Issue 31: a stack of three datapaths, chained on ports 5 (down) and 6 (up); the lowest
    datapath is the root; stack ports lose their VLAN and host limit, the others keep them."""
    cfg = faucet_config(switches_of({1: [1, 5, 6], 2: [1, 5, 6], 3: [1, 5, 6]}),
                        max_hosts=0, stack=chain([1, 2, 3], 5, 6))
    dps = cfg["dps"]
    assert dps["s1"]["stack"] == {"priority": 1} and "stack" not in dps["s2"] and "stack" not in dps["s3"]
    assert dps["s1"]["interfaces"][6] == {"name": "port6", "stack": {"dp": "s2", "port": 5}}
    assert dps["s2"]["interfaces"][5] == {"name": "port5", "stack": {"dp": "s1", "port": 6}}
    assert dps["s2"]["interfaces"][6] == {"name": "port6", "stack": {"dp": "s3", "port": 5}}
    assert dps["s3"]["interfaces"][5] == {"name": "port5", "stack": {"dp": "s2", "port": 6}}
    assert dps["s1"]["interfaces"][5] == {"name": "port5", "native_vlan": "sdnbench", "max_hosts": 0}
    assert dps["s3"]["interfaces"][1] == {"name": "port1", "native_vlan": "sdnbench", "max_hosts": 0}


def test_stack_link_to_a_missing_port_is_refused():
    with pytest.raises(UserError, match="stack link end 2:9"):
        faucet_config({"s1": (1, [1, 2]), "s2": (2, [1, 2])}, stack=[(1, 2, 2, 9)])
    with pytest.raises(UserError, match="two different ports"):
        chain([1, 2], 5, 5)


def test_stacked_config_passes_faucets_own_check(tmp_path):
    """Faucet 1.10's check_faucet_config accepts the generated stack (run from its venv)."""
    import subprocess
    from sdnbench.controllers import envs
    path = faucet_config_for([1, 2, 3], ports=range(1, 7), max_hosts=0, stack=chain([1, 2, 3], 5, 6),
                             path=tmp_path / "stack.yaml")
    cp = subprocess.run([str(envs.bin_path("faucet", "check_faucet_config")), str(path)],
                        capture_output=True, text=True, timeout=60)
    assert cp.returncode == 0, cp.stderr[-2000:]
    assert '"stack"' in cp.stdout or "'stack'" in cp.stdout
