"""Re-run a sample of issue 49's bad inputs (classes: environment variables, scenario content,
JSON of the wrong shape or depth, symbolic-link loops, values a type admits but the method does
not, lists naming a thing twice, late checks, secrets) through the installed binaries and print
the docs/cli.md table: exit code, wall time, the line printed. Exit 1 if one ends otherwise than
its row expects, shows a traceback, or leaves the password anywhere.

    .venv/bin/python bench/cli/issue49.py            # the markdown table on stdout
"""

from __future__ import annotations

import base64
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
SECRET = "s3cret"
S = "name: s\nbenchmarks:\n  - kind: controller\n    params: {mode: throughput, loops: 1}\n"
FILES = {
    "ctl.yaml": S + "    \x01: 1\n",
    "esc.yaml": "name: s\x1b[2J\n" + S.split("\n", 1)[1],
    "deep.yaml": S.replace("{mode: throughput, loops: 1}", "[" * 500 + "]" * 500),
    "dupctl.yaml": S + "    matrix:\n      controller: [osken:learning, osken:learning]\n",
    "dead.yaml": S.replace("loops: 1}", "loops: 1, controller: 'tcp:127.0.0.1:FREE'}"),
    "hung.yaml": "name: s\nbenchmarks:\n  - kind: robustness\n    params: {case: no-hello, hung_ms: 0}\n",
    "obj.json": '{"a": 1}', "list.json": '[{"x": 1}]', "str.json": '"text"',
    "deep.json": "[" * 100000 + "]" * 100000, "deepobj.json": '{"a":' * 3000 + "1" + "}" * 3000,
    "exit0.py": "import sys\nsys.exit(0)\n", "afile": "a regular file\n", "noexec": "#!/bin/sh\n",
}
LINKS = {"loop1": "loop2", "loop2": "loop1", "loop.json": "loop.json", "loop.yaml": "loop.yaml"}
API = "--api onos --api-url http://user:s3cret@127.0.0.1:API"

# (class, command, exit): D is a scratch directory, FREE a port nothing listens on, CTL a scripted
# controller, API a fake ONOS that wants user:s3cret
CASES = [
    ("env", "SDNBENCH_HOME=D/afile sdnbench controllers list", 1),
    ("env", "SDNBENCH_HOME=D/afile sdnbench doctor", 1),
    ("env", "SDNBENCH_HOME=/proc/nowhere/home sdnbench run D/s.yaml --store D/st", 1),
    ("env", "SDNBENCH_HOME=/proc/1 sdnbench controllers start", 1),
    ("env", "SDNBENCH_ENGINE=garbage sdnbench controller bench", 1),
    ("env", "SDNBENCH_ENGINE=D sdnbench controller robustness --list", 1),
    ("env", "SDNBENCH_ENGINE=D/noexec sdnbench switch bench", 1),
    ("scenario", "sdnbench run D/ctl.yaml --store D/st", 1),
    ("scenario", "sdnbench run D/esc.yaml --dry-run", 1),
    ("scenario", "sdnbench run D/deep.yaml --store D/st", 1),
    ("scenario", "sdnbench run D/dupctl.yaml --store D/st", 1),
    ("scenario", "sdnbench run D/dead.yaml --store D/st", 1),
    ("scenario", "sdnbench run D/hung.yaml --store D/st", 1),
    ("json", "sdnbench conformance --report D/obj.json", 1),
    ("json", "sdnbench conformance --report D/list.json", 1),
    ("json", "sdnbench conformance --report D/str.json", 1),
    ("json", "sdnbench conformance --report D/deep.json", 1),
    ("json", "sdnbench report D/deep.json", 1),
    ("json", "sdnbench compare D/deepobj.json D/obj.json", 1),
    ("json", "sdnbench switch conformance --compare D/list.json", 1),
    ("symlink", "sdnbench install cbench --from D/loop1", 1),
    ("symlink", "sdnbench report D/loop.json", 1),
    ("symlink", "sdnbench run D/loop.yaml", 1),
    ("value", "sdnbench controller robustness --hung-ms 0", 1),
    ("value", "sdnbench controller search --max-trials 0", 1),
    ("value", "sdnbench controller search --confirm 0", 1),
    ("value", "sdnbench controller provisioning --workers 0", 1),
    ("value", "sdnbench controllers start --timeout 0", 1),
    ("value", "sdnbench results best 1 --vary value --metric nosuch --store D/runs", 1),
    ("twice", "sdnbench controller bench --switches 1,4,1", 1),
    ("twice", "sdnbench controller robustness --cases no-hello,no-hello", 1),
    ("twice", "sdnbench rfc8456 --only proactive,proactive", 1),
    ("twice", "sdnbench conformance --stimuli connect,connect", 1),
    ("twice", "sdnbench switch bench --test insertion,insertion", 1),
    ("twice", "sdnbench net run --topo linear,2 --ping-sizes 64,64", 1),
    ("late", "sdnbench net run --topo D/exit0.py", 1),
    ("late", "sdnbench net run --topo linear,2 --ditg --ditg-log D/afile", 1),
    ("late", "sdnbench net run --topo linear,2 --ditg --ditg-log /proc/nowhere/logs", 1),
    ("secret", "sdnbench rfc8456 --controller 'cmd:/bin/ctl --db http://u:s3cret@127.0.0.1:1 {port}' --list", 1),
    ("secret", f"sdnbench controller provisioning --mode proactive --controller tcp:CTL {API} --flows 3 "
               "--deadline 20 --reps 1 --store D/st-api -o D/api.json", 0),
]


