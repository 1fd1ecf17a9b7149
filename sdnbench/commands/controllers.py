"""``sdnbench controllers list|install|start``: the controllers under test.

  sdnbench controllers list [--json]              what runs here, versions, how to get the rest
  sdnbench controllers install NAME|all [--force]
  sdnbench controllers start SPEC [--port P] [--of VERSION] [--topo T]   foreground until Ctrl-C

faucet:auto (with --topo) is Faucet configured for the network; cmd:COMMAND has {port} (any
controller by its command line; options after ';': cwd=, env=K=V, of=1.0,1.3, http=URL, stop=INT,
grace=S, name=, version=, port=N).
"""

from __future__ import annotations

import argparse

from ..outputs import Outputs
from ..controllers import DEFAULT_SPEC, envs, launch
from ..controllers.inventory import inventory
from ..controllers.kinds import kind_of
from ..controllers.lifecycle import LAUNCH_OF_VERSION
from ..controllers.spec import OF_VERSIONS, parse_spec
from .. import fmt
from ..errors import UserError
from ..net.topology import parse_topology
from ..output import add_json_flag, print_json
from ._flags import above_zero, spec_forms


def register(sub) -> None:
    p = sub.add_parser("controllers", help="list, install and start controllers under test",
                       description=f"{__doc__}\nNAME is {', '.join(envs.RECIPES)}.\nSPEC is {spec_forms()}.\n", formatter_class=argparse.RawDescriptionHelpFormatter)
    csub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    p.set_defaults(func=lambda args, outputs: _usage(p))

    lp = csub.add_parser("list", help="controllers available here, versions, and how to get the rest")
    add_json_flag(lp)
    lp.set_defaults(func=run_list)

    ip = csub.add_parser("install", help="create or refresh a controller's isolated virtualenv")
    ip.add_argument("name", choices=[*envs.RECIPES, "all"])
    ip.add_argument("--force", action="store_true", help="reinstall even if already installed")
    ip.set_defaults(func=run_install)

    sp = csub.add_parser("start", help="run a controller in the foreground until Ctrl-C")
    sp.add_argument("spec", nargs="?", default=DEFAULT_SPEC, help=f"controller spec (default {DEFAULT_SPEC})")
    sp.add_argument("--port", type=int, help="OpenFlow port on 127.0.0.1 (default: a free one)")
    sp.add_argument("--of", dest="of_version", default=LAUNCH_OF_VERSION, choices=list(OF_VERSIONS),
                    help="OpenFlow version (default %(default)s)")
    sp.add_argument("--topo", help="the network's topology (e.g. linear,3), for faucet:auto's config")
    sp.add_argument("--timeout", type=above_zero, default=60.0, help="seconds to wait until it is ready")
    add_json_flag(sp)
    sp.set_defaults(func=run_start)


def _usage(parser) -> int:
    parser.print_help()
    return 1


def run_list(args, outputs: Outputs) -> int:
    rows = inventory()
    if args.json:
        print_json(rows)
        return 0
    print(fmt.table(["spec", "controller", "status", "version", "OpenFlow", "notes"],
                    [[r["spec"], r["controller"], r["status"], fmt.show(r["version"]),
                      ",".join(r["of_versions"]) or fmt.DASH, r["how"] or r["summary"]]
                     for r in rows if not r["spec"].startswith("cmd:")],
                    right=[False] * 6, shrink=[5]))
    recipes = [r for r in rows if r["spec"].startswith("cmd:")]
    if recipes:
        print("\nYour own installations, run by sdnbench with a cmd: spec (set the variable to "
              "your copy; `sdnbench controllers list --json` prints them whole):")
        for r in recipes:
            print(f"  {r['controller']} ({r['status']}): {r['summary']}")
            print(f"    --controller '{r['spec']}'")
    return 0


def run_install(args, outputs: Outputs) -> int:
    names = list(envs.RECIPES) if args.name == "all" else [args.name]
    for name in names:
        envs.install(name, force=args.force)
    return 0


def run_start(args, outputs: Outputs) -> int:
    if args.port is not None and not 0 < args.port < 65536:
        raise UserError(f"--port {args.port}: not a TCP port")
    if not kind_of(parse_spec(args.spec)).starts:
        raise UserError(f"{args.spec}: a {args.spec.partition(':')[0]}: controller runs elsewhere; "
                        "sdnbench only connects to it")
    with launch(args.spec, port=args.port, of_version=args.of_version, timeout=args.timeout,
                topology=parse_topology(args.topo) if args.topo else None) as ctl:
        if args.json:
            print_json(ctl.info)
        else:
            i = ctl.info
            print(f"{i['spec']}: {i['name']} {i['version']} ({i['app']}), OpenFlow {i['of_version']}, "
                  f"listening on {ctl.host}:{ctl.port}, pid {ctl.pid}")
            if ctl.api_url:
                print(f"topology API: {ctl.api_url}/v1/topology")
            if ctl.tls:
                sw = ctl.switch_tls
                print(f"TLS only; a switch connects with ssl:{ctl.target} and a certificate signed by {sw.ca}, "
                      f"e.g. sdnbench's own: ovs-vsctl set-ssl {sw.key} {sw.cert} {sw.ca}")
            print(f"log: {i['log']}")
            print("Ctrl-C to stop", flush=True)
        ctl.wait()
        ctl.check_alive()
    return 0
