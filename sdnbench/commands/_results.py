"""How a ``controller`` subcommand ends: its results written to ``-o``, printed with ``--json``,
saved with ``--store``, and the exit code (0 when every result is ok, else 2). Shared by
``controller`` and the suites it registers (discovery, provisioning, resilience), which is why
it is a module of its own: they import it, ``controller`` imports them."""

from __future__ import annotations

from .. import output
from ..result import write_json_atomic
from ..store.cli import save_if_asked


def save(args, results: list) -> None:
    if args.out:
        write_json_atomic(args.out, [r.to_dict() for r in results])


def finish(args, results: list) -> int:
    save(args, results)
    if args.json:
        output.print_json([r.to_dict() for r in results])
    if getattr(args, "store", None):
        for r in results:
            save_if_asked(args, r)
    return 0 if all(r.status == "ok" for r in results) else 2
