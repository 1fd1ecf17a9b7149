"""Commands that talk to a controller agree on the OpenFlow version with it (issue 27, item 3),
against a controller that speaks OpenFlow 1.0 only and whose versions sdnbench is not told: Ryu's
``simple_switch`` (OpenFlow 1.0) from the Ryu that ``make setup`` installs, run as a ``cmd:``
program with no ``of=`` (issue 40: it used to be POX from a path only one machine had). Without
--of they measure at 1.0; with --of 1.3 they stop in one line naming --of, from the controller's
answer to HELLO."""

import json
import subprocess
import sys

from sdnbench.controllers.envs import bin_path

ONLY_10 = f"cmd:{bin_path('ryu', 'ryu-manager')} --ofp-listen-host {{host}} --ofp-tcp-listen-port {{port}} " \
          "ryu.app.simple_switch;name=ryu10"


def _run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sdnbench", "controller", *args], capture_output=True, text=True,
                          timeout=120)


def test_provisioning_against_a_10_only_controller_without_of_measures_at_10():
    cp = _run("provisioning", "--controller", ONLY_10, "--flows", "10", "--reps", "1", "--json")
    assert cp.returncode == 0, cp.stderr
    [r] = json.loads(cp.stdout)
    assert r["params"]["of_version"] == "1.0" and r["counters"]["provisioned"] == 10


def test_a_forced_version_the_controller_lacks_is_one_line_naming_of():
    for cmd in (["discovery", "--verify", "southbound", "--topo", "linear,2", "--reps", "1", "--deadline-s", "3"],
                ["provisioning", "--flows", "5", "--reps", "1"], ["capacity", "--max", "2"]):
        cp = _run(*cmd, "--controller", ONLY_10, "--of", "1.3")
        assert cp.returncode == 1, (cmd, cp.stdout, cp.stderr)
        err = cp.stderr.strip()
        assert "\n" not in err and "Traceback" not in err, err
        assert err.endswith("ryu10 answered HELLO with OpenFlow 1.0, not 1.3: use --of 1.0, or leave --of out to negotiate"), err
