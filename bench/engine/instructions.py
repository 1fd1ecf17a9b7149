"""`bench.py instructions`: user-space instructions per answered request, engine against cbench.

This machine's CPU counters are not reachable (a Firecracker VM: `perf stat` reads cycles and
instructions as `<not supported>`), so cycles cannot be measured here. Instructions can:
valgrind's cachegrind (`--cache-sim=no`) counts every instruction a process executes in user
space (Ir), exactly, the process's children included. It does not see the kernel: the work of
the syscalls (TCP, copies, wake-ups), 60-70% of either tool's CPU time here, is not in these
counts (`bench.py efficiency` measures that side, in CPU time).

Both tools run the same short fixed workload (N switches, throughput mode, the same loops)
against the same responder, one after the other. Each count covers the whole process (start,
handshakes, every loop) and is divided by the requests the tool itself reports answered over
all its loops (the engine's `requests_answered`; cbench's per-loop totals, warm-up loop
included). Under valgrind a tool answers 4-6x fewer requests per second than natively and
reads bigger batches per wake: the per-answer count is the instructions of the request/answer
path itself, which batching changes little.
"""

from __future__ import annotations

import re
from pathlib import Path

VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes"]


def ir_of(text: str) -> int:
    """The Ir total of one cachegrind output file: the `summary:` line's column under `events:`."""
    events = re.search(r"^events:\s*(.+)$", text, re.M)
    summary = re.search(r"^summary:\s*(.+)$", text, re.M)
    if not events or not summary:
        raise ValueError("not a cachegrind output file (no events: or summary: line)")
    names, values = events.group(1).split(), summary.group(1).split()
    if "Ir" not in names or len(values) != len(names):
        raise ValueError(f"cachegrind summary without an Ir count: events {names}, summary {values}")
    return int(values[names.index("Ir")])


def total_ir(out_dir: Path) -> int:
    """Ir over every process of one run (one `cg.<pid>` file each, `--trace-children=yes`)."""
    files = sorted(out_dir.glob("cg.*"))
    if not files:
        raise ValueError(f"no cachegrind output in {out_dir}")
    return sum(ir_of(f.read_text()) for f in files)


def wrap(argv: list, out_dir: Path) -> list:
    """argv run under cachegrind, writing one file per process into out_dir."""
    return [*VALGRIND, f"--cachegrind-out-file={out_dir}/cg.%p", f"--log-file={out_dir}/valgrind.%p.log", *argv]


def row(ir: int, answered: float) -> dict:
    return {"instructions": ir, "answered": answered,
            "instructions_per_answered": ir / answered if answered else None}


def summarize(rows: dict) -> dict:
    """Rows by tool name -> the figure, with engine/cbench and engine/baseline ratios."""
    per = {k: v["instructions_per_answered"] for k, v in rows.items()}
    s = {"figure": "user-space instructions (valgrind cachegrind Ir, whole process) per answered request; "
                   "kernel work not counted; cycles not measurable on this VM",
         "rows": rows, "instructions_per_answered": per}
    for other in ("cbench", "engine-baseline"):
        if per.get("engine") and per.get(other):
            s[f"ratio_engine_over_{other.replace('-', '_')}"] = per["engine"] / per[other]
    return s
