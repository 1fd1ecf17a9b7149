"""``sdnbench controller exceptions`` end to end, for real: the engine against a controller that
closes every session on an invalid packet-in (``testdata/fragile_of13.py``), whose switches
reconnect as Open vSwitch does; and against an OpenFlow 1.0-only controller, negotiated without
``--of`` and one line naming ``--of`` when forced to 1.3."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sdnbench.testing.peers.scripted_controller import ScriptedController

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
FRAGILE = Path(__file__).resolve().parent / "testdata" / "fragile_of13.py"
SHORT = ["--reps", "1", "--loops", "3", "--loop-ms", "1000", "--warmup", "0", "--switches", "2"]


def run_cli(*args, tmp_path):
    out = tmp_path / "r.json"
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "exceptions", *args, "-o", str(out)],
                        cwd=ROOT, capture_output=True, text=True, timeout=300)
    return cp, (json.loads(out.read_text()) if out.exists() else [])


def by_variant(rs):
    return {r["params"]["variant"]: r["counters"] for r in rs}


def test_a_controller_closing_on_invalid_packet_ins_costs_reconnections(tmp_path):
    spec = f"cmd:{sys.executable} {FRAGILE} {{port}};of=1.3;name=fragile"
    cp, rs = run_cli("--controller", spec, *SHORT, tmp_path=tmp_path)
    assert cp.returncode == 0, cp.stderr
    v = by_variant(rs)
    assert v["clean"]["sessions_lost"] == 0 and v["clean"]["reconnects"] == 0
    for name in ("1%", "2%"):
        c = v[name]
        # each switch loses its session at its first invalid packet-in and is back 1 s later
        # (OVS's first backoff), inside the 3 s run: at least one re-established per switch
        assert c["sessions_lost"] >= 2 and c["reconnects"] >= 2, c
        assert c["sessions_lost"] == c["reconnects"] + c["switches_down_at_stop"], c
        assert c["disconnected_ms"] >= 2 * 1000 * 0.9, c
    row = {w["variant"]: w for w in rs[0]["counters"]["exceptions_summary"]}
    assert row["1%"]["change"] < 0 and row["1%"]["drop"] == -row["1%"]["change"]
    table = cp.stdout
    assert "-" in table.split("1%", 1)[1].split("\n")[0] and "+100.0%" not in table, table
    assert rs[0]["params"]["of_session"] == "1.3"


def test_a_10_only_controller_is_negotiated_or_named_with_the_flag(tmp_path):
    with ScriptedController(version=1) as ctl:
        cp, rs = run_cli("--controller", f"tcp:{ctl.address}", *SHORT, tmp_path=tmp_path)
        assert cp.returncode == 0, cp.stderr
        assert {r["params"]["of_session"] for r in rs} == {"1.0"}
        assert by_variant(rs)["clean"]["requests_answered"] > 0
        cp, _ = run_cli("--controller", f"tcp:{ctl.address}", "--of", "1.3", *SHORT, tmp_path=tmp_path)
    assert cp.returncode == 1
    lines = cp.stderr.strip().splitlines()
    assert len(lines) == 1 and "--of 1.0" in lines[0], cp.stderr
