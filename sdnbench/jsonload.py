"""JSON files a user hands sdnbench (result files, conformance cells, a comparison's baseline),
read with limits (issue 49), as ``yamlload`` reads YAML: a missing, unreadable, binary or
malformed file is one line naming it, and so is a document nested deeper than ``MAX_DEPTH``
(Python's decoder, and every walk of the data after it, recurses: a deep enough document would
be a ``RecursionError``). What the document must hold is the caller's check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import UserError

MAX_DEPTH = 100          # sdnbench's own documents nest fewer than 10 levels


def read(path: Path, name: str = "", what: str = "JSON file") -> Any:
    """The data of the JSON file ``path``; ``name`` is how messages name it (default: the path),
    ``what`` what it should be."""
    name = name or str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{name}: is a directory, not a {what}") from None
    except UnicodeDecodeError:
        raise UserError(f"{name}: not a text file, so not a {what}") from None
    except OSError as e:
        raise UserError(f"{name}: cannot read it ({e.strerror})") from None
    too_deep = UserError(f"{name}: JSON nested deeper than {MAX_DEPTH} levels; not a file sdnbench wrote")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"{name}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise too_deep from None
    if deeper_than(data, MAX_DEPTH):
        raise too_deep
    return data


def deeper_than(data: Any, limit: int) -> bool:
    """Whether lists and objects in ``data`` nest more than ``limit`` deep (no recursion)."""
    stack = [(data, 0)]
    while stack:
        x, d = stack.pop()
        if d > limit:
            return True
        if isinstance(x, dict):
            stack.extend((v, d + 1) for v in x.values())
        elif isinstance(x, list):
            stack.extend((v, d + 1) for v in x)
    return False
