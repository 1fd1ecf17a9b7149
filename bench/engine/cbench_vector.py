#!/usr/bin/env python3
"""Record the first messages cbench sends a controller, as a test vector.

    .venv/bin/python bench/engine/cbench_vector.py --peer /path/to/cbench [--mode latency|throughput]

Runs the tool against the scripted recorder (``sdnbench/testing/cbench_recorder.py``: POX's
handshake, packet-ins ignored until its barrier is answered, then each one flooded) with
``FLAGS`` and writes every message of the first switch's connection, up to ``COUNT``, one per
line in hex, to ``sdnbench/engine/testdata/cbench_<mode>.hex`` (the flags, count and comparison rules are
``cbench_recorder``'s). The vectors checked in were made from cbench built from mininet/oflops
with its autotools defaults (gcc -g -O2). ``sdnbench/engine/test_cbench_vector.py`` runs
``sdnbench-engine cbench`` with the same flags against the same recorder and compares, so it
fails when the ``cbench`` profile no longer sends what cbench sends.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from sdnbench.testing.cbench_recorder import FLAGS, VECTORS, record  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer", required=True, help="the cbench binary")
    ap.add_argument("--mode", choices=sorted(FLAGS), default="latency")
    a = ap.parse_args()
    if not Path(a.peer).is_file():
        print(f"cbench_vector: --peer {a.peer}: no such file", file=sys.stderr)
        return 1
    msgs = record([a.peer], a.mode)
    VECTORS.mkdir(exist_ok=True)
    path = VECTORS / f"cbench_{a.mode}.hex"
    path.write_text("".join(m.hex() + "\n" for m in msgs))
    print(f"{len(msgs)} messages -> {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
