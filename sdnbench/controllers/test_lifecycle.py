"""Launch, readiness, stop and failure reporting with real controllers (no network needed)."""

import json
import os
import signal
import socket
import subprocess

import psutil
import pytest

from sdnbench.controllers import ControllerDied, launch, ofhello
from sdnbench.errors import Interrupted, UserError
from sdnbench.proc import wait_until
from sdnbench.result import Result

pytestmark = pytest.mark.integration


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _group_empty(pgid: int) -> bool:
    for p in psutil.process_iter(["pid"]):
        try:
            if os.getpgid(p.info["pid"]) == pgid and not _gone(p.info["pid"]):
                return False
        except (ProcessLookupError, psutil.Error):
            continue
    return True


@pytest.mark.parametrize("spec", ["osken:learning", "ovs-testcontroller", "ryu:simple_switch_13"])
def test_ready_means_it_answers_hello_and_stop_ends_the_group(spec, tmp_path):
    port = ofhello.free_port()
    with launch(spec, port=port, log_dir=tmp_path) as ctl:
        assert (ctl.host, ctl.port) == ("127.0.0.1", port)
        assert ofhello.probe(ctl.host, ctl.port, 4) is not None
        info = ctl.info
        assert info["spec"] == spec and info["of_version"] == "1.3" and info["pid"] == ctl.pid
        assert info["version"] and info["name"] in ("os-ken", "ovs-testcontroller", "ryu")
        assert info["log"].startswith(str(tmp_path))
        # Bound to loopback only: every listening socket of the tree is on 127.0.0.1.
        listening = [c.laddr for p in [psutil.Process(ctl.pid)] + psutil.Process(ctl.pid).children(True)
                     for c in p.net_connections("inet") if c.status == psutil.CONN_LISTEN]
        assert listening and all(a.ip == "127.0.0.1" for a in listening), listening
        ctl.check_alive()
        pid = ctl.pid
        popen = ctl._tracked.popen
    assert _gone(pid) and _group_empty(pid)
    # SIGTERM was enough: the stop did not have to escalate to SIGKILL (the os-ken launcher
    # used to hang on its native threads at exit).
    assert popen.returncode != -signal.SIGKILL
    if spec.startswith("osken:"):
        assert popen.returncode == 0
    assert not ofhello.accepts("127.0.0.1", port, timeout=0.5)


def test_version_and_app_are_recorded():
    with launch("osken:passthrough", of_version="1.0") as ctl:
        assert ctl.info["name"] == "os-ken" and ctl.info["version"].startswith("4.")
        assert ctl.info["app"] == "passthrough" and ctl.info["of_version"] == "1.0"
        assert ofhello.probe(ctl.host, ctl.port, 1) == 1          # offers 1.0 only


def test_a_taken_port_is_refused():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        with pytest.raises(UserError, match="already in use"):
            with launch("osken:learning", port=s.getsockname()[1]):
                pass


def test_dying_at_start_reports_the_log_tail():
    with pytest.raises(ControllerDied) as e:
        with launch("ryu:no_such_app_module"):
            pass
    msg = str(e.value)
    assert msg.startswith("controller ryu:no_such_app_module (pid ")
    assert "exited while starting" in msg and "no_such_app_module" in e.value.tail


def test_killed_mid_run_is_reported_with_its_log_and_nothing_is_left(tmp_path):
    with pytest.raises(ControllerDied) as e:
        with launch("osken:learning", log_dir=tmp_path) as ctl:
            pid = ctl.pid
            os.kill(pid, signal.SIGKILL)
            wait_until(lambda: not ctl.alive(), 10, "the controller to die")
            with pytest.raises(ControllerDied):
                ctl.check_alive()
            raise RuntimeError("a ping timed out")      # what the network layer would see
    msg = str(e.value)
    assert "controller osken:learning" in msg and "killed by signal 9" in msg
    assert "sdnbench launcher: apps learning" in msg               # its last log lines
    assert isinstance(e.value.__cause__, RuntimeError)             # the symptom stays attached
    assert _gone(pid) and _group_empty(pid)


