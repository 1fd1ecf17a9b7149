"""Without ``--from``: clone the recipe's public repository at its pin into the state directory.
No network (or an unreachable URL) is one line, exit 1, before anything is written."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..errors import UserError
from .manifest import installed_root
from .recipe import Recipe


def source_dir(recipe: Recipe) -> Path:
    return installed_root() / "src" / recipe.name


def _git(args: list, timeout: float) -> subprocess.CompletedProcess:
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, 124, "", "timed out")


def fetch_pinned(recipe: Recipe, url: str = "") -> Path:
    """A checkout of ``url`` (default: the recipe's) at the pin, in ``installed/src/NAME``."""
    url = url or recipe.url
    if _git(["ls-remote", url, "HEAD"], timeout=30).returncode != 0:
        raise UserError(f"install {recipe.name}: cannot reach {url} (no network here?); give --from DIR, "
                        f"a checkout of it at {recipe.pin[:12]}")
    dest = source_dir(recipe)
    shutil.rmtree(dest, ignore_errors=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    clone = _git(["clone", "--quiet", url, str(dest)], timeout=600)
    if clone.returncode != 0:
        raise UserError(f"install {recipe.name}: git clone {url} failed: {_last(clone.stderr)}")
    checkout = _git(["-C", str(dest), "checkout", "--quiet", "--detach", recipe.pin], timeout=60)
    if checkout.returncode != 0:
        raise UserError(f"install {recipe.name}: {url} has no commit {recipe.pin[:12]}: {_last(checkout.stderr)}")
    return dest


def _last(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else "no message"
