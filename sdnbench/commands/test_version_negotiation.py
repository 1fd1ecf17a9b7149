"""Commands that talk to a controller agree on the OpenFlow version with it (issue 27, item 3),
against POX, which speaks OpenFlow 1.0 only (run from /opt/peers/pox, outside the repository):
without --of they measure at 1.0; with --of 1.3 they stop in one line naming --of."""

import json
import subprocess
import sys

POX = "cmd:python3 /opt/peers/pox/pox.py openflow.of_01 --port={port} forwarding.l2_learning;name=pox"


def _run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sdnbench", "controller", *args], capture_output=True, text=True,
                          timeout=120)


def test_provisioning_against_a_10_only_controller_without_of_measures_at_10():
    cp = _run("provisioning", "--controller", POX, "--flows", "10", "--reps", "1", "--json")
    assert cp.returncode == 0, cp.stderr
    [r] = json.loads(cp.stdout)
    assert r["params"]["of_version"] == "1.0" and r["counters"]["provisioned"] == 10


def test_a_forced_version_the_controller_lacks_is_one_line_naming_of():
    for cmd in (["discovery", "--verify", "southbound", "--topo", "linear,2", "--reps", "1", "--deadline-s", "3"],
                ["provisioning", "--flows", "5", "--reps", "1"], ["capacity", "--max", "2"]):
        cp = _run(*cmd, "--controller", POX, "--of", "1.3")
        assert cp.returncode == 1, (cmd, cp.stdout, cp.stderr)
        err = cp.stderr.strip()
        assert "\n" not in err and "Traceback" not in err, err
        assert err.endswith("pox answered HELLO with OpenFlow 1.0, not 1.3: use --of 1.0, or leave --of out to negotiate"), err
