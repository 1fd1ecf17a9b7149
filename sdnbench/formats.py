"""The output formats: one registry, read by every command that writes a file.

A ``Format`` is a file format sdnbench writes: its ``--format`` name, its file suffixes (the
first is the one to name a file with; the others are read as the same format), what a file of
it is, and whether it can go to stdout. An ``Output`` is one thing a command writes (a report, a
comparison, a run's samples, measured results): its writer for each format it offers. Both the
``--format`` choices, the ``-o`` help and the format inferred from an ``-o`` suffix are read from
them (``add_flags``, ``Output.help``, ``Output.format_for``), so a new format is one record here
and one writer where the output is made, as Mininet's ``addDictOption`` does for its options.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Callable, Mapping, Optional

from .errors import UserError


@dataclass(frozen=True)
class Format:
    name: str                  # the --format value
    suffixes: tuple            # ".md", ".markdown": the first names a new file
    holds: str                 # what a file of this format is, for help text
    stdout: bool = True        # False: a file only (binary, or a page)
    figures: bool = False      # holds plots (inline, or as image files beside it)


FORMATS: Mapping[str, Format] = {f.name: f for f in (
    Format("txt", (".txt",), "an aligned text table"),
    Format("md", (".md", ".markdown"), "Markdown", figures=True),
    Format("html", (".html", ".htm"), "an HTML page", stdout=False, figures=True),
    Format("csv", (".csv",), "CSV"),
    Format("json", (".json",), "JSON"),
    Format("parquet", (".parquet", ".pq"), "Parquet", stdout=False),
    Format("png", (".png",), "a PNG image", stdout=False),
    Format("svg", (".svg",), "an SVG image"),
    Format("pdf", (".pdf",), "a PDF", stdout=False),
)}

# suffix -> format name, from the records above
BY_SUFFIX: Mapping[str, str] = {s: f.name for f in FORMATS.values() for s in f.suffixes}


def suffix_format(path) -> Optional[str]:
    """The format a file name's suffix names (any case), or None."""
    return BY_SUFFIX.get(PurePath(str(path)).suffix.lower())


@dataclass(frozen=True)
class Output:
    """One thing a command writes: ``writers`` maps each format it offers (a ``FORMATS`` name,
    in the order help lists them) to what writes it; the signature is the output's own. A
    writer whose module would load scipy or matplotlib when the CLI starts is named as
    ``"package.module:function"`` and imported when it is used (``writer``)."""
    what: str
    writers: Mapping[str, Any]       # format -> callable, module, or "module:function"

    def __post_init__(self) -> None:
        unknown = [f for f in self.writers if f not in FORMATS]
        if unknown or not self.writers:
            raise ValueError(f"{self.what}: formats {unknown} are not in formats.FORMATS")

    def writer(self, fmt: str) -> Callable[..., Any]:
        w = self.writers[fmt]
        if isinstance(w, str):
            import importlib
            module, _, name = w.partition(":")
            w = getattr(importlib.import_module(module), name)
        return w

    @property
    def formats(self) -> tuple:
        return tuple(self.writers)

    def only(self, *names: str, what: Optional[str] = None) -> "Output":
        """The same writers, fewer formats (a command that offers a subset)."""
        return Output(what or self.what, {n: self.writers[n] for n in names})

    def suffixes(self) -> list:
        return [s for n in self.formats for s in FORMATS[n].suffixes]

    def help(self) -> str:
        """``md (.md, .markdown), json (.json)``: the formats and the suffixes that name them."""
        return ", ".join(f"{n} ({', '.join(FORMATS[n].suffixes)})" for n in self.formats)

    def format_for(self, path, given: Optional[str] = None, format_flag: bool = True) -> str:
        """The format of ``-o path``: ``given`` (``--format``) if any, else its suffix's. A
        suffix this output has no writer for is refused in one line (``UserError``)."""
        if given:
            if given not in self.writers:
                raise UserError(f"--format {given}: not a format of {self.what} "
                                f"(choose from {', '.join(self.formats)})")
            return given
        name = suffix_format(path)
        if name in self.writers:
            return name
        raise UserError(f"-o {path}: cannot tell the format from the extension; name a file ending in "
                        f"{', '.join(FORMATS[f].suffixes[0] for f in self.formats)}"
                        + (" or give --format" if format_flag else ""))


def add_flags(parser, out: Output, default: str = "", short: bool = False, metavar: str = "FILE",
              format_help: str = "file format for -o (default: from the extension)") -> None:
    """``-o/--output FILE`` and ``--format`` (``-f`` with ``short``), their choices and help from
    ``out``. ``default`` says in words what happens without ``-o``. A command that writes its
    own ``-o`` flag sets ``_output`` itself (``parser.set_defaults(_output=OUT)``)."""
    parser.add_argument("-o", "--output", metavar=metavar,
                        help=f"write {out.what} to {metavar}; its format from the extension: "
                             f"{out.help()}, or --format" + (f"; {default}" if default else ""))
    flags = ("--format", "-f") if short else ("--format",)
    parser.add_argument(*flags, choices=list(out.formats), help=format_help)
    parser.set_defaults(_output=out)          # the CLI's preflight checks the -o suffix against it


def stdout_formats(out: Output) -> tuple:
    """The formats of ``out`` that can be printed."""
    return tuple(f for f in out.formats if FORMATS[f].stdout)
