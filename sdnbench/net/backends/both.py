"""One scenario on both backends: every ``net`` benchmark of a scenario run on Mininet (the
emulation) and on the hosts of an inventory over SSH (the real network), one after the other,
each with the benchmark's repetitions; the results feed ``gap.gap_rows``.

Each result is handed to ``keep`` as soon as it exists (the command stores it), so a run stopped
half-way keeps what it measured."""

from __future__ import annotations

from typing import Callable

from ...errors import UserError
from ..runner import run_net


def net_benchmarks(sc) -> list:
    """The scenario's net benchmarks; a benchmark with a matrix is refused (one cell each)."""
    benches = [b for b in sc.benchmarks if b.kind == "net"]
    if not benches:
        raise UserError(f"{sc.source}: no net benchmark to run on both backends")
    for b in benches:
        if b.matrix:
            raise UserError(f"{sc.source}: benchmark {b.name} has a matrix; the gap run takes "
                            "benchmarks with fixed params")
        if b.params.get("backend"):
            raise UserError(f"{sc.source}: benchmark {b.name} names its own backend; drop it")
    return benches


def run_both(sc, inventory: str, keep: Callable = lambda side, bench, result: None,
             progress: Callable[[str], None] = lambda s: None) -> dict:
    """``{"emulated": [Result], "real": [Result]}``; ``keep(side, benchmark, result)`` is called
    for each result right away."""
    out: dict = {"emulated": [], "real": []}
    for b in net_benchmarks(sc):
        for side, backend in (("emulated", "mininet"), ("real", f"ssh:{inventory}")):
            params = {**b.params, "reps": b.repetitions, "backend": backend}
            r = run_net(params, progress=lambda s, b=b, side=side: progress(f"{b.name} {side}: {s}"))
            r.notes.append(f"gap run of {sc.name}/{b.name}: {side} side ({backend})")
            out[side].append(r)
            keep(side, b, r)
    return out
