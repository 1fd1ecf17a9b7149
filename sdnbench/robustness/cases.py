"""The case catalogue, read from the engine (``sdnbench-engine robust-cases``): the one list."""

from __future__ import annotations

import functools
import json
import subprocess

from ..engine.driver import binary
from ..errors import UserError
from ..paramcheck import once_each


@functools.lru_cache(maxsize=1)
def catalogue() -> tuple:
    cp = subprocess.run([str(binary()), "robust-cases"], capture_output=True, text=True, timeout=30)
    if cp.returncode != 0:
        raise RuntimeError(f"sdnbench-engine robust-cases exited {cp.returncode}: {cp.stderr.strip()}")
    return tuple(json.loads(cp.stdout))


def names() -> list:
    return [c["name"] for c in catalogue()]


def select(text: str | None, of_version: str | None = "1.3", known: list | None = None) -> list:
    """The case names of a comma-separated list ("all" or None: every case that applies to
    ``of_version``; ``of_version`` None, negotiated later: every case, and one that needs another
    version than the negotiated one reads "not applicable"). An unknown name is a UserError that
    lists the known ones."""
    cat = list(known) if known is not None else list(catalogue())
    by_name = {c["name"]: c for c in cat}
    if not text or text == "all":
        return [c["name"] for c in cat if of_version in ("1.3", None) or not c.get("of13_only")]
    wanted = [x.strip() for x in text.split(",") if x.strip()]
    if not wanted:
        where = "(see --list)" if known is None else f"(one or more of {', '.join(by_name)})"
        raise UserError(f"--cases: no case named in {text!r}; give names such as {cat[0]['name']} "
                        f"{where}, or leave --cases out for every case")
    bad = [w for w in wanted if w not in by_name]
    if bad:
        raise UserError(f"--cases: unknown case {', '.join(bad)}; known: {', '.join(by_name)}")
    skipped = [w for w in wanted if of_version == "1.0" and by_name[w].get("of13_only")]
    if skipped:
        raise UserError(f"--cases: {', '.join(skipped)} need OpenFlow 1.3 (--of 1.3)")
    return once_each("--cases", wanted)
