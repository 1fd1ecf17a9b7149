"""``sdnbench controller robustness`` end to end, for real: the engine, a managed controller
process, restarts. Known answers from a deliberately fragile controller
(``testdata/fragile_of13.py``: crashes on type 0xee, stalls everyone 2.5 s on length 0, closes a
bad-version session), then a real os-ken app."""

import json
import os
import subprocess
import sys
from pathlib import Path

from sdnbench.robustness import runner

ROOT = Path(__file__).resolve().parents[2]
FRAGILE = Path(__file__).resolve().parent / "testdata" / "fragile_of13.py"
SCRIPTED = Path(__file__).resolve().parent / "testdata" / "scripted_view_of13.py"


def run_cli(*args, tmp_path):
    out = tmp_path / "r.json"
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "robustness", *args, "-o", str(out)],
                        cwd=ROOT, capture_output=True, text=True, timeout=300)
    return cp, (json.loads(out.read_text()) if out.exists() else [])


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def test_fragile_controller_crashed_rejected_hung_and_restarted(tmp_path):
    spec = f"cmd:{sys.executable} {FRAGILE} {{port}};of=1.3;name=fragile"
    cp, rs = run_cli("--controller", spec, "--cases", "unknown-type,bad-version,length-zero", "--reps", "1",
                     tmp_path=tmp_path)
    assert cp.returncode == 2, cp.stderr          # a crash/hang fails the measured check
    got = {r["counters"]["robustness"]["case"]: r["counters"]["robustness"] for r in rs}
    assert got["unknown-type"]["verdict"] == "crashed" and got["unknown-type"]["restarted"]
    assert got["bad-version"]["verdict"] == "rejected"
    assert got["bad-version"]["observation"]["closed_by_controller"][0] == "eof"
    assert got["length-zero"]["verdict"] == "hung" and got["length-zero"]["restarted"]
    pids = [r["controller"]["pid"] for r in rs]
    assert pids[0] != pids[1]                      # a new process after the crash
    assert not any(alive(p) for p in pids)         # nothing left behind
    assert "case" in cp.stdout and "fragile" in cp.stdout and FRAGILE.name not in cp.stdout + cp.stderr


def stable(rs: list) -> dict:
    """{case: the stable verdict over the repetitions} of a run's results."""
    return {r["counters"]["robustness"]["case"]: r["counters"]["robustness_stable"] for r in rs}


def test_known_answer_hangs_on_length_long_in_every_repetition(tmp_path):
    """A controller that stops answering everyone for 2.5 s when a packet-in's frame is longer
    than its total_len (``length-long``): hung in each of 3 repetitions, each a fresh launch."""
    spec = f"cmd:{sys.executable} {SCRIPTED} {{port}} --hang-on-long;name=hangs"
    cp, rs = run_cli("--controller", spec, "--cases", "length-long,unknown-type", tmp_path=tmp_path)
    assert cp.returncode == 2, cp.stderr
    got = stable(rs)
    assert got["length-long"]["verdict"] == "hung" and got["length-long"]["per_rep"] == ["hung"] * 3, got
    assert got["unknown-type"]["per_rep"] == ["ignored"] * 3      # the control case: it skips type 0xee
    assert len({r["controller"]["pid"] for r in rs}) >= 3            # a fresh launch per repetition
    for r in rs:
        assert r["counters"]["robustness"]["phases"]["before"] > 900, r["counters"]["robustness"]
        assert r["params"]["of_version"] == "1.3"                    # negotiated: no --of given
    assert "hung (3/3)" in cp.stdout and "hangs" in cp.stdout and SCRIPTED.name not in cp.stdout
    assert not any(alive(r["controller"]["pid"]) for r in rs)


def test_known_answer_view_re_learns_a_hijacked_host_and_takes_a_fabricated_link(tmp_path):
    """A controller whose host view follows a host's last ARP and whose topology view takes any
    LLDP: fooled by ``host-hijack`` and ``fabricated-lldp`` in every repetition; the evidence
    names what its view holds."""
    spec = (f"cmd:{sys.executable} {SCRIPTED} {{port}} --view {{http_port}};"
            f"http=http://{{host}}:{{http_port}}/v1/topology;name=gullible")
    cp, rs = run_cli("--controller", spec, "--cases", "host-hijack,fabricated-lldp", tmp_path=tmp_path)
    assert cp.returncode == 0, cp.stderr
    got = stable(rs)
    for case, seen in (("host-hijack", "view places host 00:00:00:00:00:01 on the attacker"),
                       ("fabricated-lldp", "view has the fabricated link 1:1 ↔ 5:1")):
        assert got[case]["verdict"] == "fooled" and got[case]["per_rep"] == ["fooled"] * 3, got[case]
        assert all(e.startswith(seen) for e in got[case]["evidence"]), got[case]["evidence"]
    assert "0/2 (0%)" in cp.stdout


