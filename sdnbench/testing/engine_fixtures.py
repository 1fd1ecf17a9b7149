"""Helpers shared by the engine's tests: a responder process, a direct engine run, and the bounds of
a known delay as a run on a busy machine reads it."""

from __future__ import annotations

import contextlib
import socket
import statistics
import sys
from pathlib import Path
from typing import Iterator

from sdnbench import paths
from sdnbench.controllers.ofhello import free_port
from sdnbench.proc import spawn, wait_until
from sdnbench.engine import driver
from sdnbench.engine.params import check, config, engine_args
from sdnbench.engine.result_types import engine_result


def _accepts(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def responder(of_version: str = "1.3", procs: int = 1, extra: tuple = ()) -> Iterator[str]:
    """The minimal responder (crates/responder) on a free port; yields HOST:PORT. ``extra``:
    its throttle flags (``--delay-us D``, ``--rate R``, ``--drop-one-in K``; crates/responder)."""
    port = free_port()
    r = spawn("sdnbench-responder", [str(paths.engine_binary("sdnbench-responder")), "--listen",
                                     f"127.0.0.1:{port}", "--of", of_version, "--procs", str(procs), *extra])
    try:
        wait_until(lambda: _accepts(port), 10, "the responder to listen")
        yield f"127.0.0.1:{port}"
    finally:
        r.stop()


# an engine that writes a broken document: the real one, its --json file then edited by ``edit``
# (Python statements on ``doc``); every other call (``check``) passes through untouched
_SHIM = """#!{python}
import json, subprocess, sys
rc = subprocess.call([{real!r}, *sys.argv[1:]])
if "--json" in sys.argv:
    path = sys.argv[sys.argv.index("--json") + 1]
    doc = json.load(open(path))
    {edit}
    json.dump(doc, open(path, "w"))
sys.exit(rc)
"""


def broken_engine(directory: Path, edit: str) -> Path:
    """An ``sdnbench-engine`` in ``directory`` (for ``$SDNBENCH_ENGINE``) that runs the real one
    and applies ``edit`` to the document it wrote: a schema the readers do not expect."""
    shim = directory / "sdnbench-engine"
    shim.write_text(_SHIM.format(python=sys.executable, real=str(paths.engine_binary()), edit=edit))
    shim.chmod(0o755)
    return shim


def run_doc(address: str, **params) -> dict:
    """One engine run straight against ``address`` (no controller launch); its JSON document."""
    p = check(dict(params, controller=f"tcp:{address}"))
    return driver.run(engine_args(p), config=config(p, address))


# the lowest value of a histogram bucket holding D, as a fraction of D (2 significant digits:
# 128 sub-buckets per power of two, so a bucket is at most 1/128 of its values wide)
HIST_FLOOR = 1 - 1 / 128


def scheduling_slack_us(doc: dict, late_s: list) -> float:
    """What a loaded machine may add to a median latency sample beyond the work itself, as this
    run recorded it (µs): the scripted peer's median lateness in answering (``late_s``: how late
    its timer fired) plus the engine's longest run-queue wait in one loop (``resources``: a
    bound on how long any one of its wake-ups waited for a CPU). Both near 0 on an idle machine,
    so an upper bound built on them stays tight there and moves only with measured lateness."""
    peer = statistics.median(late_s) if late_s else 0.0
    return peer * 1e6 + engine_longest_wait_ms(doc) * 1000


def engine_longest_wait_ms(doc) -> float:
    """The engine's longest run-queue wait in one loop (ms): ``resources``' largest
    ``run_delay_ms`` sample of its document or view ``doc``, a bound on how long any one of its
    wake-ups waited for a CPU."""
    return max((w for p in engine_result(doc).resources.processes for w in p.run_delay_ms), default=0.0)


def assert_reads_delay(lat: dict, d_us: float, floor_us: float) -> None:
    """The known answer of a peer that answers after exactly ``d_us``, read from a latency
    histogram (``lat``): no sample below D (less the histogram's precision: ``min`` is its bucket's
    lowest value, and a per-switch histogram keeps 2 significant digits, buckets under 1% wide),
    the fastest within ``floor_us`` of it, the median at least D. The fastest, not the median, carries the
    upper bound: one sample that no other process delayed is all it takes, so a busy machine
    hardly moves it, while an engine that adds a constant or scales what it reads moves every
    sample, the fastest too."""
    assert HIST_FLOOR * d_us <= lat["min"] <= d_us + floor_us, lat
    assert d_us <= lat["p50"], lat
