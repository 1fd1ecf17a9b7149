"""The ``sdnbench`` command line: one subcommand per module in ``sdnbench.commands``.

Every module in ``sdnbench/commands/`` that defines ``register(subparsers)`` becomes a
subcommand; ``register`` adds its parser and sets ``func`` (called with the parsed args; it
returns an exit code or None).

Exit codes: 0 ok; 1 user error (one line on stderr, no traceback); 2 a measured check failed;
>2 an internal error (with its traceback); 128+N when stopped by signal N.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import traceback
from typing import Optional, Sequence

from . import __version__, commands
from .errors import CheckFailed, Interrupted, UserError
from .proc import signals_as_exceptions

EXIT_INTERNAL = 3


class Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as a ``UserError`` (exit 1, one line), and keeps the line
    breaks of a description (each subcommand's docstring, whose examples are one per line)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        old = _old_json_file(message)
        if old:
            raise UserError(f"--json no longer takes a file: use -o {old} (--json prints JSON on stdout)")
        raise UserError(f"{self.prog}: {message} (see `{self.prog} --help`)")


_ARGV: list = []


def _old_json_file(message: str) -> str:
    """The FILE of an old-style ``--json FILE``, when that is what argparse could not place."""
    if not message.startswith("unrecognized arguments:"):
        return ""
    extra = message.split(":", 1)[1].split()
    for i, a in enumerate(_ARGV[:-1]):
        if a == "--json" and _ARGV[i + 1] in extra:
            return _ARGV[i + 1]
    return ""


def build_parser() -> Parser:
    parser = Parser(prog="sdnbench",
                    description="Benchmark SDN controllers, OpenFlow switches and networks.")
    parser.add_argument("--version", action="version", version=f"sdnbench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name.startswith("test_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "register"):
            module.register(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    from .procreg import mark_owner
    mark_owner()          # every process sdnbench starts carries it: `net clean` finds orphans
    parser = build_parser()
    _ARGV[:] = list(sys.argv[1:] if argv is None else argv)
    try:
        with signals_as_exceptions():
            args = parser.parse_args(argv)
            if not getattr(args, "func", None):
                parser.print_help()
                return 1
            code = args.func(args)
            return int(code or 0)
    except UserError as e:
        print(f"sdnbench: error: {e}", file=sys.stderr)
        return e.exit_code
    except CheckFailed as e:
        print(f"sdnbench: check failed: {e}", file=sys.stderr)
        return e.exit_code
    except Interrupted as e:
        print("sdnbench: interrupted; cleaned up", file=sys.stderr)
        return e.exit_code
    except BrokenPipeError:
        return 0
    except Exception:
        traceback.print_exc()
        print("sdnbench: internal error (a bug in sdnbench; please report it with the traceback above)",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
