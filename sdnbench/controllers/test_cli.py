"""``sdnbench controllers`` as a user runs it: list is true of this machine, start runs in the
foreground until Ctrl-C and cleans up, bad input is one line with exit 1."""

import json
import os
import signal
import subprocess
import sys

import pytest

from sdnbench.controllers import envs, ofhello
from sdnbench.controllers.kinds.ovs_testcontroller import ovs_testcontroller_version
from sdnbench.proc import wait_until

pytestmark = pytest.mark.integration

CLI = [sys.executable, "-m", "sdnbench"]


def sdnbench(*args, timeout=120):
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=timeout)


def test_list_is_correct_on_this_machine():
    cp = sdnbench("controllers", "list", "--json")
    assert cp.returncode == 0, cp.stderr
    listed = json.loads(cp.stdout)
    rows = {r["spec"]: r for r in listed}
    for spec, env in (("osken:learning", "osken"), ("ryu:simple_switch_13", "ryu"),
                      ("faucet:CONFIG.yaml", "faucet")):
        assert rows[spec]["status"] == "installed"
        assert rows[spec]["version"] == envs.manifest(env)["version"]
    assert rows["osken:learning"]["version"] == "4.2.2" and rows["ryu:simple_switch_13"]["version"] == "4.34"
    assert rows["ovs-testcontroller"]["version"] == ovs_testcontroller_version()
    assert rows["osken:multitable"]["of_versions"] == ["1.3"]
    recipes = {r["controller"]: r for r in listed if r["spec"].startswith("cmd:")}
    assert set(recipes) == {"POX", "Floodlight", "ONOS", "OpenDaylight"}
    assert recipes["POX"]["status"] in ("set POX_DIR", "your copy", "installed")
    assert "${POX_DIR}" in recipes["POX"]["spec"]
    text = sdnbench("controllers", "list").stdout
    assert "osken:topology" in text and "tcp:HOST:PORT" in text


def test_install_is_idempotent():
    cp = sdnbench("controllers", "install", "osken")
    assert cp.returncode == 0 and "already installed" in cp.stdout


def test_start_runs_until_ctrl_c_and_cleans_up():
    port = ofhello.free_port()
    p = subprocess.Popen(CLI + ["controllers", "start", "osken:learning", "--port", str(port), "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        info = json.loads(_read_json(p.stdout))
        assert info["port"] == port and info["app"] == "learning"
        assert ofhello.probe("127.0.0.1", port, 4) == 4
        ctl_pid = info["pid"]
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
        assert p.returncode == 128 + signal.SIGINT and "interrupted; cleaned up" in err
        wait_until(lambda: not _alive(ctl_pid), 10, "the controller to exit")
        assert not ofhello.accepts("127.0.0.1", port, timeout=0.5)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def _read_json(stream) -> str:
    lines = []
    for line in stream:
        lines.append(line)
        if line.startswith("}"):
            return "".join(lines)
    raise AssertionError("no JSON from `controllers start`")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.mark.parametrize("args,needle", [
    (["controllers", "start", "osken:nosuch"], "unknown os-ken app"),
    (["controllers", "start", "tcp:127.0.0.1:6653"], "runs elsewhere"),
    (["controllers", "start", "osken:multitable", "--of", "1.0"], "speaks OpenFlow 1.3 only"),
    (["controllers", "install", "pox"], "invalid choice"),
])
def test_bad_input_is_one_line(args, needle):
    cp = sdnbench(*args)
    assert cp.returncode == 1
    assert needle in cp.stderr and len(cp.stderr.strip().splitlines()) == 1, cp.stderr
