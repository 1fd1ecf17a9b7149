"""Launch plans: loopback only, every side socket moved off the defaults, versions checked."""

from pathlib import Path

import pytest

from sdnbench.controllers import envs, plan
from sdnbench.controllers.kinds.faucet import faucet_env
from sdnbench.controllers.spec import parse_spec
from sdnbench.errors import UserError


def test_faucet_env_keeps_everything_in_the_state_dir_and_on_loopback(tmp_path):
    env = faucet_env(Path("/x/f.yaml"), tmp_path, 9999)
    assert env["FAUCET_CONFIG"] == "/x/f.yaml"
    assert env["FAUCET_PROMETHEUS_ADDR"] == env["GAUGE_PROMETHEUS_ADDR"] == "127.0.0.1"
    assert env["FAUCET_PROMETHEUS_PORT"] == "9999"
    assert env["FAUCET_LOG"] == "STDOUT" and env["FAUCET_EXCEPTION_LOG"] == "STDERR"
    for k, v in env.items():
        assert not v.startswith(("/etc", "/var/log")), k
        if k.startswith("GAUGE_") and k.endswith(("LOG", "CONFIG")):
            assert v.startswith(str(tmp_path))


def test_ovs_testcontroller_plan(tmp_path):
    p = plan.plan_for(parse_spec("ovs-testcontroller"), 7000, "1.0", tmp_path)
    assert p.argv[-1] == "ptcp:7000:127.0.0.1"
    assert ["-O", "OpenFlow10"] == p.argv[1:3]
    assert f"--unixctl={tmp_path / 'ovs-testcontroller.ctl'}" in p.argv
    assert p.version and p.version[0].isdigit()


def test_managed_plans_bind_loopback(tmp_path):
    # Needs the real environments (installed by `make setup`); the argv must never say 0.0.0.0.
    for spec in ("osken:learning", "osken:topology", "ryu:simple_switch_13"):
        p = plan.plan_for(parse_spec(spec), 7001, "1.3", tmp_path)
        joined = " ".join(p.argv)
        assert "--ofp-listen-host 127.0.0.1" in joined and "0.0.0.0" not in joined
        assert "--ofp-tcp-listen-port 7001" in joined
        assert "PYTHONPATH" not in p.env
    topo = plan.plan_for(parse_spec("osken:topology"), 7001, "1.3", tmp_path)
    assert topo.api_port and topo.argv[-2:] == ["topology", "learning"]
    ryu = plan.plan_for(parse_spec("ryu:simple_switch_13"), 7001, "1.3", tmp_path)
    assert "--wsapi-host" in ryu.argv and ryu.argv[ryu.argv.index("--wsapi-host") + 1] == "127.0.0.1"
    assert ryu.argv[-1] == "ryu.app.simple_switch_13"


@pytest.mark.parametrize("spec,of", [("osken:multitable", "1.0"), ("ryu:simple_switch_13", "1.0"),
                                     ("faucet:/nonexistent.yaml", "1.0")])
def test_version_mismatch_is_refused_before_anything_runs(tmp_path, spec, of):
    with pytest.raises(UserError, match="speaks OpenFlow"):
        plan.plan_for(parse_spec(spec), 7002, of, tmp_path)


def test_missing_faucet_config(tmp_path):
    envs.require("faucet")
    with pytest.raises(UserError, match="no such config file"):
        plan.plan_for(parse_spec(f"faucet:{tmp_path}/nope.yaml"), 7003, "1.3", tmp_path)
