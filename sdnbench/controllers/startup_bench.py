"""Benchmark: time from spawn to the first OpenFlow HELLO, per controller (not a test).

    python -m sdnbench.controllers.startup_bench [--runs 5] [SPEC ...]

Every campaign cell starts a controller, so start-up time is part of every campaign's wall time.
Each spec is launched ``--runs`` times, interleaved round-robin so that machine noise spreads
over all of them; we report every raw sample, the median, and the ratio of medians against
``ovs-testcontroller`` (a C program: the baseline, measured in the same run).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from .lifecycle import launch
from .parsed import DEFAULT_SPEC

DEFAULT_SPECS = ["ovs-testcontroller", DEFAULT_SPEC, "osken:topology", "ryu:simple_switch_13"]
BASELINE = "ovs-testcontroller"


def time_to_ready(spec: str, of_version: str = "1.3") -> float:
    t0 = time.perf_counter()
    with launch(spec, of_version=of_version):
        return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="*", default=DEFAULT_SPECS)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    specs = list(dict.fromkeys([BASELINE] + args.specs))
    samples: dict = {s: [] for s in specs}
    for _ in range(args.runs):
        for spec in specs:
            samples[spec].append(round(time_to_ready(spec), 4))
    base = statistics.median(samples[BASELINE])
    rows = [{"spec": s, "samples_s": v, "median_s": statistics.median(v),
             "ratio_vs_baseline": statistics.median(v) / base} for s, v in samples.items()]
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    print(f"time to first HELLO, {args.runs} runs each, baseline {BASELINE}")
    for r in rows:
        print(f"  {r['spec']:24} median {r['median_s'] * 1000:8.1f} ms  "
              f"x{r['ratio_vs_baseline']:7.1f}  samples {r['samples_s']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
