"""`bench.py copy`: the kernel's cost per byte of receiving into a buffer at an offset in a page
(copycost.c, built with the machine's C compiler at run time, never committed as a binary).

The engine's reads land on a 64-byte line (`crates/engine/src/switch/shared.rs`, `read_at`).
Its read buffer used to start 16 bytes into a page, and on the `AMD EPYC` measured here the
profile put 36% of the engine's CPU in the kernel's copy to user space (`_copy_to_iter`) against
15% of cbench's for the same bytes (docs/engine-figures.md, "The kernel's copy, aligned"). This
prints that property of a machine: system ns per byte received with the destination at each
offset of its page, the socket's data at offset 0 of theirs, and each offset's median over the
aligned one's. Measured here: 8 and 16 bytes cost about 3 times 0, 64 or 2,064. The offsets
alternate in order from rep to rep.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

OFFSETS = (0, 8, 16, 32, 64, 2048, 2064)
CHUNK = 81_920          # the engine's read at 16 switches and a window of 1,024 80-byte flow-mods


def build(d: str) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise SystemExit("copy: no C compiler (cc) on PATH")
    exe = Path(d) / "copycost"
    if subprocess.run([cc, "-O2", "-o", str(exe), str(Path(__file__).with_name("copycost.c"))], capture_output=True).returncode:
        raise SystemExit("copy: copycost.c does not build")
    return exe


def one(exe: Path, offset: int, chunk: int, mib: int) -> dict:
    cp = subprocess.run([str(exe), str(offset), str(chunk), str(mib)], capture_output=True, text=True, timeout=300)
    if cp.returncode:
        raise SystemExit(f"copy: copycost {offset} {chunk} {mib} failed ({cp.returncode}): {cp.stderr.strip()[-200:]}")
    return json.loads(cp.stdout)


def summarize(rows: dict) -> dict:
    """rows: offset -> [copycost's JSON lines]. Per offset the system ns per byte of every rep,
    their median, and the median over the aligned offset's (0)."""
    per = {o: [1e9 * r["sys_s"] / r["bytes"] for r in v] for o, v in rows.items()}
    med = {o: statistics.median(v) for o, v in per.items()}
    return {"figure": "system ns per byte received, by the destination's offset in its page (the source's is 0)",
            "sys_ns_per_byte": {str(o): v for o, v in per.items()}, "median": {str(o): m for o, m in med.items()},
            "over_aligned": {str(o): m / med[0] for o, m in med.items()} if med.get(0) else {}}


def run(offsets=OFFSETS, chunk: int = CHUNK, mib: int = 2000, reps: int = 3) -> dict:
    rows = {o: [] for o in offsets}
    with tempfile.TemporaryDirectory() as d:
        exe = build(d)
        for rep in range(reps):
            for o in (offsets if rep % 2 == 0 else offsets[::-1]):
                rows[o].append(one(exe, o, chunk, mib))
    return {**summarize(rows), "chunk": chunk, "mib": mib, "raw": {str(o): v for o, v in rows.items()}}
