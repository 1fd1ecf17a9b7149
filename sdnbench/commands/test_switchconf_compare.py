"""``switch conformance --compare`` takes what its help shows: ``--compare A B`` and repeated."""

import subprocess
import sys

from ..result import Result, write_json_atomic


def _write(path, target, tests):
    r = Result(kind="switch", benchmark="switch-conformance", params={"target": target, "of_version": "1.3"},
               topology={"tests": [list(t) for t in tests]}).finish()
    write_json_atomic(path, [r.to_dict()])


def test_compare_takes_files_after_one_flag_or_repeated(tmp_path):
    _write(tmp_path / "ovs.json", "ovs", [("action: 00_OUTPUT", "t1", "OK", ""), ("meter: 01", "t2", "OK", "")])
    _write(tmp_path / "cpqd.json", "cpqd", [("action: 00_OUTPUT", "t1", "OK", ""), ("meter: 01", "t3", "OK", "")])
    _write(tmp_path / "emu.json", "emulated", [("action: 00_OUTPUT", "t1", "OK", ""),
                                               ("meter: 01", "t2", "ERROR", "rate"), ("meter: 01", "t3", "OK", "")])
    base = [sys.executable, "-m", "sdnbench", "switch", "conformance"]
    files = [str(tmp_path / n) for n in ("ovs.json", "cpqd.json", "emu.json")]
    outs = []
    for argv in (["--compare", *files], ["--compare", files[0], "--compare", files[1], "--compare", files[2]]):
        cp = subprocess.run(base + argv, capture_output=True, text=True, timeout=60)
        assert cp.returncode == 0, cp.stderr
        outs.append(cp.stdout)
    assert outs[0] == outs[1]
    assert "OpenFlow 1.3: emulated against the union of ovs, cpqd" in outs[0]
    assert "1 tests OK on a reference and not on emulated (rate: 1):" in outs[0]
    assert "  meter: 01 / t2: ERROR (rate)  [OK on ovs]" in outs[0]
