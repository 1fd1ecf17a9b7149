"""No file of the repository that runs (code, tests, scenarios, scripts, the Makefile) names a
place outside the repository that only one machine has (issue 40): a fresh machine has the
repository, ``../shared`` and what ``make setup`` installs, nothing else. Systems sdnbench does
not install are found where ``sdnbench install`` put them or through a variable the user sets;
a test that needs one skips and names it.

The places a developer fills by hand are refused wherever they appear; the system paths sdnbench
owns or documents (``/var/lib/sdnbench``, ``/tmp``, ``/proc``, ``/sys``, ``/usr``, ``/etc``,
``/run``, ``/dev``) are fine."""

import re
import subprocess
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent

# Where things are put by hand: never in a file that runs.
HAND_PLACES = ("opt", "work", "home", "root", "srv", "mnt", "media")
PATH = re.compile(r"(?<![\w.~$}/-])/(" + "|".join(HAND_PLACES) + r")(/[\w.+-]*)+")
RUNS = re.compile(r"\.(py|rs|sh|go|c|ya?ml|toml|cfg|json)$|(^|/)(Makefile|run)$")


def _tracked() -> list:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=TREE, capture_output=True,
                         text=True, check=True).stdout.split()
    return [f for f in out if RUNS.search(f) and not f.startswith("docs/") and (TREE / f).is_file()]


def machine_paths(text: str) -> list:
    return [m.group(0) for m in PATH.finditer(text)]


def test_the_pattern_finds_hand_places_and_passes_system_ones():
    assert machine_paths("cmd:python3 /opt/peers/pox/pox.py {port}") == ["/opt/peers/pox/pox.py"]
    assert machine_paths("cd /work/main && make") == ["/work/main"]
    assert machine_paths("ssh root@h:/root/x") == ["/root/x"]
    assert machine_paths("/var/lib/sdnbench/installed/pox /tmp/x /usr/bin/ovs-vsctl /proc/self") == []
    assert machine_paths("${POX_DIR}/pox.py ~/opt/x ./work/y a/home/b") == []


def test_no_file_that_runs_names_a_path_only_one_machine_has():
    files = _tracked()
    assert len(files) > 300, "git ls-files found too little: is this the repository?"
    found = []
    for f in files:
        for n, line in enumerate((TREE / f).read_text(errors="replace").splitlines(), 1):
            for p in machine_paths(line):
                if f != "sdnbench/test_machine_paths.py":
                    found.append(f"{f}:{n}: {p}")
    assert not found, "paths only one machine has:\n" + "\n".join(found)