def _fixtures(d: Path) -> None:
    for name, text in FILES.items():
        (d / name).write_text(text.replace("FREE", str(_free_port())))
    for name, target in LINKS.items():
        (d / name).symlink_to(target)
    (d / "s.yaml").write_text(S)
    runs = "name: r\nbenchmarks:\n  - kind: synthetic\n    params: {samples: 3}\n    matrix:\n      value: [1, 2]\n"
    (d / "runs.yaml").write_text(runs)
    # a stored run of the test-only synthetic kind (registered in this process only)
    code = ("import sys; from sdnbench.campaign.kinds import KINDS; from sdnbench.testing.synthetic import kind; "
            "from sdnbench.cli import main; KINDS['synthetic'] = kind(); sys.exit(main(sys.argv[1:]))")
    subprocess.run([sys.executable, "-c", code, "run", str(d / "runs.yaml"), "--store", str(d / "runs")],
                   check=True, capture_output=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(case: str, d: Path, fill: dict) -> tuple:
    text = case.replace("D/", f"{d}/").replace("=D ", f"={d} ")
    for k, v in fill.items():
        text = text.replace(k, str(v))
    argv = shlex.split(text)
    env = dict(os.environ)
    while "=" in argv[0]:
        k, v = argv.pop(0).split("=", 1)
        env[k] = v
    argv[0] = str(BIN / "sdnbench")
    t = time.monotonic()
    cp = subprocess.run(argv, capture_output=True, text=True, cwd=d, timeout=600, env=env)
    return cp.returncode, time.monotonic() - t, cp.stdout + cp.stderr, cp.stderr


def _leaked(d: Path) -> bool:
    return any(SECRET.encode() in f.read_bytes() for f in d.rglob("*") if f.is_file() and not f.is_symlink())


def main() -> int:
    from sdnbench.testing.peers.fake_northbound import FakeNorthbound
    from sdnbench.testing.peers.path_controller import PathController
    bad = 0
    print("| # | class | command | exit | time (s) | line |\n|---|---|---|---|---|---|")
    auth = "Basic " + base64.b64encode(f"user:{SECRET}".encode()).decode()
    with tempfile.TemporaryDirectory(prefix="sdnbench-issue49-") as tmp, PathController() as ctl, \
            FakeNorthbound("onos", [1, 2, 3], auth=auth) as api:
        d = Path(tmp)
        _fixtures(d)
        for i, (cls, case, want) in enumerate(CASES, 1):
            code, secs, both, err = run(case, d, {"FREE": _free_port(), "CTL": ctl.address, "API": api.port})
            lines = [ln for ln in err.splitlines() if ln.strip()]
            ok = code == want and (want != 1 or len(lines) == 1) and "Traceback" not in both
            ok = ok and SECRET not in both and not _leaked(d) and not (d / "st").exists()
            bad += not ok
            shown = (lines[-1] if lines else "(nothing)").replace("|", "\\|").replace(str(d), "D")
            print(f"| {i} | {cls} | `{case}` | {code} | {secs:.2f} | {shown}{'' if ok else ' **NOT AS EXPECTED**'} |",
                  flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
