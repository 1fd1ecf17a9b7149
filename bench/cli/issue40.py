"""Re-run the bad inputs of issue 40 (classes: tracebacks, exit 0 on bad input, the user's errors
blamed on the run, late refusals, unclear lines) through the installed binaries and print the
docs/cli.md table: exit code, wall time, the line printed. Exit 1 if one is not refused with
exit 1 and one line, or shows a traceback or a panic.

    .venv/bin/python bench/cli/issue40.py            # the markdown table on stdout
"""

from __future__ import annotations

import shlex
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]
ENGINE = str(REPO / "target" / "release" / "sdnbench-engine")
SCENARIO = "name: s\nbenchmarks:\n  - kind: controller\n    params: {mode: throughput}\n"
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi")) + SCENARIO

# (class, command): D is a scratch directory, FREE a port nothing listens on, ENGINE the engine
CASES = [
    ("traceback", "sdnbench results list --store D/corrupt"),
    ("traceback", "sdnbench results show 1 --store D/corrupt"),
    ("traceback", "sdnbench report 1 --store D/corrupt"),
    ("traceback", "sdnbench compare 1 2 --store D/corrupt"),
    ("traceback", "sdnbench run D/s.yaml --store D/corrupt"),
    ("traceback", "sdnbench rfc8456 --report 1 --store D/corrupt"),
    ("traceback", "sdnbench controller bench --store D/corrupt"),
    ("traceback", "sdnbench controller bench -o /proc/x/out.json"),
    ("traceback", "sdnbench rfc8456 -o /proc/x/out.json"),
    ("traceback", "sdnbench switch bench -o /proc/x/out.json"),
    ("traceback", "sdnbench report D/s.json -o /proc/x/out.md"),
    ("traceback", "sdnbench conformance -o /proc/x/out.json"),
    ("traceback", "sdnbench report D/binary.json"),
    ("traceback", "sdnbench run D/bomb.yaml --dry-run"),
    ("traceback", "sh -c 'ENGINE schema >/dev/full'"),
    ("traceback", "bash -c 'set -o pipefail; ENGINE schema | head -c 10 >/dev/null'"),
    ("exit 0", "sdnbench rfc8456 --only , --list"),
    ("exit 0", "sdnbench rfc8456 --only ,"),
    ("exit 0", "sdnbench conformance --of 2.0"),
    ("exit 0", "sdnbench conformance --of ,"),
    ("exit 0", "sdnbench run D/dup.yaml --dry-run"),
    ("exit 0", "ENGINE schema --bogus"),
    ("exit 0", "sdnbench controller bench -o D/x.txt"),
    ("blamed the run", "sdnbench rfc8456 --controller tcp:127.0.0.1:FREE --store D/st"),
    ("blamed the run", "sdnbench rfc8456 --controller 'cmd:/nonexistent/prog {port}' --store D/st"),
    ("blamed the run", "sdnbench controller cbench -- -c 127.0.0.1 -p FREE"),
    ("blamed the run", "ENGINE --controller 127.0.0.1:FREE"),
    ("blamed the run", "sdnbench conformance --bogus"),
    ("late", "sdnbench controller bench --store D/s.yaml"),
    ("late", "sdnbench net run --topo linear,2 --store D/s.yaml"),
    ("late", "sdnbench switch bench --store D/s.yaml"),
    ("late", "sdnbench controller discovery --store /proc/x/st"),
    ("late", "ENGINE --json /proc/x/out.json"),
    ("unclear", "ENGINE cbench -s -1"),
    ("unclear", "ENGINE cbench -p 70000"),
    ("unclear", "ENGINE --loop-ms -5"),
    ("unclear", "sdnbench controller cbench -s 0"),
    ("unclear", "sdnbench controller dos --cases ,"),
    ("unclear", "sdnbench rfc8456 --only discovery --controller tcp:127.0.0.1:LISTEN"),
]


def _fixtures(d: Path) -> None:
    (d / "corrupt").mkdir()
    (d / "corrupt" / "results.sqlite").write_bytes(b"not a database" * 300)
    (d / "s.yaml").write_text(SCENARIO)
    (d / "bomb.yaml").write_text(BOMB)
    (d / "dup.yaml").write_text(SCENARIO + "name: again\n")
    (d / "binary.json").write_bytes(bytes(range(256)) * 4)
    (d / "s.json").write_text("{}")
    sqlite3.connect(d / "unused.sqlite").close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(case: str, d: Path, free: int, listen: int) -> tuple:
    text = (case.replace("D/", f"{d}/").replace("FREE", str(free)).replace("LISTEN", str(listen))
            .replace("ENGINE", ENGINE))
    argv = shlex.split(text)
    if argv[0] == "sdnbench":
        argv[0] = str(BIN / "sdnbench")
    t = time.monotonic()
    cp = subprocess.run(argv, capture_output=True, text=True, cwd=d, timeout=300)
    return cp.returncode, time.monotonic() - t, cp.stderr


def main() -> int:
    bad = 0
    print("| # | class | command | exit | time (s) | line |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="sdnbench-issue40-") as tmp, socket.socket() as listener:
        d = Path(tmp)
        _fixtures(d)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        for i, (cls, case) in enumerate(CASES, 1):
            code, secs, err = run(case, d, _free_port(), listener.getsockname()[1])
            lines = [ln for ln in err.splitlines() if ln.strip()]
            quiet = "head -c" in case          # a closed pipe: silence and exit 0
            ok = (code, len(lines)) == ((0, 0) if quiet else (1, 1)) and "Traceback" not in err and "panicked" not in err
            ok = ok and not (d / "st").exists()
            bad += not ok
            shown = " / ".join(lines[:3]).replace("|", "\\|").replace(str(d), "D")
            shown_case = case.replace("|", "\\|")
            print(f"| {i} | {cls} | `{shown_case}` | {code} | {secs:.2f} | {shown}{'' if ok else ' **NOT REFUSED WELL**'} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
