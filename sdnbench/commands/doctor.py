"""``sdnbench doctor``: check this machine, one line per check with a fix for each failure."""

from __future__ import annotations

from ..outputs import Outputs
from .. import doctor
from ..output import add_json_flag, print_json

_MARK = {doctor.OK: "ok  ", doctor.WARN: "warn", doctor.FAIL: "FAIL"}


def register(sub) -> None:
    p = sub.add_parser("doctor", help="check what this machine can run, with fixes",
                       description=__doc__)
    p.add_argument("checks", nargs="*", metavar="CHECK", help="only these checks (default: all)")
    p.add_argument("--inventory", metavar="FILE",
                   help="check the hosts of an SSH inventory (login, tools) instead of this machine "
                        "(with CHECK names: those too)")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args, outputs: Outputs) -> int:
    inventory = getattr(args, "inventory", None)
    results = doctor.run_checks(args.checks or None) if args.checks or not inventory else []
    if inventory:
        from ..net.backends.hostcheck import check_inventory
        results += check_inventory(inventory)
    if args.json:
        print_json([c.to_dict() for c in results])
    else:
        width = max(len(c.name) for c in results)
        for c in results:
            line = f"[{_MARK[c.status]}] {c.name.ljust(width)}  {c.detail}"
            if c.fix and c.status != doctor.OK:
                line += f"\n       {'':{width}}  fix: {c.fix}"
            print(line)
    return 1 if any(c.status == doctor.FAIL for c in results) else 0
