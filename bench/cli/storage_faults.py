#!/usr/bin/env python3
"""Write ``docs/storage-faults.md``: each storage fault made for real on a small tmpfs, each
command run against it, and what it said and kept (issue 49). Needs root (mount) and the built
engine (``controller bench`` runs against the minimal responder).

    sudo python3 bench/cli/storage_faults.py > docs/storage-faults.md

Paths in the lines are shown as ``DISK/st`` (the store) and ``FILE`` (a rescue file); pids as N.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from sdnbench.store import Store  # noqa: E402
from sdnbench.testing.engine_fixtures import responder  # noqa: E402
from sdnbench.testing.tmpfs import FILLING, damage, fill, read_only, tmpfs  # noqa: E402

SCENARIO = "name: s\nrepetitions: {reps}\nbenchmarks:\n  - kind: synthetic\n    params: {{value: 5, samples: {n}}}\n"
HOLD = ("import sqlite3, sys, time\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\nprint('held', flush=True)\ntime.sleep(600)\n")


def commands(d: Path, work: Path, address: str) -> dict:
    st = str(d / "st")
    bench = ["controller", "bench", "--controller", f"tcp:{address}", "--switches", "1", "--reps", "3",
             "--loops", "1", "--loop-ms", "300", "--warmup", "0"]
    return {
        "run": ["run", str(work / "big.yaml"), "--store", st],
        "controller bench --reps 3": [*bench, "--store", st],
        "results list": ["results", "list", "--store", st],
        "results export 1": ["results", "export", "1", "--store", st],
        "report 1": ["report", "1", "--store", st],
        "compare 1 1": ["compare", "1", "1", "--store", st],
        "results export 1 -o": ["results", "export", "1", "--store", str(work / "ok"), "-o", str(d / "x.csv")],
        "report 1 -o": ["report", "1", "--store", str(work / "ok"), "-o", str(d / "r.html")],
        "controller bench -o": [*bench, "-o", str(d / "out.json")],
    }


WRITES = ["run", "controller bench --reps 3"]
READS = ["results list", "results export 1", "report 1", "compare 1 1"]
OUTPUTS = ["results export 1 -o", "report 1 -o", "controller bench -o"]
FAULTS = [
    ("new store, full disk", "new", WRITES),
    ("full disk", "full", WRITES + READS + OUTPUTS),
    ("disk fills during the run", "fills", WRITES),
    ("read-only mount", "ro", WRITES + READS),
    ("read-only to the user (file and directory mode)", "mode", WRITES + READS),
    ("read-only to the user (file mode; directory theirs)", "filemode", WRITES + READS),
    ("locked by another process (> 30 s)", "locked", WRITES + READS[:1]),
    ("a damaged page", "page", WRITES + READS),
    ("truncated file", "truncated", WRITES + READS),
    ("not a database", "garbage", WRITES + READS),
]


def sdnbench(argv: list, user: bool, work: Path) -> subprocess.CompletedProcess:
    """The command in ``work``'s home (nobody's own with ``user``), where a rescue file may go."""
    home = work / ("home-nobody" if user else "home")
    env = dict(os.environ, PYTHONPATH=str(REPO), HOME=str(home))
    prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] if user else []
    return subprocess.run([*prefix, sys.executable, "-m", "sdnbench.testing.cli", *argv], capture_output=True,
                          text=True, env=env, cwd=str(home), timeout=300)


def case(work: Path, address: str, how: str, name: str) -> tuple:
    with tmpfs("4m") as d, contextlib.ExitStack() as stack:
        (work / "big.yaml").write_text(FILLING if how == "fills" else SCENARIO.format(reps=1, n=5))
        if how != "new":
            assert sdnbench(["run", str(work / "small.yaml"), "--store", str(d / "st")], False, work).returncode == 0
        db = d / "st" / "results.sqlite"
        if how in ("page", "truncated", "garbage"):
            damage(db, how)
        if how in ("new", "full"):
            fill(d)
        if how == "fills":
            fill(d, leave=300_000)
        if how == "filemode":
            os.chown(d / "st", 65534, 65534)
        if how == "ro":
            stack.enter_context(read_only(d))
        if how == "locked":
            holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdout=subprocess.PIPE, text=True)
            stack.callback(holder.wait)
            stack.callback(holder.kill)
            holder.stdout.readline()
        before = _digest(db)
        p = sdnbench(commands(d, work, address)[name], how in ("mode", "filemode"), work)
        return p.returncode, _line(p.stderr, d), _kept(d, db, before, p.stderr)


def _line(err: str, d: Path) -> str:
    lines = [ln for ln in err.splitlines() if ln.startswith("sdnbench: ")]
    if "Traceback" in err:
        return "TRACEBACK"
    text = lines[-1] if lines else "-"
    text = re.sub(r"(?<=[ `])(?!DISK/)/\S+\.(json|saved)\b", "FILE", text.replace(str(d), "DISK"))
    return re.sub(r"pid \d+", "pid N", text)


def _kept(d: Path, db: Path, before: str, err: str) -> str:
    said = []
    if before and _digest(db) == before:
        said.append("store unchanged")
    elif db.exists():
        try:
            with Store(d / "st", read_only=True) as s:
                said.append(", ".join(f"run {r.id} {r.status} ({r.counts.get('ok', 0)} ok)" for r in s.runs())
                            or "store with no run")
        except Exception as e:      # what the table reports, whatever it is
            said.append(f"store unreadable: {e}")
    rescued = re.findall(r"(?:the results? (?:is|are) in) (\S+)", err)
    if rescued:
        said.append("measurement in a rescue file")
    for f in rescued:                 # one outside the tmpfs and the work directory: not ours to keep
        with contextlib.suppress(OSError):
            Path(f).unlink()
    left = [p.name for p in d.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".reserve-")]
    said.append(f"{len(left)} temp file(s) left" if left else "no temp file")
    return "; ".join(said)


def _digest(p: Path) -> str:
    with contextlib.suppress(OSError):
        return hashlib.sha256(p.read_bytes()).hexdigest()
    return ""


def main() -> int:
    work = Path(os.environ.get("TMPDIR", "/tmp")) / f"sdnbench-storage-faults-{os.getpid()}"
    work.mkdir()
    (work / "small.yaml").write_text(SCENARIO.format(reps=1, n=5))
    (work / "ok").mkdir()
    (work / "home").mkdir()
    (work / "home-nobody").mkdir()
    os.chown(work / "home-nobody", 65534, 65534)
    rows: list = []          # [fault, [commands], exit, line, kept]: commands that did the same, one row
    try:
        assert sdnbench(["run", str(work / "small.yaml"), "--store", str(work / "ok")], False, work).returncode == 0
        with responder() as address:
            for fault, how, names in FAULTS:
                for name in names:
                    code, line, kept = case(work, address, how, name)
                    print(fault, name, code, line, kept, sep=" | ", file=sys.stderr)
                    if rows and rows[-1][0] == fault and rows[-1][2:] == [code, line, kept]:
                        rows[-1][1].append(name)
                    else:
                        rows.append([fault, [name], code, line, kept])
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    print(HEAD + "\n".join(f"| {f} | {', '.join(f'`{n}`' for n in names)} | {code} | {line.replace('|', '/')} | {kept} |"
                           for f, names, code, line, kept in rows) + "\n")
    return 0


HEAD = """# Storage faults

What each command does when its results store, or the disk under an output, fails: each fault
made for real on a 4 MiB tmpfs (`bench/cli/storage_faults.py` wrote this table; `sdnbench/store/
test_faults.py` checks the same). Exit 1: refused before anything was measured; 2: the run ended
on the fault, with what it had measured kept. The store (`sdnbench/store/faults.py`) tells the
faults apart; read commands open the store read-only; a writer keeps 64 KiB aside
(`store/reserve.py`) so that a run the disk fills under is still marked, never left `running`.

| fault | command | exit | line | kept |
|---|---|---|---|---|
"""

if __name__ == "__main__":
    sys.exit(main())
