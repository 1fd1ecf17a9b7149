"""The ``sdnbench`` command line: one subcommand per module in ``sdnbench.commands``.

Every module in ``sdnbench/commands/`` that defines ``register(subparsers)`` becomes a
subcommand; ``register`` adds its parser and sets ``func`` (called with the parsed args; it
returns an exit code or None).

Exit codes: 0 ok; 1 user error (one line on stderr, no traceback); 2 a measured check failed;
>2 an internal error (with its traceback); 128+N when stopped by signal N.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Optional, Sequence

from .commands._parser import _ARGV, build_parser
from .errors import CheckFailed, Interrupted, UserError
from .install import with_installed_path
from .proc import signals_as_exceptions
from .procreg import mark_owner

EXIT_INTERNAL = 3
__all__ = ["main", "build_parser", "EXIT_INTERNAL"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    mark_owner()          # every process sdnbench starts carries it: `net clean` finds orphans
    # what `sdnbench install` put on PATH (ofdatapath, ofprotocol, cbench), after the user's own
    os.environ["PATH"] = with_installed_path(os.environ.get("PATH", ""))
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
