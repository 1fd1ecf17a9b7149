"""``sdnbench install``: install an external system of the seed studies (POX, cbench, CPqD
ofsoftswitch13, NOX, Beacon) from a tree you have, and list what is installed.

    sdnbench install pox --from ~/pox      # check the tree, copy it, record it
    sdnbench install NAME                  # clone its public repository at the pinned commit
    sdnbench install --list                # what is installed, where, at which version

Installs go to <state dir>/installed/NAME with a manifest.json; scenarios and controller specs
find them there (``${POX_DIR}`` of a cmd: spec, ofdatapath/ofprotocol/cbench on PATH) with no
variable set. sdnbench does not build these systems: build a tree as its README says, then
install it with --from.
"""

from __future__ import annotations

from pathlib import Path

from ..outputs import Outputs
from .. import install
from ..errors import UserError
from ..output import add_json_flag, print_json, table


def register(sub) -> None:
    p = sub.add_parser("install", help="install POX, cbench, CPqD, NOX or Beacon from a tree you have; --list",
                       description=__doc__)
    p.add_argument("name", nargs="?", metavar="NAME", help=f"one of {', '.join(install.RECIPES)}")
    p.add_argument("--from", dest="source", metavar="DIR",
                   help="your checkout (built as its README says); without it the pinned commit is cloned")
    p.add_argument("--list", action="store_true", help="list the known systems: installed where, or not")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args, outputs: Outputs) -> int:
    if args.list:
        if args.name or args.source:
            raise UserError("install --list takes no NAME or --from")
        return _list(args.json)
    if not args.name:
        raise UserError(f"install: name a system ({', '.join(install.RECIPES)}) or give --list")
    recipe = install.recipe(args.name)
    if args.source:
        tree, source = Path(args.source), ""
    else:
        tree = install.fetch_pinned(recipe)
        source = recipe.url
    m = install.install_from(recipe, tree, source)
    if args.json:
        print_json(m.to_dict())
        return 0
    at = "the pinned version" if m.pinned else \
        f"not the pinned {recipe.pin[:12]} tested here" if m.version != "unknown" else "not a git checkout"
    print(f"installed {m.name} {m.version[:12]} ({at}) from {m.source} into {install.install_dir(m.name)} "
          f"in {m.copy_seconds:.1f} s")
    for e, path in m.entries.items():
        print(f"  {e}: {path}")
    if m.variable:
        print(f"  ${{{m.variable[0]}}} in cmd: specs now means {m.variable[1]} when it is not set")
    return 0


def _list(as_json: bool) -> int:
    done = {m.name: m for m in install.installed()}
    if as_json:
        print_json([dict(done[n].to_dict(), installed=True) if n in done else
                    {"name": n, "installed": False, "pin": r.pin, "url": r.url}
                    for n, r in install.RECIPES.items()])
        return 0
    rows = []
    for n, r in install.RECIPES.items():
        m = done.get(n)
        if m:
            rows.append([n, m.version[:12] + ("" if m.pinned else " (unpinned)"), m.installed_at,
                         str(install.install_dir(n))])
        else:
            rows.append([n, f"not installed (pin {r.pin[:12]})", "", r.url])
    print(table(["name", "version", "installed", "where"], rows))
    return 0