def test_interrupt_stops_the_controller():
    with pytest.raises(Interrupted):
        with launch("osken:hub") as ctl:
            pid = ctl.pid
            raise Interrupted(signal.SIGTERM)
    assert _gone(pid) and _group_empty(pid)


def test_tcp_attaches_without_owning_the_process():
    with launch("ovs-testcontroller") as real:
        with launch(f"tcp:127.0.0.1:{real.port}") as ext:
            assert ext.pid is None and ext.info["name"] == "external"
            ext.check_alive()
            with ext.sample_resources(0.1) as s:
                pass
            assert s.series() == []
        assert real.alive()                                      # leaving tcp: stops nothing


def test_tcp_to_nothing_is_a_user_error():
    port = ofhello.free_port()
    with pytest.raises(UserError, match="no OpenFlow controller answering"):
        with launch(f"tcp:127.0.0.1:{port}", timeout=1.0):
            pass


def test_resources_of_a_running_controller():
    with launch("osken:learning") as ctl:
        with ctl.sample_resources(0.05) as s:
            wait_until(lambda: len(s.series()[0].values) >= 3, 20, "three samples")
        result = Result(kind="net", benchmark="ping")
        ctl.record(result, s)
    assert result.controller["spec"] == "osken:learning" and result.controller["pid"] == ctl.pid
    series = {x.metric: x for x in result.resources}
    assert set(series) == {"cpu_percent", "rss_bytes", "threads"}
    assert series["rss_bytes"].values[0] > 10_000_000          # a Python interpreter with os-ken
    assert min(series["threads"].values) >= 1
    assert all(v >= 0 for v in series["cpu_percent"].values)
    assert Result.from_dict(json.loads(json.dumps(result.to_dict()))).resources == result.resources


def test_a_death_the_caller_handled_is_not_raised_again():
    with launch("osken:learning") as ctl:
        os.kill(ctl.pid, signal.SIGKILL)
        wait_until(lambda: not ctl.alive(), 10, "the controller to die")
        with pytest.raises(ControllerDied):
            ctl.check_alive()
        # the caller recorded a failed result and carries on: leaving the block is quiet
    assert not ctl.alive()


def test_an_unnoticed_death_is_raised_on_exit():
    with pytest.raises(ControllerDied, match="died during the run"):
        with launch("osken:learning") as ctl:
            os.kill(ctl.pid, signal.SIGKILL)
            wait_until(lambda: not ctl.alive(), 10, "the controller to die")


def test_old_logs_are_pruned(tmp_path):
    from sdnbench.controllers.lifecycle import _prune_logs
    for i in range(5):
        p = tmp_path / f"c{i}.log"
        p.write_text("x")
        os.utime(p, (1000 + i, 1000 + i))
    (tmp_path / "keep.yaml").write_text("not a log")
    _prune_logs(tmp_path, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c3.log", "c4.log", "keep.yaml"]


def test_startup_bench_reports_raw_samples_and_ratios(capsys):
    from sdnbench.controllers import startup_bench
    assert startup_bench.main(["--runs", "2", "--json", "ovs-testcontroller"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["spec"] for r in rows] == ["ovs-testcontroller"]
    assert len(rows[0]["samples_s"]) == 2 and rows[0]["ratio_vs_baseline"] == 1.0


def test_listens_checks_the_owner_of_the_port():
    from sdnbench.controllers.lifecycle import _listens
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        assert _listens(os.getpid(), port)
        other = subprocess.Popen(["sleep", "30"])
        try:
            assert not _listens(other.pid, port)         # somebody else's listener is not ours
        finally:
            other.kill()
            other.wait()
    assert not _listens(os.getpid(), port)


def test_faucet_auto_needs_a_topology():
    with pytest.raises(UserError, match="no topology was given"):
        with launch("faucet:auto"):
            pass
