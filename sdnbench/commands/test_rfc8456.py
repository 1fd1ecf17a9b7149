"""``sdnbench rfc8456``: bad input stops with one line before anything runs; a real quick
evaluation of a subset (two managed controllers, the load engine) stores its trials and writes
the report in every format; a finished run resumes to nothing and re-reports."""

import json
import subprocess
import sys

import pytest

from sdnbench.cli import main
from sdnbench.paths import REPO


@pytest.mark.parametrize("argv,msg", [
    (["--only", "warp-speed"], "--only: unknown test 'warp-speed'"),
    (["-o", "report.pdf"], "-o report.pdf: cannot tell the format from the extension; name a file ending in "
                           ".html, .md, .json"),
    (["--controller", "nox:switch"], "unknown controller spec 'nox:switch'"),
    (["--controller", "osken:learning", "--controller", "osken:learning"], "given twice"),
    (["--check", "-o", "r.md"], "--check renders the HTML report"),
    (["--report", "latest"], ""),
    (["--api", "floodlight"], "--api and --api-url go together"),
    (["--api", "nox", "--api-url", "http://127.0.0.1:8080"], "unknown northbound API 'nox'"),
    (["--api", "floodlight", "--api-url", "http://10.0.0.1:8080"], "on 127.0.0.0/8"),
])
def test_bad_input_is_one_line_and_exit_1(argv, msg, tmp_path, capsys):
    assert main(["rfc8456", "--store", str(tmp_path / "none"), *argv]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and msg in err and "Traceback" not in err


def test_list_shows_the_plan_and_what_cannot_apply(capsys):
    assert main(["rfc8456", "--controller", "ovs-testcontroller", "--list"]) == 0
    out = capsys.readouterr().out
    assert "§5.1.3" in out and "not applicable" in out and "no northbound API" in out


@pytest.mark.integration
def test_quick_subset_against_two_managed_controllers(tmp_path):
    store, html, js = tmp_path / "store", tmp_path / "rfc.html", tmp_path / "rfc.json"
    cmd = [sys.executable, "-m", "sdnbench", "rfc8456", "--quick", "--only", "async-rate,sessions,failover",
           "--controller", "osken:learning", "--controller", "ryu:simple_switch_13", "--store", str(store)]
    cp = subprocess.run(cmd + ["-o", str(html), "--check"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert cp.returncode == 0, cp.stderr[-3000:]
    assert "run 1: 15 ok of 15 trials" in cp.stderr and html.with_suffix(".png").stat().st_size > 10_000
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "rfc8456", "--resume", "latest", "--store", str(store),
                         "-o", str(js)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert cp.returncode == 0 and "nothing to resume" in cp.stderr, cp.stderr[-2000:]
    doc = json.loads(js.read_text())
    cells = {(c["test"], c["controller"]): c for c in doc["cells"]}
    for ctl in ("osken:learning", "ryu:simple_switch_13"):
        rate = cells[("async-rate", ctl)]
        assert [t["status"] for t in rate["trials"]] == ["ok"] * 3
        assert rate["figures"][0]["n"] == 3 and rate["figures"][0]["mean"] > 100      # answered/s
        assert cells[("sessions", ctl)]["figures"][0]["mean"] == 200                   # every session offered
    assert cells[("failover", "osken:learning")]["trials"][0]["detail"].startswith("taken over")
    assert cells[("failover", "ryu:simple_switch_13")]["status"] == "not applicable"
    glance = doc["sections"][0]
    assert glance["title"] == "Headline" and len(glance["tables"][0]["rows"]) == 4   # rate, sessions, 2 failover
