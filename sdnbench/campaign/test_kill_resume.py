"""A real `sdnbench run` process killed mid-campaign (SIGKILL, then SIGTERM), then resumed.

Uses the synthetic kind so each cell takes a fraction of a second; the journal it writes counts
executions. The store must end with every cell exactly once, and resuming must not measure a
cell that was already committed.
"""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from sdnbench.proc import wait_until
from sdnbench.store import Store
from sdnbench.testing.sigterm_run import reaped, signalled

CELLS = 12


def _scenario(tmp: Path) -> Path:
    f = tmp / "kill.yaml"
    f.write_text(f"""\
name: kill test
seed: 11
repetitions: 3
benchmarks:
  - name: slow
    kind: synthetic
    params: {{seconds: 0.2, samples: 3, journal: "{tmp / 'journal.txt'}"}}
    matrix:
      value: [1, 2, 3, 4]
""")
    return f


def _start(args, tmp: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "sdnbench.testing.cli", *args], cwd=tmp,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _journal(tmp: Path) -> list:
    p = tmp / "journal.txt"
    return p.read_text().splitlines() if p.exists() else []


def _ok_cells(store_dir: Path) -> int:
    if not (store_dir / "results.sqlite").exists():
        return 0
    with Store(store_dir) as st:
        return sum(r.counts.get("ok", 0) for r in st.runs())


def test_sigkill_then_resume_keeps_each_cell_exactly_once(tmp_path):
    scen, store_dir = _scenario(tmp_path), tmp_path / "store"
    proc = _start(["run", str(scen), "--store", str(store_dir)], tmp_path)
    try:
        wait_until(lambda: _ok_cells(store_dir) >= 4, timeout=60, what="four committed cells")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    with Store(store_dir) as st:
        (run,) = st.runs()
        assert run.status == "running"                       # kill -9 left no chance to say more
        committed = {c.key for c in st.cells(run.id, "ok")}
        assert 4 <= len(committed) < CELLS
    lines_at_kill = len(_journal(tmp_path))

    # SIGTERM the resumed run too: it must stop cleanly (exit 143) and mark the run interrupted.
    proc = _start(["run", "--resume", "latest", "--store", str(store_dir)], tmp_path)
    with reaped(proc):
        wait_until(lambda: _ok_cells(store_dir) >= len(committed) + 2, timeout=60, what="two more cells")
        err = signalled(proc, signal.SIGTERM, 30)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "interrupted" in err and "Traceback" not in err
    with Store(store_dir) as st:
        assert st.run(1).status == "interrupted"

    done = subprocess.run([sys.executable, "-m", "sdnbench.testing.cli", "run", "--resume", "1", "--store",
                           str(store_dir)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"run 1 done: {CELLS} ok of {CELLS} cells" in done.stderr

    with Store(store_dir) as st:
        cells = st.cells(1)
        assert len(cells) == CELLS and len({c.key for c in cells}) == CELLS
        assert all(c.status == "ok" and c.result_id is not None for c in cells)
        per_cell = st.conn.execute("SELECT cell_id, count(*) FROM results GROUP BY cell_id").fetchall()
        assert len(per_cell) == CELLS and all(n == 1 for _, n in per_cell)
        assert st.run(1).status == "done"
        for _c, r in st.results(1):
            assert len(r.series[0].values) == 3

    # No committed cell was measured again after the kill; at most the killed cells were repeated.
    journal = _journal(tmp_path)
    later_starts = [json.loads(line.split(" ", 1)[1]) for line in journal[lines_at_kill:]
                    if line.startswith("start ")]
    starts = [line for line in journal if line.startswith("start ")]
    assert len(starts) <= CELLS + 2                      # one in progress at each of the two stops
    params_committed = [json.loads(k)["params"] for k in committed]
    # each value has 3 repetitions; a committed repetition is never measured again, so the later
    # starts of a value never exceed its uncommitted repetitions (+1 for the SIGTERM'd cell).
    for value in (1, 2, 3, 4):
        uncommitted = 3 - sum(1 for p in params_committed if p["value"] == value)
        again = sum(1 for p in later_starts if p["value"] == value)
        assert again <= uncommitted + 1, (value, uncommitted, again)
