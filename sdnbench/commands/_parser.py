"""The command line's parser: every module in ``sdnbench.commands`` that defines
``register(subparsers)`` becomes a subcommand (``cli.main`` runs it; ``completion`` reads it),
and every module that declares ``GROUP = "NAME"`` adds its own under that command, by
``add_to(subparsers, common)`` (``controller``'s suites: ``members("controller")``)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil

from .. import __version__, commands
from ..errors import UserError
from ._flags import harden


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
        if message.startswith("unrecognized arguments:") and _ARGV[:2] == ["controller", "cbench"]:
            raise UserError(f"controller cbench: {message}: cbench's flags go after --, e.g. "
                            "`sdnbench controller cbench -- -c 127.0.0.1 -p 6653 -s 16 -t`")
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


def _modules() -> list:
    """The command modules, by name (``_private`` helpers and tests left out)."""
    return [importlib.import_module(f"{commands.__name__}.{info.name}")
            for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name)
            if not info.name.startswith(("_", "test_"))]


def members(group: str) -> list:
    """The command modules that add subcommands to ``group`` (their ``GROUP``), by name."""
    return [m for m in _modules() if getattr(m, "GROUP", None) == group]


def build_parser() -> Parser:
    parser = Parser(prog="sdnbench",
                    description="Benchmark SDN controllers, OpenFlow switches and networks.")
    parser.add_argument("--version", action="version", version=f"sdnbench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in _modules():
        if hasattr(module, "register"):
            module.register(sub)
    return harden(parser)
