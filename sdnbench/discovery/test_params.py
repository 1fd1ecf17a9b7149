"""Bad discovery / topology-change input: refused by ``discovery/params.py`` through the real
command line, one line naming the flag, before any controller or engine starts (issue 29)."""

import socket

import pytest

from . import params

C = ["controller"]


@pytest.mark.parametrize("argv, words", [
    # numbers out of range: the flag and the value, not an engine key ("loops: 0 is too small")
    (["discovery", "--poll-s", "0"], "--poll-s: must be a number of seconds above 0, got 0.0"),
    (["topology-change", "--poll-s", "-1"], "--poll-s: "),
    (["discovery", "--deadline-s", "-5"], "--deadline-s: want a number, not a negative one, got '-5'"),
    (["discovery", "--deadline-s", "0"], "--deadline-s: must be a number of seconds above 0"),
    (["topology-change", "--deadline-s", "0"], "--deadline-s: "),
    (["discovery", "--stable", "1"], "--stable: must be a whole number"),
    (["discovery", "--reps", "0"], "--reps: "),
    (["topology-change", "--down-at-s", "0"], "--down-at-s: "),
    (["discovery", "--size-search", "--max-switches", "0"], "--max-switches: "),
    (["discovery", "--size-search", "--topo", "ring,10", "--max-switches", "5"], "at least the starting size 10"),
])
def test_a_number_out_of_range_names_its_flag(refused, argv, words):
    assert words in refused(C + argv)


@pytest.mark.parametrize("argv, words", [
    (["discovery", "--topo", "single,1"], "--topo: topology single,1 has no switch-to-switch link"),
    (["discovery", "--topo", "ring,0"], "--topo: topology 'ring,0'"),
    (["topology-change", "--topo", "fattree,3"], "K must be even"),
    (["topology-change", "--topo", "ring,6", "--link", "1:9-2:9"], "--link 1:9-2:9: no such link in ring,6"),
    (["topology-change", "--link", "one-two"], "--link: 'one-two' is not DPID:PORT-DPID:PORT"),
    (["discovery", "--size-search", "--topo", "single"], "--topo: "),
])
def test_a_topology_the_trial_cannot_use_is_refused_by_the_one_parser(refused, argv, words):
    assert words in refused(C + argv)


@pytest.mark.parametrize("argv, words", [
    (["discovery", "--api-url", "127.0.0.1:8080"], "--api-url: want a URL such as http://127.0.0.1:8080"),
    (["topology-change", "--api", "nope"], "--api: must be one of osken, ryu"),
    (["discovery", "--controller", "tcp:127.0.0.1:6653"], "--api: no northbound API is known"),
    (["discovery", "--controller", "tcp:127.0.0.1:6653", "--api", "floodlight"], "give --api-url"),
    (["discovery", "--controller", "nosuch:app"], "--controller: unknown controller spec"),
])
def test_a_northbound_api_that_cannot_be_read_is_refused_up_front(refused, argv, words):
    assert words in refused(C + argv)


def test_an_api_url_the_user_gave_must_answer_before_the_engine_starts():
    from sdnbench.errors import UserError
    from .setup import answers
    with socket.socket() as s:            # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(UserError, match=rf"--api-url http://127.0.0.1:{port}: nothing answers there"):
        answers(f"http://127.0.0.1:{port}", "--api-url", within_s=0.1)


def test_campaign_cells_use_the_same_checks():
    assert "at least 3" in params.validate_param("topo", "ring,0")
    assert params.validate_param("poll_s", 0).startswith("must be a number of seconds above 0")
    assert params.validate_param("topo", "ring,6") is None
    assert params.check_cell({"test": "topology-change", "topo": "ring,6", "link": "1:9-2:9"})[0][0] == "link"
    assert params.check_cell({"topo": "ring,6"}) == []
