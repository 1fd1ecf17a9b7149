"""``ryu:APP``: Ryu 4.34's ryu-manager running ``ryu.app.APP`` (a dotted name is taken as a
module path), in the ``ryu`` virtualenv; its REST API (wsapi) on loopback."""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import UserError
from .. import envs
from ..catalog import RYU_APPS
from ..launchplan import HOST, LaunchPlan, base_env
from ..ofhello import free_port
from ..parsed import ControllerSpec
from ..tlsfiles import osken_listen
from .base import ControllerKind, installed_row

_RYU_APP = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def parse(text: str, app) -> ControllerSpec:
    # ryu:simple_switch_13 means ryu.app.simple_switch_13; a dotted name is taken as a module path.
    if not app or not _RYU_APP.match(app):
        raise UserError(f"bad Ryu app in {text!r}: expected ryu:APP, e.g. ryu:simple_switch_13 "
                        f"(known: {', '.join(sorted(RYU_APPS))})")
    return ControllerSpec(text, "ryu", app=app)


def ryu_module(app: str) -> str:
    """The module ryu-manager loads for ``ryu:APP``."""
    return app if "." in app else f"ryu.app.{app}"


def precheck(spec: ControllerSpec) -> None:
    """Ryu 4.34 cannot serve OpenFlow over TLS: its ``ryu/lib/hub.py`` (``StreamServer``) pops the
    SSL context, certificate and key out of the arguments it shares between connections when the
    first one arrives, so every later handshake fails "no shared cipher" (seen here: the first
    session works, the second and third are refused). os-ken, its fork, fixed it (the context is taken once, in ``__init__``)."""
    if spec.tls:
        raise UserError(f"{spec.text}: Ryu 4.34 cannot serve OpenFlow over TLS (its hub.py loses the "
                        "certificate after the first connection: every later handshake fails 'no shared "
                        "cipher'); use os-ken, its fork, e.g. osken:learning;tls (docs/tls.md)")


def plan(spec: ControllerSpec, port: int, of_version: str, scratch: Path) -> LaunchPlan:
    precheck(spec)
    manifest = envs.require("ryu")
    empty = scratch / "ryu.conf"
    wsapi = free_port(HOST)
    argv = [str(envs.bin_path("ryu", "ryu-manager")), "--config-file", str(empty),
            "--ofp-listen-host", HOST, *osken_listen(spec, port),
            "--wsapi-host", HOST, "--wsapi-port", str(wsapi), ryu_module(spec.app)]
    if spec.app == "rest_topology":
        # its REST view is only filled when ryu.topology.switches sends and reads LLDP
        argv.insert(-1, "--observe-links")
    return LaunchPlan("ryu", manifest["version"], spec.app, argv,
                      base_env(envs.venv_dir("ryu") / "bin"), files={empty: ""}, api_port=wsapi)


def versions(spec: ControllerSpec) -> tuple:
    known = RYU_APPS.get(spec.app or "")
    return known.of_versions if known else ()


def inventory() -> list:
    return [installed_row(f"ryu:{a.name}", "Ryu", "ryu", a.of_versions, a.summary) for a in RYU_APPS.values()]


KIND = ControllerKind(
    "ryu", "ryu:APP", parse, plan, versions=versions, inventory=inventory, precheck=precheck,
    topology_api={"rest_topology": "ryu"},
    flow_api={"*": "ryu"},     # any app: flows go to its wsapi (refused there unless ofctl_rest is loaded)
    roles={"topology": "rest_topology", "proactive": "ofctl_rest"},
    doctor="controller-ryu",
)
