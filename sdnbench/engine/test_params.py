"""Engine parameters: the driver's keys, the config the engine gets, and the engine's own check
(``sdnbench-engine check``) refusing bad values with the field named, one line."""

import pytest

from sdnbench.errors import UserError
from sdnbench.engine import params
from sdnbench.engine.params import check, config, engine_args, engine_defaults, launch_of_version

BOTH = (1 << 1) | (1 << 4)      # the version bitmap offering 1.0 and 1.3


def test_config_is_the_params_with_the_address():
    p = check({"switches": 4, "loops": 2, "learn": False, "strict": True, "source_addrs": ["127.0.0.2"]})
    assert p["controller"] == "osken:learning" and p["mode"] == "throughput"
    c = config(p, "127.0.0.1:6653")
    assert c["controllers"] == ["127.0.0.1:6653"] and "controller" not in c
    assert c["switches"] == 4 and c["learn"] is False and c["source_addrs"] == ["127.0.0.2"]


def test_versions_are_negotiated_unless_forced():
    p = check({})
    assert config(p, "h:1")["versions"] == BOTH, "the engine's default offers 1.0 and 1.3"
    assert launch_of_version(p) == "1.3"
    p = check({"of_version": "1.0"})
    assert config(p, "h:1")["versions"] == 2 and launch_of_version(p) == "1.0"
    # a controller known to speak only 1.0 (a cmd: spec's of=1.0) is launched for 1.0 without --of
    assert launch_of_version(check({"controller": "cmd:python3 pox.py {port};of=1.0;name=pox"})) == "1.0"
    assert launch_of_version(check({"controller": "cmd:ctl {port};of=1.0,1.3"})) == "1.3"
    assert launch_of_version(check({"controller": "ryu:simple_switch_13"})) == "1.3"


def test_a_cmd_specs_of_is_what_the_engine_offers():
    # issue 40: ";of=1.0" must reach the engine (a plain 1.0 HELLO, no version bitmap), or a
    # controller that closes on a bitmap HELLO fails every session although the spec said 1.0
    assert config(check({"controller": "cmd:ctl {port};of=1.0"}), "h:1")["versions"] == 1 << 1
    assert config(check({"controller": "cmd:ctl {port};of=1.0,1.3"}), "h:1")["versions"] == (1 << 1) | (1 << 4)
    assert config(check({"controller": "cmd:ctl {port};of=1.3"}), "h:1")["versions"] == 1 << 4
    assert config(check({"controller": "cmd:ctl {port};of=1.0", "of_version": "1.0"}), "h:1")["versions"] == 2
    assert config(check({"controller": "cmd:ctl {port}"}), "h:1")["versions"] == BOTH, "nothing declared: both"
    assert config(check({"controller": "ryu:simple_switch_13"}), "h:1")["versions"] == BOTH, "only a cmd: spec's of="


def test_campaign_bookkeeping_keys_are_accepted():
    assert "rep" not in config(check({"switches": 1, "rep": 2, "name": "x"}), "h:1")


@pytest.mark.parametrize("bad, named", [
    ({"mode": "fast"}, "mode"), ({"of_version": "1.5"}, "of_version"), ({"switches": 0}, "switches (--switches): 0"),
    ({"switches": "many"}, "switches"), ({"mode": "fixed-rate"}, "rate"),
    ({"mode": "fixed-rate", "rate": -1}, "rate"), ({"learn": "yes"}, "learn"), ({"bogus": 1}, "bogus"),
    ({"switches": True}, "switches"), ({"source_addrs": "127.0.0.2"}, "source_addrs"),
    ({"links": "mesh"}, "links"), ({"workers": 0}, "workers (--workers): 0"), ({"traffic": "x"}, "unique-pairs"),
])
def test_bad_params_are_one_line_user_errors_naming_the_field(bad, named):
    with pytest.raises(UserError) as e:
        check(bad)
    assert named in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_links_flag():
    assert engine_args(check({"links": "linear"})) == ["--links", "linear"]
    assert engine_args(check({})) == []


def test_faucet_controllers_default_to_faucet_traffic_and_auto_fits_the_engine():
    import yaml
    from sdnbench.engine.params import launch_spec
    p = check({"controller": "faucet:auto", "switches": 3, "ports": 2, "first_dpid": 10})
    assert p["traffic"] == "faucet"
    assert check({"controller": "faucet:auto", "traffic": "unique-pairs"})["traffic"] == "unique-pairs"
    assert check({"controller": "osken:learning"})["traffic"] == engine_defaults()["traffic"]
    cfg = yaml.safe_load(open(launch_spec(p).split(":", 1)[1]).read())
    assert sorted(d["dp_id"] for d in cfg["dps"].values()) == [10, 11, 12, 13]   # + the attacker
    assert all(sorted(d["interfaces"]) == [1, 2] for d in cfg["dps"].values())
    assert cfg["vlans"]["sdnbench"]["max_hosts"] == 0
    assert launch_spec(check({"controller": "osken:learning"})) == "osken:learning"


def test_faucet_traffic_needs_of13_in_one_line():
    with pytest.raises(UserError, match="OpenFlow 1.3 only"):
        check({"controller": "faucet:auto", "of_version": "1.0"})


def test_check_returns_the_config_the_engine_resolved():
    """The engine's defaults filled in by the engine (its one definition), the given values kept,
    nothing of one run (the check's address, a PID) recorded."""
    d = engine_defaults()
    p = check({"switches": 3, "window": 7})
    assert (p["switches"], p["window"]) == (3, 7)
    for k in ("frame_size", "timeout_ms", "versions", "loop_ms", "macs", "learn", "traffic"):
        assert p[k] == d[k], k
    assert not {"controllers", "controller_pid", "net_peers"} & set(p)
    assert config(p, "h:1")["controllers"] == ["h:1"]


def test_one_engine_check_per_distinct_config(monkeypatch):
    """Checking resolved params again, or the same params twice, asks the engine nothing more."""
    calls = []
    real = params.subprocess.run

    def counting(argv, *a, **k):
        calls.append(argv[1])
        return real(argv, *a, **k)
    monkeypatch.setattr(params, "_ANSWERS", {})
    monkeypatch.setattr(params.subprocess, "run", counting)
    p = check({"switches": 5, "window": 9})
    assert check(p) == p and check({"switches": 5, "window": 9}) == p
    assert params.engine_resolved(config(p, "127.0.0.1:6653"))["window"] == 9
    assert calls == ["check"], calls
    check({"switches": 6})
    assert calls == ["check", "check"], "another config is another check"
