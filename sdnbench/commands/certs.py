"""``sdnbench certs``: the certificates for OpenFlow over TLS (docs/tls.md).

    sdnbench certs                    # make them once (a CA, a controller and a switch certificate)
    sdnbench certs --force --days 30  # make new ones
    sdnbench certs --check            # check the set: dates, keys, CA, names

Kept in the state directory (``tls/``) unless ``--dir``; every TLS run reuses them: a managed
controller (``osken:learning;tls``) listens with the controller's, the engine's switches and Open
vSwitch connect with the switch's.
"""

from __future__ import annotations

from ..outputs import Outputs
from ..errors import UserError
from ..output import add_json_flag, print_json
from ..tls import certs
from ..tls.check import check
from ._flags import path


def register(sub) -> None:
    p = sub.add_parser("certs", help="make (or reuse) the certificates for OpenFlow over TLS",
                       description=__doc__)
    p.add_argument("--dir", type=path, metavar="DIR", help="where to keep them (default: tls/ in the state directory)")
    p.add_argument("--days", type=int, default=certs.DAYS, help=f"validity of new ones, days ({certs.DAYS})")
    p.add_argument("--force", action="store_true", help="make new ones even if the set is still good")
    p.add_argument("--check", action="store_true", help="check the set and make nothing (exit 1 on a problem)")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args, outputs: Outputs) -> int:
    if not 1 <= args.days <= 3650:
        raise UserError(f"--days {args.days}: give between 1 and 3650 days")
    if args.check:
        cs = certs.layout(args.dir or certs.default_dir())
        check(cs.controller, "controller", host="127.0.0.1", peer_cert=cs.switch.cert)
        check(cs.switch, "switch", peer_cert=cs.controller.cert)
        said = "good"
    else:
        cs = certs.ensure(args.dir, days=args.days, force=args.force)
        said = "made" if cs.made else "reused"
    files = {"controller": {k: str(v) for k, v in cs.controller.paths().items()},
             "switch": {k: str(v) for k, v in cs.switch.paths().items()}}
    if args.json:
        print_json({"dir": str(cs.dir), "status": said, **files})
        return 0
    print(f"{said}: {cs.dir} (ECDSA P-256, one CA signs both)")
    for role, f in files.items():
        print(f"  {role:<10}  ca   {f['ca']}\n{'':14}cert {f['cert']}\n{'':14}key  {f['key']}")
    return 0
