"""The lab frame: what a build made is gone after it fails half-way, and a process the lab
started in a namespace is stopped with it (root; namespaces and veths of our own)."""

from pathlib import Path

import pytest

from sdnbench.testing.netlab import NetnsLab, free_octet, sh


class HalfBuilt(NetnsLab):
    KIND = "halfbuilt"

    def build(self):
        ns = f"{self.prefix}-x"
        self.add_netns(ns)
        self.veth_into(f"{self.prefix}v", ns, "eth0")
        self.address(ns, "eth0", f"10.{free_octet('10.{n}.')}.0.2/24")
        self.sleeper = self.spawn("sleeper", ["ip", "netns", "exec", ns, "sleep", "60"])
        raise RuntimeError("build failed here")


def test_a_failed_build_leaves_nothing():
    lab = HalfBuilt("hb")
    with pytest.raises(RuntimeError, match="build failed here"):
        with lab:
            pass
    assert lab.sleeper.poll() is not None
    assert not Path(f"/run/netns/{lab.prefix}-x").exists()
    assert not Path(f"/sys/class/net/{lab.prefix}v").exists()
    assert not lab.dir.exists()


def test_others_in_leaves_out_the_labs_own_processes():
    class One(NetnsLab):
        def build(self):
            self.add_netns(f"{self.prefix}-y")
            self.own = self.spawn("own", ["ip", "netns", "exec", f"{self.prefix}-y", "sleep", "60"])
            self.other = self.spawn("other", ["ip", "netns", "exec", f"{self.prefix}-y", "sleep", "61"])
            self.wait(lambda: len(sh("ip", "netns", "pids", f"{self.prefix}-y").stdout.split()) == 2, "sleeps")

    with One("oo") as lab:
        assert lab.others_in(f"{lab.prefix}-y", {lab.own.pid}) == [f"{lab.other.pid} sleep 61"]
    assert not Path(f"/run/netns/{lab.prefix}-y").exists()
