#!/usr/bin/env python3
"""The listener matrix (issue 47): every controller-facing command × every way a controller
listens, each cell measured or refused, and whether that verdict is true.

    .venv/bin/python bench/cli/listeners.py [--commands 'controller bench,rfc8456'] [--listeners 'JVM'] [-o cells.md]

The controller is a real os-ken (the app each command needs) behind a relay whose listening
socket takes each form (``sdnbench/testing/listener_matrix.py``). Prints a Markdown table row per
cell as it ends; exit 1 when any verdict is untrue (a reachable listener refused, or an
unreachable one measured or refused for another reason).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sdnbench.testing.listener_matrix import COMMANDS, LISTENERS, matrix  # noqa: E402


def _pick(items, names: str):
    if not names:
        return items
    wanted = [n.strip() for n in names.split(",")]
    return tuple(i for i in items if any(w in i.name for w in wanted))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", default="", help="comma-separated parts of command names (all)")
    ap.add_argument("--listeners", default="", help="comma-separated parts of listener names (all)")
    ap.add_argument("-o", "--output", help="also write the table here")
    a = ap.parse_args()
    rows = ["| command | listener | verdict | s | line |", "|---|---|---|---|---|"]
    print("\n".join(rows), flush=True)
    untrue = 0
    for cell in matrix(_pick(COMMANDS, a.commands), _pick(LISTENERS, a.listeners)):
        row = cell.row() + ("" if cell.true else " **untrue** |")
        untrue += not cell.true
        rows.append(row)
        print(row, flush=True)
        if a.output:
            Path(a.output).write_text("\n".join(rows) + "\n")
    print(f"{len(rows) - 2} cells, {untrue} untrue")
    return 1 if untrue else 0


if __name__ == "__main__":
    sys.exit(main())
