"""``osken:APP``: os-ken 4.x running an app sdnbench ships (``controllers/apps/``, listed in
``catalog.OSKEN_APPS``), started by our launcher in the ``osken`` virtualenv."""

from __future__ import annotations

from pathlib import Path

from ...errors import UserError
from .. import envs
from ..catalog import OSKEN_APPS
from ..launchplan import HOST, LaunchPlan, base_env
from ..ofhello import free_port
from ..parsed import ControllerSpec
from ..tlsfiles import osken_listen
from .base import ControllerKind, installed_row

APPS_DIR = Path(__file__).resolve().parent.parent / "apps"
LAUNCHER = APPS_DIR / "launcher.py"


def parse(text: str, app) -> ControllerSpec:
    if app not in OSKEN_APPS:
        raise UserError(f"unknown os-ken app {app!r} in {text!r}; sdnbench ships: "
                        f"{', '.join(sorted(OSKEN_APPS))}")
    return ControllerSpec(text, "osken", app=app)


def plan(spec: ControllerSpec, port: int, of_version: str, scratch: Path) -> LaunchPlan:
    manifest = envs.require("osken")
    app = OSKEN_APPS[spec.app]
    argv = [str(envs.bin_path("osken")), str(LAUNCHER), "--ofp-listen-host", HOST,
            *osken_listen(spec, port), "--sdnbench-of-version", of_version]
    api_port = None
    if {"topology", "flowpush"} & set(app.module_list()):
        api_port = free_port(HOST)
        argv += ["--sdnbench-api-port", str(api_port)]
    argv += list(app.module_list())
    return LaunchPlan("os-ken", manifest["version"], spec.app, argv,
                      base_env(envs.venv_dir("osken") / "bin"), api_port=api_port)


def inventory() -> list:
    return [installed_row(f"osken:{a.name}", "os-ken", "osken", a.of_versions, a.summary)
            for a in OSKEN_APPS.values()]


KIND = ControllerKind(
    "osken", "osken:APP", parse, plan,
    versions=lambda spec: OSKEN_APPS[spec.app].of_versions,
    inventory=inventory,
    topology_api={"topology": "osken"},
    flow_api={"flowpush": "osken"},
    roles={"topology": "topology", "proactive": "flowpush", "reroute": "reroute", "takeover": "takeover"},
    doctor="controller-osken",
)
