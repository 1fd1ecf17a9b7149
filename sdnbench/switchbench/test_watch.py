"""How a dead switch is told: the exit status or signal, OVS's monitor line, CPqD's datapath id."""

import signal
import subprocess

import pytest

from .. import proc
from ..errors import UserError
from .cpqd import dpid_arg
from .watch import ChildWatch, DaemonWatch, ended, monitor_verdict


def test_how_a_child_ended():
    assert ended(-9) == "killed by SIGKILL (9)"
    assert ended(-11) == "killed by SIGSEGV (11)"
    assert ended(2) == "exited with status 2"


def test_a_child_killed_by_a_signal_is_named_with_its_output(tmp_path):
    t = proc.spawn("sleeper", ["sh", "-c", "echo about to sleep; exec sleep 30"], log_path=tmp_path / "s.log")
    w = ChildWatch(t)
    proc.wait_until(lambda: (tmp_path / "s.log").read_text().strip() != "", 5, "the child's first line")
    assert w.dead() is None
    t.popen.send_signal(signal.SIGSEGV)
    t.popen.wait(5)
    assert w.dead() == f"sleeper (pid {t.pid}) killed by SIGSEGV (11); its output ({tmp_path / 's.log'}): about to sleep"
    t.stop()


def test_ovs_monitor_line_names_the_signal():
    log = ("2026-11-28T04:00:00Z|00001|daemon_unix(monitor)|ERR|1 crashes: pid 4242 died, killed (Killed), restarting\n"
           "2026-11-28T04:00:01Z|00002|daemon_unix(monitor)|ERR|2 crashes: pid 4300 died, killed (Segmentation fault), "
           "core dumped, restarting\n")
    assert monitor_verdict(log, 4242) == "killed (Killed)"
    assert monitor_verdict(log, 4300) == "killed (Segmentation fault)"
    assert monitor_verdict(log, 1) is None


def test_a_daemon_found_by_its_pidfile(tmp_path):
    p = subprocess.Popen(["sleep", "30"])
    (tmp_path / "sleep.pid").write_text(f"{p.pid}\n")
    (tmp_path / "sleep.log").write_text("old line\n")
    w = DaemonWatch("sleep", tmp_path / "sleep.pid", tmp_path / "sleep.log")
    assert w.dead() is None
    p.kill()
    p.wait()
    with open(tmp_path / "sleep.log", "a") as f:
        f.write(f"monitor|ERR|1 crashes: pid {p.pid} died, killed (Killed), restarting\n")
    assert w.dead().startswith(f"sleep (pid {p.pid}) died, killed (Killed); its log ")


def test_cpqd_datapath_id_is_twelve_base_12_digits():
    # ofdatapath: strlen(optarg) == 12, strtoll(optarg, NULL, 12)
    for dpid in (1, 2, 11, 12, 0xAA, 12 ** 12 - 1):
        arg = dpid_arg(dpid)
        assert len(arg) == 12 and set(arg) <= set("0123456789abcdefABCDEF") and int(arg, 12) == dpid
    assert dpid_arg(1) == "000000000001"
    for bad in (0, 12 ** 12):
        with pytest.raises(UserError):
            dpid_arg(bad)
