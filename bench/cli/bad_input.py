"""Re-run every bad input of issue 29 through the installed command line and print the
docs/cli.md table: exit code, wall time, the line printed. Exit 1 if any is not refused with
exit 1 and one line (one per problem for a scenario), or shows a traceback.

    .venv/bin/python bench/cli/bad_input.py            # the markdown table on stdout
"""

from __future__ import annotations

import sys
import tempfile
import time
import subprocess
from pathlib import Path

SDNBENCH = str(Path(sys.executable).with_name("sdnbench"))
NEVER = "cmd:python3 -c 'import time; time.sleep(60)' {port};ready=2"
SCENARIOS = {
    "disc.yaml": 'kind: discovery\n    matrix:\n      topo: ["ring,0", "fattree,3"]',
    "resil.yaml": 'kind: resilience\n    params:\n      test: reprovisioning\n      topo: "linear,3"',
    "badtopo.yaml": 'kind: discovery\n    params:\n      topo: "single,1"',
}
CASES = [
    "controller discovery --size-search --max-switches 0",
    "controller discovery --api-url 127.0.0.1:8080",
    "controller table-capacity --mode proactive --controller tcp:127.0.0.1:6653 --api onos --api-url 127.0.0.1:8181",
    "controller topology-change --deadline-s 0",
    "controller robustness --cases ,",
    "controller discovery --topo single,1",
    "switch bench --test capacity --batch 0",
    "run disc.yaml --dry-run",
    "run resil.yaml --dry-run",
    "controller discovery --api osken --api-url http://127.0.0.1:9",
    "run badtopo.yaml --store STORE",
    "run resil.yaml --store STORE",
    "controller provisioning --deadline 0",
    "controller discovery --poll-s 0",
    "controller topology-change --poll-s 0",
    "controller discovery --deadline-s -5",
    "controller topology-change --api nope",
    "controller discovery --stable 1",
    "controller topology-change --stable 1",
    "controller failover --flow-rate -1",
    "controller dos --syn-rate -1",
    "controller dos --workers -3",
    "controller provisioning --mode proactive --controller tcp:127.0.0.1:6653 --api floodlight",
    "controller discovery --controller tcp:127.0.0.1:6653 --api floodlight",
    "switch bench --probe-pps -1",
    f"controller bench --controller {NEVER!r} --loops 1",
]


def run(case: str, d: Path) -> tuple:
    import shlex
    argv = [SDNBENCH] + [a.replace("STORE", str(d / "store")) for a in shlex.split(case)]
    t = time.monotonic()
    cp = subprocess.run(argv, capture_output=True, text=True, cwd=d, timeout=300)
    return cp.returncode, time.monotonic() - t, cp.stderr


def main() -> int:
    bad = 0
    print("| # | command | exit | time (s) | line |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="sdnbench-bad-input-") as tmp:
        d = Path(tmp)
        for name, body in SCENARIOS.items():
            (d / name).write_text(f"name: bad\nbenchmarks:\n  - {body}\n")
        for i, case in enumerate(CASES, 1):
            code, secs, err = run(case, d)
            lines = [l for l in err.splitlines() if l.strip()]
            # a scenario: one line per problem; a controller that never became ready: its log's tail
            several = case.startswith("run ") or "cmd:" in case
            ok = code == 1 and "Traceback" not in err and (several or len(lines) == 1)
            ok = ok and not (d / "store").exists()
            bad += not ok
            shown = " / ".join(lines[:3]).replace("|", "\\|")
            if "cmd:" in case:
                shown = lines[0].split(": the last lines")[0].replace("|", "\\|") if lines else ""
            print(f"| {i} | `sdnbench {case}` | {code} | {secs:.2f} | {shown}{'' if ok else ' **NOT REFUSED WELL**'} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
