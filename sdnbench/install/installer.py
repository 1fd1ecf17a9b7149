"""Install a checked tree: copy what runs into ``<state dir>/installed/NAME``, link its commands
into ``installed/bin`` and write the manifest. The old install is replaced only once the new one
is complete."""

from __future__ import annotations

import shutil
import time
from datetime import datetime, timezone
from pathlib import Path

from ..errors import UserError
from .manifest import Manifest, install_dir, installed_root, write
from .recipe import Recipe
from .tree import check_libraries, check_smoke, check_tree, commit_of


def bin_dir() -> Path:
    return installed_root() / "bin"


def install_from(recipe: Recipe, tree: Path, source: str = "") -> Manifest:
    """Check ``tree`` (one line and nothing installed when it is wrong), then install it."""
    try:
        tree = tree.expanduser().resolve()
    except (RuntimeError, OSError) as e:         # RuntimeError: a symlink loop (Python < 3.13)
        raise UserError(f"install {recipe.name}: --from {tree}: cannot follow it ({e})") from None
    check_tree(recipe, tree)
    check_libraries(recipe, tree)
    check_smoke(recipe, tree)
    version = commit_of(tree) or "unknown"
    started = time.monotonic()
    dest = install_dir(recipe.name)
    staging = dest.with_name(f".{recipe.name}.new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for rel in recipe.copy:
        _copy(tree, rel, staging)
    m = Manifest(
        name=recipe.name, title=recipe.title, version=version, pinned=version == recipe.pin,
        pin=recipe.pin, source=source or str(tree),
        installed_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        copy_seconds=0.0, entries={e: str(dest / rel) for e, rel in recipe.entries.items()},
        variable=[recipe.variable[0], str((dest / recipe.variable[1]).resolve())] if recipe.variable else None)
    m.copy_seconds = round(time.monotonic() - started, 2)
    write(m, staging)
    _replace(staging, dest)
    _link(recipe, m)
    return m


def _copy(tree: Path, rel: str, staging: Path) -> None:
    src = tree / rel
    if rel == ".":
        shutil.copytree(src, staging, symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".git"))
        return
    target = staging / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, target, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    else:
        shutil.copy2(src, target)


def _replace(staging: Path, dest: Path) -> None:
    old = dest.with_name(f".{dest.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        dest.rename(old)
    staging.rename(dest)
    shutil.rmtree(old, ignore_errors=True)


def _link(recipe: Recipe, m: Manifest) -> None:
    """``installed/bin/NAME`` -> the installed entry point, for each of the recipe's commands."""
    bins = bin_dir()
    bins.mkdir(parents=True, exist_ok=True)
    for e in recipe.on_path:
        link = bins / Path(recipe.entries[e]).name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(m.entries[e])
