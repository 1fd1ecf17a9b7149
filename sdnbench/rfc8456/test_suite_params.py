"""Bad provisioning / table-capacity / reprovisioning / failover input: refused by
``provisioning_params.py`` and ``resilience_params.py`` through the real command line, one line
naming the flag, before any controller or engine starts (issue 29)."""

import pytest

from . import provisioning_params, resilience_params

C = ["controller"]
TCP = ["--controller", "tcp:127.0.0.1:6653"]


@pytest.mark.parametrize("argv, words", [
    (["provisioning", "--deadline", "0"], "--deadline: must be a number of seconds above 0"),
    (["provisioning", "--flows", "0"], "--flows: "),
    (["table-capacity", "--rate", "-1"], "--rate: "),
    (["table-capacity", "--table-size", "-1"], "--table-size: "),
    (["failover", "--flow-rate", "-1"], "--flow-rate: want a number, not a negative one, got '-1'"),
    (["failover", "--flow-rate", "0"], "--flow-rate: must be a number of new flows per second above 0"),
    (["reprovisioning", "--interval-us", "10"], "--interval-us: "),
    (["failover", "--reps", "0"], "--reps: "),
])
def test_a_number_out_of_range_names_its_flag(refused, argv, words):
    assert words in refused(C + argv)


@pytest.mark.parametrize("argv, words", [
    (["provisioning", "--topo", "ring,0"], "--topo: topology 'ring,0'"),
    (["reprovisioning", "--topo", "linear,3"], "--topo: topology linear,3 has no redundant path"),
    (["reprovisioning", "--link", "1-x"], "--link: want the link as DPID-DPID"),
    (["reprovisioning", "--link", "1-9"], "--link 1-9: topology ring,6 has no link"),
    (["failover", "--topo", "single,1"], "--topo: "),
    (["failover", "--controller", "osken:learning"], "--controller: osken:learning cannot be run as a master"),
    (["failover", "--of", "1.0"], "--of 1.0: failover roles need OpenFlow 1.3"),
])
def test_a_topology_or_controller_the_trial_cannot_use_is_refused(refused, argv, words):
    assert words in refused(C + argv)


@pytest.mark.parametrize("argv, words", [
    (["table-capacity", "--mode", "proactive", *TCP, "--api", "onos", "--api-url", "127.0.0.1:8181"],
     "--api-url: want a URL such as http://127.0.0.1:8080"),
    (["provisioning", "--mode", "proactive", *TCP, "--api", "floodlight"], "--api-url: --api floodlight needs it"),
    (["provisioning", "--mode", "proactive", *TCP], "--api: tcp:127.0.0.1:6653 has no flow API"),
    (["provisioning", "--api", "onos"], "--api: is for --mode proactive only"),
])
def test_a_flow_api_that_cannot_be_reached_is_refused_up_front(refused, argv, words):
    assert words in refused(C + argv)


def test_campaign_cells_use_the_same_checks():
    assert provisioning_params.validate_param("deadline", 0).startswith("must be a number of seconds above 0")
    assert provisioning_params.check_cell({"test": "proactive", "controller": "tcp:127.0.0.1:1"})[0][0] == "api"
    assert resilience_params.validate_param("flow_rate", -1).startswith("must be a number")
    assert "no redundant path" in resilience_params.check_cell({"test": "reprovisioning", "topo": "linear,3"})[0][1]
    assert resilience_params.check_cell({"test": "failover", "topo": "linear,3"}) == []
