"""The os-ken switch test patterns as installed (``os_ken/tests/switch/of10``, ``of13``): found
in the os-ken environment, selected, and staged for one run as symlinks in a scratch directory
(the tool reads every ``*.json`` under ``--test-switch-dir``; nothing is copied).

A pattern's name is its path under its version's directory without ``.json``
(``action/25_SET_FIELD/03_ETH_DST``); its category is the first part (action, match, group,
meter). Selection (``--only``): comma-separated shell globs matched against the name, a word
without glob characters matching as a substring; case-insensitive.
"""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..controllers import envs
from ..errors import UserError

# OpenFlow version -> the tool's directory and its --test-switch-*-version value
VERSIONS = {"1.0": ("of10", "openflow10"), "1.3": ("of13", "openflow13")}


@dataclass(frozen=True)
class Pattern:
    version: str          # "1.0" or "1.3"
    name: str             # action/00_OUTPUT
    path: Path
    description: str      # the file's first element, as the tool logs it before its tests
    tests: int            # how many tests the file holds

    @property
    def category(self) -> str:
        return self.name.split("/", 1)[0]


def osken_package() -> Path:
    """The installed ``os_ken`` package directory (UserError naming the fix if absent)."""
    envs.require("osken")
    cp = subprocess.run([str(envs.bin_path("osken")), "-c", "import os, os_ken; print(os.path.dirname(os_ken.__file__))"],
                        capture_output=True, text=True, timeout=60)
    if cp.returncode != 0:
        raise UserError(f"the os-ken environment cannot import os_ken: {cp.stderr.strip()[-200:]}")
    return Path(cp.stdout.strip())


def switch_dir(package: Path) -> Path:
    d = package / "tests" / "switch"
    if not (d / "tester.py").exists():
        raise UserError(f"os-ken's switch test tool is not in the installed os-ken ({d}/tester.py); "
                        "run `sdnbench controllers install osken --force`")
    return d


def discover(switch: Path, version: str) -> list:
    """Every pattern of ``version`` under the tool's directory, by name."""
    base = switch / VERSIONS[version][0]
    out = []
    for path in sorted(base.rglob("*.json")):
        data = json.loads(path.read_text())
        desc = next((x for x in data if isinstance(x, str)), path.stem)
        out.append(Pattern(version, path.relative_to(base).with_suffix("").as_posix(), path, desc,
                           sum(1 for x in data if isinstance(x, dict))))
    return out


def matches(name: str, only: Optional[str]) -> bool:
    if not only:
        return True
    for word in (w.strip().lower() for w in only.split(",") if w.strip()):
        if any(c in word for c in "*?["):
            if fnmatch.fnmatchcase(name.lower(), word):
                return True
        elif word in name.lower():
            return True
    return False


def select(patterns: list, only: Optional[str], skip: Optional[str] = None) -> list:
    """The patterns ``only`` names (all without it), less those ``skip`` names (same syntax)."""
    return [p for p in patterns if matches(p.name, only) and not (skip and matches(p.name, skip))]


def stage(patterns: list, directory: Path) -> tuple:
    """Symlinks to ``patterns`` under ``directory`` (their names as paths); returns
    (directory, the patterns the tool will run, the ones it will not).

    The tool keeps one file per description (``TestPatterns`` is a dict keyed by it, filled in
    ``os.listdir`` order), and two of10 files carry another file's description; which of the two
    it runs is found here the way the tool finds it, so counts and progress say what it runs."""
    for p in patterns:
        link = directory / f"{p.name}.json"
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(p.path)
    by_name = {p.name: p for p in patterns}
    kept: dict = {}
    for name in _listdir_order(directory, directory):
        p = by_name[name]
        kept[p.description] = p
    run = [p for p in patterns if kept.get(p.description) is p]
    return directory, run, [p for p in patterns if kept.get(p.description) is not p]


def _listdir_order(base: Path, path: Path) -> list:
    """Pattern names in the order the tool's ``TestPatterns._get_tests`` visits them."""
    if path.is_dir():
        return [n for entry in os.listdir(path) for n in _listdir_order(base, path / entry)]
    return [path.relative_to(base).with_suffix("").as_posix()] if path.suffix == ".json" else []
