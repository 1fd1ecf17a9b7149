"""Every repetition of every measuring command is kept as it ends (issue 49): ``net run``,
``switch bench``, ``switch conformance`` and ``controller robustness`` are plans on the
campaigns' executor, as ``controller bench`` is (``test_keep_on_interrupt.py``). SIGTERM after the
first repetition (or cell) keeps it: committed to ``--store`` (the run marked interrupted), in
``-o``, exit 143. With the real components: Mininet + Open vSwitch, the switch under test on
Open vSwitch, os-ken."""

import json
import signal

import pytest

from sdnbench.store.store import Store
from sdnbench.testing.sigterm_run import sigterm_after

SIGTERMED = 128 + signal.SIGTERM


def _stored(store) -> tuple:
    with Store(store, create=False) as s:
        [run] = s.runs()
        return run, s.cells(run.id)


def _kept(rc: int, err: str, store) -> list:
    """The run stopped by SIGTERM kept what finished: the cells stored ok, in order from 0."""
    assert rc == SIGTERMED, err
    assert "marked interrupted" in err and "interrupted; cleaned up" in err and "Traceback" not in err, err
    run, cells = _stored(store)
    assert run.status == "interrupted", run
    assert all(c.status == "ok" or "interrupted" in (c.error or "") for c in cells), cells
    return [c for c in cells if c.status == "ok"]


@pytest.mark.integration
def test_net_run_sigterm_in_the_second_repetition_keeps_the_first(tmp_path):
    store, out = tmp_path / "store", tmp_path / "out.json"
    rc, err = sigterm_after(["net", "run", "--topo", "single,2", "--controller", "standalone", "--ping-sizes", "64",
                             "--ping-count", "10", "--ping-interval", "0.1", "--reps", "3",
                             "--store", str(store), "-o", str(out)], store, ok=1, within_s=180, then_s=0.5)
    ok = _kept(rc, err, store)
    assert [c.repetition for c in ok] and [c.repetition for c in ok] == list(range(len(ok))) and len(ok) < 3, ok
    written = json.loads(out.read_text())
    rtt = [s for s in written["series"] if s["metric"] == "rtt"]
    assert {s["labels"]["rep"] for s in rtt} >= {0} and all(v is not None for v in rtt[0]["values"]), written
    assert written["status"] == "failed" and "interrupted" in written["error"], "the run as far as it went"


@pytest.mark.integration
def test_switch_bench_sigterm_in_the_second_test_keeps_the_first(tmp_path):
    """Each test is a cell (a session of its own against the one OVS bridge); stats runs 20 s a
    phase, so the signal lands inside it."""
    store, out = tmp_path / "store", tmp_path / "out.json"
    rc, err = sigterm_after(["switch", "bench", "--target", "ovs", "--test", "packet-in,stats", "--reps", "5",
                             "--duration", "20", "--store", str(store), "-o", str(out)], store, ok=1, within_s=180,
                            then_s=0.5)
    ok = _kept(rc, err, store)
    assert [c.benchmark for c in ok] == ["packet-in"], ok
    written = json.loads(out.read_text())
    assert written[0]["benchmark"] == "packet-in" and written[0]["status"] == "ok", written
    assert all(r["status"] == "failed" and "interrupted" in r["error"] for r in written[1:]), written


@pytest.mark.integration
def test_switch_conformance_sigterm_in_the_second_run_keeps_the_first(tmp_path):
    """Each run (a target and a version) is a cell: os-ken's switch test tool against OVS, the
    OpenFlow 1.0 run, then 1.3, stopped once the first is stored."""
    store, out = tmp_path / "store", tmp_path / "out.json"
    rc, err = sigterm_after(["switch", "conformance", "--target", "ovs", "--of", "1.0,1.3", "--only", "action/00_OUTPUT",
                             "--store", str(store), "-o", str(out)], store, ok=1, within_s=300, then_s=0.5)
    ok = _kept(rc, err, store)
    assert [c.params["of_version"] for c in ok] == ["1.0"], ok
    written = json.loads(out.read_text())
    assert written[0]["params"]["of_version"] == "1.0" and written[0]["counters"]["ok"] > 0, written
    assert all(r["status"] == "failed" and "interrupted" in r["error"] for r in written[1:]), written


@pytest.mark.integration
def test_controller_robustness_sigterm_in_the_second_repetition_keeps_the_first(tmp_path):
    """Each case and repetition is a cell (a fresh launch each repetition), against the scripted
    OpenFlow 1.3 controller the robustness known answers use (``robustness/testdata``)."""
    import sys
    from pathlib import Path
    scripted = Path(__file__).resolve().parents[1] / "robustness" / "testdata" / "scripted_view_of13.py"
    store, out = tmp_path / "store", tmp_path / "out.json"
    rc, err = sigterm_after(["controller", "robustness", "--controller", f"cmd:{sys.executable} {scripted} {{port}};name=steady",
                             "--cases", "unknown-type", "--reps", "3", "--store", str(store), "-o", str(out)],
                            store, ok=1, within_s=180, then_s=0.5)
    ok = _kept(rc, err, store)
    assert [c.repetition for c in ok] == list(range(len(ok))) and 1 <= len(ok) < 3, ok
    written = json.loads(out.read_text())
    assert written[0]["params"]["rep"] == 0 and written[0]["counters"]["robustness"]["case"] == "unknown-type", written


@pytest.mark.integration
def test_controller_exceptions_sigterm_after_the_first_run_keeps_it(tmp_path):
    """Each run (a variant in a repetition) is a cell, against the scripted controller."""
    from sdnbench.testing.peers.scripted_controller import ScriptedController
    store, out = tmp_path / "store", tmp_path / "out.json"
    with ScriptedController(version=4) as peer:
        rc, err = sigterm_after(["controller", "exceptions", "--controller", f"tcp:{peer.address}", "--reps", "2",
                                 "--loops", "3", "--loop-ms", "500", "--warmup", "0", "--switches", "2",
                                 "--store", str(store), "-o", str(out)], store, ok=1, within_s=120, then_s=0.5)
    ok = _kept(rc, err, store)
    assert ok[0].params["variant"] == "clean" and ok[0].repetition == 0 and len(ok) < 6, ok
    written = json.loads(out.read_text())
    assert written[0]["params"]["variant"] == "clean" and written[0]["status"] == "ok", written
