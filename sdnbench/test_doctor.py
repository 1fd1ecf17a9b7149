"""``doctor`` on this very machine: real probes, no mocks."""

import json
import subprocess
import sys

import pytest

from sdnbench import doctor
from sdnbench.errors import UserError

pytestmark = pytest.mark.integration


def test_ovs_datapath_detected():
    c = doctor.check_ovs()
    assert c.status in (doctor.OK, doctor.WARN)
    kernel_module = c.data["kernel_module"]
    assert c.data["datapath"] == ("kernel" if kernel_module else "user")
    if not kernel_module:
        assert "userspace datapath" in c.detail


def test_qdisc_probe_matches_kernel_and_leaves_nothing():
    before = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    c = doctor.check_qdiscs()
    assert c.data["qdiscs"]["htb"] is True
    if not c.data["qdiscs"]["netem"]:
        assert c.status == doctor.WARN and "netem is missing" in c.detail and "delay" in c.detail
    after = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert before == after


def test_require_refuses_in_one_line(monkeypatch):
    monkeypatch.setitem(doctor.CHECKS, "iperf3",
                        lambda: doctor.Check("iperf3", doctor.FAIL, "iperf3 not found", "apt-get install iperf3"))
    with pytest.raises(UserError) as e:
        doctor.require("iperf3")
    assert "\n" not in str(e.value) and "apt-get install iperf3" in str(e.value)


def test_doctor_json_lists_every_check():
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "doctor", "--json"], capture_output=True, text=True)
    data = json.loads(cp.stdout)
    names = {c["name"] for c in data}
    assert {"root", "netns", "ovs", "tc", "iperf3", "ditg", "tcpdump", "ping", "engine", "fd-limit"} <= names
    for c in data:
        assert c["status"] in ("ok", "warn", "fail")
        if c["status"] == "fail":
            assert c["fix"], c
    assert cp.returncode == (1 if any(c["status"] == "fail" for c in data) else 0)
