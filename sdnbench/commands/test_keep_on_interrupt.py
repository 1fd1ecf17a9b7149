"""Nothing measured is lost (issue 40): ``controller bench --reps 3 --store DIR -o FILE`` stopped
by Ctrl-C after its first repetition keeps that repetition, in the store (the run marked
``interrupted``) and in the file; the repetition cut short is stored as failed ("interrupted:
partial results"), never as a measurement. Against the minimal responder (crates/responder)."""

import json
import signal
import subprocess
import sys
import time

from sdnbench.testing.engine_fixtures import responder
from sdnbench.store.store import Store


def test_ctrl_c_after_the_first_repetition_keeps_it_stored_and_written(tmp_path):
    store, out = tmp_path / "store", tmp_path / "out.json"
    with responder() as address:
        p = subprocess.Popen([sys.executable, "-m", "sdnbench", "controller", "bench", "--controller",
                              f"tcp:{address}", "--switches", "1", "--reps", "3", "--loops", "3", "--loop-ms", "1000",
                              "--store", str(store), "-o", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and p.poll() is None and not _stored(store):
                time.sleep(0.2)
            time.sleep(1.0)                      # well inside the second repetition
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
    assert p.returncode == 130, err
    assert "result(s) kept in run 1" in err and "marked interrupted" in err, err
    with Store(store, create=False) as s:
        [run] = s.runs()
        assert run.status == "interrupted"
        cells = s.cells(run.id)
        ok = [c for c in cells if c.status == "ok"]
        assert len(ok) == 1 and ok[0].repetition == 0, cells
        assert all(c.status == "ok" or "interrupted" in (c.error or "") for c in cells), cells
    written = json.loads(out.read_text())
    assert written[0]["status"] == "ok" and written[0]["params"]["rep"] == 0


def _stored(store) -> bool:
    """The store holds a finished result (the first repetition ended)."""
    if not (store / "results.sqlite").exists():
        return False
    with Store(store, create=False) as s:
        return any(c.status == "ok" for r in s.runs() for c in s.cells(r.id))
