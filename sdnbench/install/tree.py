"""Checks on a source tree the user names with ``--from DIR``: is it this system, at which commit,
is it built, do its binaries find their libraries. Each failure is one line (``UserError``)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from ..errors import UserError
from .recipe import Recipe


def check_tree(recipe: Recipe, tree: Path) -> None:
    """Refuse a directory that is not this system's tree, or one not yet built."""
    if not tree.is_dir():
        raise UserError(f"install {recipe.name}: {tree} is not a directory")
    missing = [m for m in recipe.markers if not (tree / m).is_file()]
    if missing:
        raise UserError(f"install {recipe.name}: {tree} is not a {recipe.title} tree (no {missing[0]}); "
                        f"give a checkout of {recipe.url}")
    absent = [e for e, rel in recipe.entries.items() if not (tree / rel).is_file()]
    if absent:
        what = f"build it first as its README says ({recipe.build_hint})" if recipe.needs_build \
            else "the checkout is incomplete"
        raise UserError(f"install {recipe.name}: {tree} is a {recipe.title} tree but "
                        f"{recipe.entries[absent[0]]} is missing: {what}, then run this again")
    for e in recipe.on_path:
        if not os.access(tree / recipe.entries[e], os.X_OK):
            raise UserError(f"install {recipe.name}: {tree / recipe.entries[e]} is not executable")


def commit_of(tree: Path) -> str:
    """The tree's git commit, or "" when it is not a git checkout."""
    if not (tree / ".git").exists():
        return ""
    r = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True,
                       timeout=30)
    return r.stdout.strip() if r.returncode == 0 else ""


def unresolved_libraries(binary: Path) -> list:
    """Shared libraries ``binary`` needs that the loader cannot find (``ldd``'s "not found")."""
    r = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, timeout=30)
    return [line.split("=>")[0].strip() for line in r.stdout.splitlines() if "not found" in line]


def check_libraries(recipe: Recipe, tree: Path) -> None:
    for e in recipe.libs_checked:
        missing = unresolved_libraries(tree / recipe.entries[e])
        if missing:
            raise UserError(f"install {recipe.name}: {recipe.entries[e]} needs {', '.join(missing)}, "
                            f"which the loader does not find ({recipe.build_hint}; then ldconfig)")


def check_smoke(recipe: Recipe, tree: Path) -> None:
    """Run the recipe's smoke command (in an empty directory) and refuse what cannot work."""
    if not recipe.smoke:
        return
    entry, *args = recipe.smoke
    binary = tree / recipe.entries[entry]
    with tempfile.TemporaryDirectory() as empty:
        try:
            r = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=20, cwd=empty)
            out, code = r.stdout + r.stderr, r.returncode
        except (OSError, subprocess.TimeoutExpired) as e:
            out, code = str(e), -1
    bad = recipe.smoke_error and recipe.smoke_error in out
    if code != 0 or bad:
        first = next((ln.strip() for ln in out.splitlines() if ln.strip()), f"exit {code}")
        if bad:
            first = next(ln.strip() for ln in out.splitlines() if recipe.smoke_error in ln)
        raise UserError(f"install {recipe.name}: {recipe.entries[entry]} {' '.join(args)} fails: {first.rstrip('.')}"
                        + (f"; {recipe.smoke_fix}" if recipe.smoke_fix else ""))
