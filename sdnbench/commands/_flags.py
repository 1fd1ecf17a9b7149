"""Every flag's value checked by its kind, when the command line is parsed (issue 40).

``harden(parser)`` walks a parser and its subparsers and gives each flag whose type is a bare
``int``, ``float`` or string a checked one, so no command can forget: a whole number or a number
is finite, 0 or more and below ``HUGE``; a string is not empty. A flag that may be negative or
empty says so with a type of its own (any other callable is left alone), and so does one whose
method has no use for 0 (``at_least(n)``, ``above_zero``: a time-out, a trial budget). argparse
reports the refusal as ``argument --reps: want a whole number 0 or more, got '-1'``: one line
naming the flag and the value, before anything starts.

``preflight(args)`` checks the environment variables the user set (``SDNBENCH_HOME``,
``SDNBENCH_ENGINE``), then the places a command will write before it measures (every ``-o``,
``out``/``output``, and every ``--store``) and the text files it will read (a scenario, an
inventory): each exists, is a file and is UTF-8 text."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

HUGE = 2 ** 53          # beyond this no count, duration or rate of sdnbench means anything
SKIP = (argparse._SubParsersAction, argparse._HelpAction, argparse._VersionAction)


def whole(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"want a whole number, got {text!r}")
    if v < 0:
        raise argparse.ArgumentTypeError(f"want a whole number, not a negative one, got {text!r}")
    if v > HUGE:
        raise argparse.ArgumentTypeError(f"want a whole number of at most {HUGE}, got {text!r}")
    return v


def number(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"want a number, got {text!r}")
    if not math.isfinite(v) or v > HUGE:
        raise argparse.ArgumentTypeError(f"want a finite number of at most {HUGE}, got {text!r}")
    if v < 0:
        raise argparse.ArgumentTypeError(f"want a number, not a negative one, got {text!r}")
    return v


def at_least(low: int):
    """A whole-number type for a count the method needs ``low`` of at least (0 is not "none")."""
    def checked(text: str) -> int:
        v = whole(text)
        if v < low:
            raise argparse.ArgumentTypeError(f"want a whole number, {low} or more, got {text!r}")
        return v
    checked.base = whole
    return checked


def above_zero(text: str) -> float:
    """A number type for a duration or share that means nothing at 0 (a time-out, a tolerance)."""
    v = number(text)
    if v == 0:
        raise argparse.ArgumentTypeError(f"want a number above 0, got {text!r}")
    return v


above_zero.base = number


def text(value: str) -> str:
    if not value.strip():
        raise argparse.ArgumentTypeError("want a value, got an empty string")
    return value


def path(value: str) -> Path:
    return Path(text(value))


CHECKED = {int: whole, float: number, None: text, str: text, Path: path}


def _checked(t):
    """The checked type for a bare ``t``; a type of the flag's own is left alone."""
    return CHECKED[t] if t in CHECKED else t


def harden(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sub in a.choices.values():
                harden(sub)
        elif not isinstance(a, SKIP) and a.nargs != 0 and not a.choices and a.default != "":
            a.type = _checked(a.type)
    return parser


# text files a command reads: dest -> (its flag, what it is); a positional has no flag
INPUTS = {"scenario": ("", "scenario"), "inventory": ("--inventory ", "inventory")}


def text_file(flag: str, what: str, p: Path) -> None:
    from ..errors import UserError

    if not p.exists():
        from ..paths import no_such_file
        raise UserError(f"{flag}{p}: {no_such_file(p) if p.is_symlink() else f'no such {what} file'}")
    if not p.is_file():
        raise UserError(f"{flag}{p}: is {'a directory' if p.is_dir() else 'not a regular file'}, not a {what} file")
    try:
        with open(p, encoding="utf-8") as f:
            f.read(1 << 20)
    except UnicodeDecodeError:
        raise UserError(f"{flag}{p}: is not a text file (not UTF-8), not a {what} file")
    except OSError as e:
        raise UserError(f"{flag}{p}: cannot read the {what} file: {e.strerror}")


def preflight(args: argparse.Namespace) -> None:
    """The places a command writes, checked before it starts (``UserError`` naming the flag),
    after the environment variables the user set (``paths.check_environment``)."""
    from ..output import check_writable
    from ..paths import check_environment

    check_environment()
    _tls_taken(args)

    for dest in ("out", "output"):
        value = getattr(args, dest, None)
        if value not in (None, "-"):
            out = getattr(args, "_output", None)       # a formats.Output: the suffix must name one of its formats
            if out:
                out.format_for(str(value), getattr(args, "format", None), hasattr(args, "format"))
            check_writable(str(value))
    for dest, (flag, what) in INPUTS.items():
        value = getattr(args, dest, None)
        if isinstance(value, (str, Path)) and value != "":
            text_file(flag, what, Path(value))
    store = getattr(args, "store", None)
    if store is not None and not getattr(args, "_store_read_only", False):
        from ..store.store import check_store
        check_store(Path(store))


# The switch side of OpenFlow over TLS (docs/tls.md): one definition, on every command that
# takes --controller; the scenario keys of the same names (tls_ca, ...) say the same.
TLS_FLAGS = {"tls_ca": "the CA that signed the controller's certificate",
             "tls_cert": "the switches' certificate",
             "tls_key": "the switches' private key"}


def add_tls_flags(p: argparse.ArgumentParser) -> None:
    """``--tls-ca/--tls-cert/--tls-key FILE``: the switches' files for a TLS controller spec
    (``tls:HOST:PORT``, ``osken:learning;tls``); each left out is sdnbench's own (`sdnbench certs`)."""
    g = p.add_argument_group("OpenFlow over TLS (a tls: or ;tls controller spec; docs/tls.md)")
    for dest, what in TLS_FLAGS.items():
        g.add_argument("--" + dest.replace("_", "-"), dest=dest, type=path, metavar="FILE",
                       help=f"PEM: {what} (default: sdnbench's own, `sdnbench certs`)")


def _tls_taken(args: argparse.Namespace) -> None:
    """A command that does not carry TLS to its switches (``_takes_tls`` False) refuses a TLS
    controller spec in one line, instead of sessions that fail against it."""
    if getattr(args, "_takes_tls", True):
        return
    from ..controllers.spec import parse_spec
    from ..errors import UserError
    specs = args.controller if isinstance(args.controller, list) else [args.controller]
    for spec in (s for s in specs if s):
        try:
            tls = parse_spec(spec).tls
        except UserError:
            continue                  # the command's own check says what is wrong with it
        if tls:
            raise UserError(f"--controller {spec}: this command does not run over TLS yet; controller "
                            "bench, capacity and search and net run do (docs/tls.md)")


def tls_params(args: argparse.Namespace) -> dict:
    """The TLS flags given, as params keys (``tls_ca``: "FILE"): what a scenario would say."""
    return {k: str(getattr(args, k)) for k in TLS_FLAGS if getattr(args, k, None) is not None}


def spec_forms() -> str:
    """The controller spec forms, one per kind in ``CONTROLLER_KINDS``'s order: what help texts
    list (a new kind shows up in them with no edit here)."""
    from ..controllers.kinds import CONTROLLER_KINDS
    return ", ".join(k.form for k in CONTROLLER_KINDS.values())
