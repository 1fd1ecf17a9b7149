"""The ``sdnbench`` command line: one subcommand per module in ``sdnbench.commands``.

Every module in ``sdnbench/commands/`` that defines ``register(subparsers)`` becomes a
subcommand; ``register`` adds its parser and sets ``func`` (called with the parsed args and the
``outputs.Outputs`` built from them once, here; it returns an exit code or None).

Exit codes: 0 ok; 1 user error (one line on stderr, no traceback); 2 a measured check failed;
>2 an internal error (with its traceback; an engine document that breaks its schema: one line naming
the field, exit 3); 128+N when stopped by signal N.
"""

from __future__ import annotations

import errno
import os
import sys
import traceback
from typing import Optional, Sequence

from .commands._parser import _ARGV, build_parser
from .errors import CheckFailed, EngineDocumentError, Interrupted, UserError
from .commands._flags import preflight
from .install import with_installed_path
from .outputs import Outputs
from .proc import signals_as_exceptions
from .redact import keep, redact
from .procreg import mark_owner

EXIT_INTERNAL = 3
__all__ = ["main", "build_parser", "EXIT_INTERNAL"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    # what `sdnbench install` put on PATH (ofdatapath, ofprotocol, cbench), after the user's own,
    # for this command only (a caller in the same process, such as a test, gets its PATH back)
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = with_installed_path(path)
    try:
        return _main(argv)
    finally:
        os.environ["PATH"] = path


def _main(argv: Optional[Sequence[str]]) -> int:
    mark_owner()          # every process sdnbench starts carries it: `net clean` finds orphans
    parser = build_parser()
    # a URL's password is taken here and never seen again (sdnbench.redact)
    argv = [keep(a) if isinstance(a, str) else a for a in (sys.argv[1:] if argv is None else argv)]
    _ARGV[:] = argv
    try:
        with signals_as_exceptions():
            args = parser.parse_args(argv)
            if not getattr(args, "func", None):
                parser.print_help()
                return 1
            preflight(args)
            outputs = Outputs.of(args)    # where the results go, built once, passed to the command
            code = int(args.func(args, outputs) or 0)
            sys.stdout.flush()            # a full disk or a closed pipe shows here, not at exit
            return outputs.exit_code(code)  # -o not written as asked: 2, its results in the rescue file named
    except UserError as e:
        print(f"sdnbench: error: {redact(str(e))}", file=sys.stderr)
        return e.exit_code
    except CheckFailed as e:
        print(f"sdnbench: check failed: {redact(str(e))}", file=sys.stderr)
        return e.exit_code
    except EngineDocumentError as e:
        print(f"sdnbench: internal error: sdnbench-engine wrote a document its schema refuses: {e} "
              "(a bug, or an engine built from other sources: rebuild with `cargo build --release`)",
              file=sys.stderr)
        return e.exit_code
    except Interrupted as e:
        print("sdnbench: interrupted; cleaned up", file=sys.stderr)
        return e.exit_code
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as e:
        if e.errno not in NO_ROOM and not (e.errno in NO_ACCESS and e.filename):
            return _internal_error()
        _quiet_stdout()
        if e.errno in NO_ROOM:
            where = f" {e.filename}" if e.filename else " the output"
            print(f"sdnbench: error: cannot write{where}: {e.strerror}; free some space or write elsewhere",
                  file=sys.stderr)
        else:
            print(f"sdnbench: error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    except Exception:
        return _internal_error()


NO_ROOM = (errno.ENOSPC, errno.EDQUOT)
NO_ACCESS = (errno.EROFS, errno.EACCES, errno.EPERM)     # said in one line for a named file only


def _internal_error() -> int:
    traceback.print_exc()
    print("sdnbench: internal error (a bug in sdnbench; please report it with the traceback above)", file=sys.stderr)
    return EXIT_INTERNAL


def _quiet_stdout() -> None:
    """Stdout cannot be written (a closed pipe, a full disk): point it at /dev/null so that the
    interpreter's last flush does not print an exception of its own."""
    import os
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
