"""Printing helpers shared by commands: JSON to stdout, plain aligned tables."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, Iterable, Optional, Sequence

from .errors import UserError
from .paths import default_results_dir


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, default=lambda o: o.to_dict() if hasattr(o, "to_dict") else str(o))
    sys.stdout.write("\n")


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str = "") -> str:
    """A plain text table; ``align`` gives 'l' or 'r' per column (default: numbers right)."""
    rows = [[_cell(c) for c in r] for r in rows]
    widths = [len(h) for h in headers]
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))

    def fmt(r: Sequence[str], is_header: bool = False) -> str:
        out = []
        for i, c in enumerate(r):
            a = align[i] if i < len(align) else ("l" if is_header or not _numeric(c) else "r")
            out.append(c.ljust(widths[i]) if a == "l" else c.rjust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [fmt(headers, True), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines)


def _cell(c: Any) -> str:
    if c is None:
        return "-"
    if isinstance(c, float):
        return f"{c:.4g}" if abs(c) < 1e6 else f"{c:.4e}"
    return str(c)


def _numeric(s: str) -> bool:
    try:
        float(s.replace("%", "").replace("±", ""))
        return True
    except ValueError:
        return False


def add_json_flag(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")


# --- the one CLI convention (shared flag helpers) ------------------------------------------------
# --json            JSON on stdout (never a file)
# -o/--output FILE  a file; its format from the extension unless --format names one (formats.py)
# --of VERSIONS     OpenFlow versions (1.0, 1.3, ...), in every half
# --store DIR       the results store (one definition: add_store_flag)
# Old spellings stay as hidden flags that refuse with a line naming the new one.

FILE_MODE = 0o644
RENAMED = {"--out": "-o/--output FILE", "--protocols": "--of (e.g. --of 1.0,1.3)"}


def add_store_flag(parser, help: str = "", read_only: bool = False) -> None:
    """``read_only``: the command only reads the store, which is then opened read-only and not
    checked for writing beforehand (a read-only store is read)."""
    from pathlib import Path

    parser.add_argument("--store", type=Path, metavar="DIR", default=None,
                        help=help or f"results store directory (default: ./{default_results_dir()}, "
                                     "or $SDNBENCH_RESULTS)")
    if read_only:
        parser.set_defaults(_store_read_only=True)


def add_renamed_flags(parser, *old: str) -> None:
    """Hidden old spellings that stop with one line naming the new flag."""
    for flag in old:
        parser.add_argument(flag, nargs="?", action=_Renamed, help=argparse.SUPPRESS,
                            dest=f"_renamed_{flag.strip('-').replace('-', '_')}")


def _renamed_error(flag: str):
    return UserError(f"{flag} is renamed: use {RENAMED[flag]}")


class _Renamed(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        raise _renamed_error(option_string)


def check_writable(path: str) -> None:
    """Before anything is measured: the output's directory exists (created if missing) and a
    file can be written there. Raises UserError naming the problem."""
    import os
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        raise UserError(f"-o {path}: is a directory; give a file name")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"-o {path}: cannot create its directory: {e.strerror}")
    if not os.access(p.parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UserError(f"-o {path}: not writable")


def write_file(path, data: bytes) -> None:
    """Write atomically (temp file beside it, fsync, rename) with mode 0644, whatever the umask
    says. On failure no temp file is left and the ``OSError`` names ``path``, not the temp file."""
    import os
    import tempfile
    from pathlib import Path

    p = Path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, p)
    except BaseException as e:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(e, OSError) and e.errno is not None:
            raise OSError(e.errno, e.strerror, str(p)) from e
        raise


def write_measured(path, data: bytes) -> str:
    """``-o FILE`` holding measurements: ``write_or_beside``, and a line when it is not FILE."""
    where = write_or_beside(path, data)
    if where != str(path):
        print(f"sdnbench: could not write {path}; the results are in {where}", file=sys.stderr)
    return where


def write_or_beside(path, data: bytes) -> str:
    """Write ``data`` to ``path``; if that fails, to a file beside it (or in the working directory,
    then /tmp) so a measurement is never lost. Returns where it went."""
    import os
    import time
    from pathlib import Path

    p = Path(path)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    tries = [p, p.with_name(f"{p.name}.{stamp}.{os.getpid()}.saved"),
             Path.cwd() / f"sdnbench-saved-{stamp}-{os.getpid()}{p.suffix or '.json'}",
             Path("/tmp") / f"sdnbench-saved-{stamp}-{os.getpid()}{p.suffix or '.json'}"]
    last: Optional[OSError] = None
    for t in tries:
        try:
            write_file(t, data)
            return str(t)
        except OSError as e:
            last = e
    raise last  # type: ignore[misc]
