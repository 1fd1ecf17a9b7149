"""``cmd:`` controllers for real: a tiny OpenFlow 1.0 learning controller of our own
(``testdata/tiny_of10.py``) and os-ken given by its command line, with the managed lifecycle."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sdnbench.controllers import ControllerDied, launch, ofhello
from sdnbench.controllers.envs import bin_path
from sdnbench.proc import wait_until

pytestmark = pytest.mark.integration

TINY = Path(__file__).resolve().parent / "testdata" / "tiny_of10.py"
TINY_SPEC = f"cmd:{sys.executable} {TINY} {{port}};of=1.0;name=tiny-of10;version=1"
LAUNCHER = Path(__file__).resolve().parent / "apps" / "launcher.py"


def test_tiny_controller_is_benchmarked_with_cpu_samples():
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "bench",
                         "--controller", TINY_SPEC, "--of", "1.0", "--switches", "2",
                         "--loops", "2", "--reps", "1", "--warmup", "0", "--json"],
                        capture_output=True, text=True, timeout=120)
    assert cp.returncode == 0, cp.stderr
    doc = json.loads(cp.stdout)
    r = doc[0] if isinstance(doc, list) else doc
    assert r["status"] == "ok" and r["controller"]["name"] == "tiny-of10"
    assert r["controller"]["command"].endswith(f"tiny_of10.py {r['controller']['port']}")
    ctl = {s["metric"]: s for s in r["resources"] if s["labels"].get("role") == "controller"}
    assert ctl["cpu_percent"]["labels"]["pid"] == r["controller"]["pid"]
    assert max(ctl["cpu_percent"]["values"]) > 0 and min(ctl["rss_bytes"]["values"]) > 1 << 20


def test_killed_mid_run_is_reported_then_the_next_cell_starts_afresh(tmp_path):
    with pytest.raises(ControllerDied) as e:
        with launch(TINY_SPEC, of_version="1.0", log_dir=tmp_path) as ctl:
            first = ctl.pid
            os.kill(ctl.pid, signal.SIGKILL)
            wait_until(lambda: not ctl.alive(), 10, "the controller to die")
    msg = str(e.value)
    assert msg.startswith("controller cmd:") and "killed by signal 9" in msg
    assert "tiny_of10 listening on 127.0.0.1" in msg             # its log tail
    with launch(TINY_SPEC, of_version="1.0", log_dir=tmp_path) as again:   # the next cell
        assert again.pid != first and ofhello.probe(again.host, again.port, 1) == 1


def test_osken_app_given_by_its_command_line_stops_with_its_signal(tmp_path):
    spec = (f"cmd:{bin_path('osken')} {LAUNCHER} --ofp-listen-host {{host}} "
            "--ofp-tcp-listen-port {port} learning;of=1.0,1.3;name=os-ken-cmd;stop=INT;grace=5")
    with launch(spec, of_version="1.3", log_dir=tmp_path) as ctl:
        assert ofhello.probe(ctl.host, ctl.port, 4) == 4
        assert ctl.info["name"] == "os-ken-cmd"
        popen = ctl._tracked.popen
    assert popen.returncode == 0          # SIGINT was enough: no SIGKILL


def test_exits_at_once_gives_command_status_and_log(tmp_path):
    spec = f"cmd:{sys.executable} -c 'import sys; print(\"bad flag\"); sys.exit(3)' {{port}}"
    with pytest.raises(ControllerDied) as e:
        with launch(spec, log_dir=tmp_path):
            pass
    msg = str(e.value)
    assert "exited while starting, exit status 3" in msg and "bad flag" in msg
    assert msg.splitlines()[0].startswith("controller cmd:")


def test_never_listens_is_reported_with_its_log(tmp_path):
    spec = f"cmd:{sys.executable} -c 'import time; print(\"waiting\", flush=True); time.sleep(60)' {{port}}"
    with pytest.raises(ControllerDied) as e:
        with launch(spec, log_dir=tmp_path, timeout=2):
            pass
    assert "did not become ready" in str(e.value) and "waiting" in str(e.value)


def test_a_command_that_never_listens_is_refused_after_its_ready_limit(tmp_path):
    """``;ready=1``: one line naming the wait and how to set it, after about a second, not 60."""
    spec = f"cmd:{sys.executable} -c 'import time; time.sleep(60)' {{port}};ready=1"
    with pytest.raises(ControllerDied, match="timed out after 1s") as e:
        with launch(spec, of_version="1.0", log_dir=tmp_path):
            pass
    assert "ready=SECONDS" in str(e.value)