def test_view_cases_are_not_applicable_without_a_view(tmp_path):
    """The same controller without its view: nothing to be fooled in, so "not applicable" with
    the reason, and no pass counted."""
    spec = f"cmd:{sys.executable} {SCRIPTED} {{port}};name=blind"
    cp, rs = run_cli("--controller", spec, "--cases", "host-hijack", "--reps", "1", tmp_path=tmp_path)
    assert cp.returncode == 0, cp.stderr
    (r,) = rs
    v = r["counters"]["robustness"]
    assert v["verdict"] == "not applicable" and v["evidence"].startswith("blind serves no topology or host view")
    assert "0/0" in cp.stdout


def test_osken_learning_two_cases(tmp_path):
    cp, rs = run_cli("--controller", "osken:learning", "--cases", "bad-version,unknown-type", "--reps", "1",
                     tmp_path=tmp_path)
    assert cp.returncode == 0, cp.stderr
    got = {r["counters"]["robustness"]["case"]: r["counters"]["robustness"] for r in rs}
    assert got["bad-version"]["verdict"] == "rejected", got["bad-version"]
    assert got["unknown-type"]["verdict"] in ("rejected", "ignored")
    for v in got.values():
        assert v["phases"]["before"] > 900        # the background was served before the case
    assert not any(alive(r["controller"]["pid"]) for r in rs)


def test_unknown_case_is_one_line(tmp_path):
    cp, _ = run_cli("--cases", "nope", tmp_path=tmp_path)
    assert cp.returncode == 1
    assert cp.stderr.strip().count("\n") == 0 and "known: bad-version" in cp.stderr


def test_faucet_is_measured_with_its_own_traffic(tmp_path):
    """Faucet answers only packet-ins its pipeline would raise: with the ``faucet`` traffic
    profile its background is served (at its own default rate) and a case gets a verdict."""
    cp, rs = run_cli("--controller", "faucet:auto", "--cases", "bad-version", "--reps", "1", tmp_path=tmp_path)
    assert cp.returncode == 0, cp.stderr
    (r,) = rs
    v = r["counters"]["robustness"]
    assert r["params"]["traffic"] == "faucet" and r["params"]["rate"] == runner.FAUCET_RATE
    assert v["phases"]["before"] > 0.9 * runner.FAUCET_RATE, v   # served before the case: measured
    assert v["verdict"] in ("rejected", "ignored"), v
    assert not alive(r["controller"]["pid"])


def test_dos_negotiates_repeats_and_prints_display_names(tmp_path):
    """``controller dos`` without --of against the fragile OF1.3 controller: each chosen attack
    run twice (a fresh launch each), a row per repetition, the stable verdict per attack, the
    flood's rate stated, the controller printed by its name only. (Two of the attacks: the
    connection flood's 24 s window is measured by the robustness known answers.)"""
    spec = f"cmd:{sys.executable} {FRAGILE} {{port}};of=1.3;name=fragile"
    out = tmp_path / "d.json"
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "dos", "--controller", spec,
                         "--cases", "no-hello,packet-in-flood", "--reps", "2", "-o", str(out)],
                        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert cp.returncode in (0, 2), cp.stderr
    rs = json.loads(out.read_text())
    assert [r["params"]["rep"] for r in rs] == [0] * 2 + [1] * 2
    assert [r["counters"]["robustness"]["case"] for r in rs] == ["no-hello", "packet-in-flood"] * 2
    assert {r["params"]["of_version"] for r in rs} == {"1.3"}
    assert len({r["controller"]["pid"] for r in rs}) >= 2
    flood = [r["counters"]["robustness"]["evidence"] for r in rs if r["counters"]["robustness"]["case"] == "packet-in-flood"]
    assert all("/s over 2.0 s)" in e for e in flood), flood
    rows = [ln for ln in cp.stdout.splitlines() if ln.startswith("fragile ")]
    assert len(rows) == 4 and str(FRAGILE) not in cp.stdout
    assert any(ln.startswith("fragile: no-hello ") for ln in cp.stdout.splitlines()), cp.stdout
    assert not any(alive(r["controller"]["pid"]) for r in rs)


def test_an_engine_document_the_schema_refuses_is_one_line_exit_3(tmp_path):
    """The engine's observation without a field the verdict reads (``robustness.started_s``): refused
    where the document is read (the typed view), one line naming the field, exit 3 (our bug, not
    the controller's doing), not a KeyError inside the verdict."""
    from sdnbench.testing.engine_fixtures import broken_engine
    shim = broken_engine(tmp_path, 'doc["robustness"].pop("started_s")')
    spec = f"cmd:{sys.executable} {SCRIPTED} {{port}};name=steady"
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "robustness", "--controller", spec,
                         "--cases", "unknown-type", "--reps", "1"], cwd=ROOT, capture_output=True, text=True,
                        timeout=300, env=dict(os.environ, SDNBENCH_ENGINE=str(shim)))
    assert cp.returncode == 3, cp.stderr
    lines = cp.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in cp.stderr, cp.stderr
    assert "robustness.started_s: missing (required by the schema)" in lines[0], lines[0]
