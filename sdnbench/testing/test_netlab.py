"""The lab frame: what a build made is gone after it fails half-way, and a process the lab
started in a namespace is stopped with it (root; namespaces and veths of our own)."""

import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from sdnbench.errors import Interrupted
from sdnbench.testing.netlab import NetnsLab, free_octet, run_command, sh, split_command


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


def test_a_labs_command_line_is_its_options_then_the_command():
    assert split_command(["--servers", "a", "--", "ping", "--", "x"]) == (["--servers", "a"], ["ping", "--", "x"])
    assert split_command(["star,3"]) == (["star,3"], [])


def test_the_command_gets_the_labs_names_and_its_status_is_returned(tmp_path, capsys):
    out = tmp_path / "out"
    script = f"echo {{servers}} {{lan}} {{other}} > {out}; exit 3"
    assert run_command(["sh", "-c", script], tmp_path / "f", {"servers": "s.yaml", "lan": "172.31.5.1"}) == 3
    assert out.read_text() == "s.yaml 172.31.5.1 {other}\n"
    (tmp_path / "f").write_text("servers: []\n")
    assert run_command([], tmp_path / "f", {}) == 0 and capsys.readouterr().out == "servers: []\n\n"


def test_an_interrupted_command_gets_sigint_and_is_waited_for(tmp_path):
    seen = tmp_path / "seen"
    ready = tmp_path / "ready"
    script = f"import signal, sys, time, pathlib\n" \
             f"signal.signal(signal.SIGINT, lambda *a: (pathlib.Path({str(seen)!r}).write_text('int'), sys.exit(5)))\n" \
             f"pathlib.Path({str(ready)!r}).touch()\ntime.sleep(60)\n"

    def interrupt():
        while not ready.exists():
            time.sleep(0.01)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGUSR1)

    def raise_interrupted(*_):
        raise Interrupted(signal.SIGTERM)

    previous = signal.signal(signal.SIGUSR1, raise_interrupted)
    try:
        threading.Thread(target=interrupt, daemon=True).start()
        with pytest.raises(Interrupted):
            run_command([sys.executable, "-c", script], tmp_path / "f", {})
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert seen.read_text() == "int"
