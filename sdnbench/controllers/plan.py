"""How each kind of controller is started: argv, environment and files, decided before anything runs.

``plan_for`` is the one place that knows each controller's command line. It only reads (the
environment manifests, the faucet config's existence); ``lifecycle`` does the starting.

Every plan binds OpenFlow to 127.0.0.1 and moves every other socket a controller would open
(Ryu's REST API, Faucet's Prometheus exporter, ovs-testcontroller's unixctl socket) onto loopback
or into the launch's scratch directory. Nothing is written outside the state directory: Faucet's
logs, config-stat files and exception log are pointed there through its environment variables.
"""

from __future__ import annotations

import functools
import os
import signal
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..errors import UserError
from . import envs
from .catalog import OSKEN_APPS, of_versions_for
from .cmdplan import cmd_plan
from .ofhello import free_port
from .spec import ControllerSpec, ryu_module

APPS_DIR = Path(__file__).resolve().parent / "apps"
LAUNCHER = APPS_DIR / "launcher.py"
HOST = "127.0.0.1"


@dataclass
class LaunchPlan:
    name: str                       # os-ken, ryu, faucet, ovs-testcontroller
    version: str
    app: Optional[str]
    argv: list
    env: dict
    files: dict = field(default_factory=dict)     # path -> text, written before start
    api_port: Optional[int] = None                # the topology app's HTTP API
    metrics_port: Optional[int] = None            # Faucet's Prometheus exporter (loopback)
    stop_signal: int = signal.SIGTERM             # what asks it to stop (cmd: may change it)
    grace: float = 5.0                            # seconds between that signal and SIGKILL
    cwd: Optional[Path] = None                    # default: the launch's scratch directory
    ready_url: Optional[str] = None               # also wait for this HTTP URL to answer
    ready_s: Optional[float] = None               # its start-up limit (cmd: ready=); None: the launch's

    def info(self, spec: ControllerSpec, of_version: str, port: int) -> dict:
        d = {"spec": spec.text, "name": self.name, "version": self.version, "app": self.app,
             "of_version": of_version, "host": HOST, "port": port}
        if self.api_port:
            d["api"] = f"http://{HOST}:{self.api_port}"
        if self.metrics_port:
            d["metrics"] = f"http://{HOST}:{self.metrics_port}/metrics"
        if spec.kind == "cmd":
            d["command"] = " ".join(self.argv)
        return d


def plan_for(spec: ControllerSpec, port: int, of_version: str, scratch: Path) -> LaunchPlan:
    """The launch plan for a managed controller (not ``tcp:``)."""
    _check_of_version(spec, of_version)
    if spec.kind == "osken":
        return _osken(spec, port, of_version)
    if spec.kind == "ryu":
        return _ryu(spec, port, scratch)
    if spec.kind == "faucet":
        return _faucet(spec, port, scratch)
    if spec.kind == "ovs-testcontroller":
        return _ovs_testcontroller(port, of_version, scratch)
    if spec.kind == "cmd":
        return cmd_plan(spec, port)
    raise ValueError(f"no launch plan for {spec.kind}")


def spoken_versions(spec: ControllerSpec) -> tuple:
    """The OpenFlow versions the controller speaks, as far as sdnbench knows (() = unknown):
    a ``cmd:`` spec's ``of=``, else the catalogue's."""
    return spec.command.of_versions if spec.command else of_versions_for(spec.kind, spec.app)


def _check_of_version(spec: ControllerSpec, of_version: str) -> None:
    speaks = spoken_versions(spec)
    if speaks and of_version not in speaks:
        raise UserError(f"{spec.text} speaks OpenFlow {' and '.join(speaks)} only, "
                        f"not {of_version} (use --of {speaks[-1]})")


def base_env(venv_bin: Optional[Path] = None) -> dict:
    """A small, explicit environment: no PYTHONPATH or VIRTUAL_ENV from the caller's."""
    path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    env = {"PATH": f"{venv_bin}:{path}" if venv_bin else path,
           "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
    return env


def _osken(spec: ControllerSpec, port: int, of_version: str) -> LaunchPlan:
    manifest = envs.require("osken")
    app = OSKEN_APPS[spec.app]
    argv = [str(envs.bin_path("osken")), str(LAUNCHER), "--ofp-listen-host", HOST,
            "--ofp-tcp-listen-port", str(port), "--sdnbench-of-version", of_version]
    api_port = None
    if {"topology", "flowpush"} & set(app.module_list()):
        api_port = free_port(HOST)
        argv += ["--sdnbench-api-port", str(api_port)]
    argv += list(app.module_list())
    return LaunchPlan("os-ken", manifest["version"], spec.app, argv,
                      base_env(envs.venv_dir("osken") / "bin"), api_port=api_port)


def _ryu(spec: ControllerSpec, port: int, scratch: Path) -> LaunchPlan:
    manifest = envs.require("ryu")
    empty = scratch / "ryu.conf"
    wsapi = free_port(HOST)
    argv = [str(envs.bin_path("ryu", "ryu-manager")), "--config-file", str(empty),
            "--ofp-listen-host", HOST, "--ofp-tcp-listen-port", str(port),
            "--wsapi-host", HOST, "--wsapi-port", str(wsapi), ryu_module(spec.app)]
    if spec.app == "rest_topology":
        # its REST view is only filled when ryu.topology.switches sends and reads LLDP
        argv.insert(-1, "--observe-links")
    return LaunchPlan("ryu", manifest["version"], spec.app, argv,
                      base_env(envs.venv_dir("ryu") / "bin"), files={empty: ""}, api_port=wsapi)


def _faucet(spec: ControllerSpec, port: int, scratch: Path) -> LaunchPlan:
    manifest = envs.require("faucet")
    config = Path(spec.app).expanduser().resolve()
    if not config.is_file():
        raise UserError(f"{spec.text}: no such config file {config}")
    empty = scratch / "os_ken.conf"
    argv = [str(envs.bin_path("faucet", "osken-manager")), "--config-file", str(empty),
            "--ofp-listen-host", HOST, "--ofp-tcp-listen-port", str(port), "faucet.faucet"]
    env = base_env(envs.venv_dir("faucet") / "bin")
    prometheus = free_port(HOST)
    env.update(faucet_env(config, scratch, prometheus))
    return LaunchPlan("faucet", manifest["version"], str(config), argv, env, files={empty: ""},
                      metrics_port=prometheus)


def faucet_env(config: Path, scratch: Path, prometheus_port: int) -> dict:
    """Faucet's settings, all inside sdnbench's state directory or on loopback. Its logs go to
    stdout/stderr, which sdnbench captures in the controller log."""
    return {
        "FAUCET_CONFIG": str(config),
        "FAUCET_CONFIG_STAT_RELOAD": "0",
        "FAUCET_LOG": "STDOUT",
        "FAUCET_EXCEPTION_LOG": "STDERR",
        "FAUCET_EVENT_SOCK": "0",
        "FAUCET_PROMETHEUS_ADDR": HOST,
        "FAUCET_PROMETHEUS_PORT": str(prometheus_port),
        "GAUGE_CONFIG": str(scratch / "gauge.yaml"),
        "GAUGE_LOG": str(scratch / "gauge.log"),
        "GAUGE_EXCEPTION_LOG": str(scratch / "gauge_exception.log"),
        "GAUGE_PROMETHEUS_ADDR": HOST,
    }


def _ovs_testcontroller(port: int, of_version: str, scratch: Path) -> LaunchPlan:
    exe = shutil.which("ovs-testcontroller")
    if not exe:
        raise UserError("ovs-testcontroller not found (fix: apt-get install openvswitch-testcontroller)")
    proto = {"1.0": "OpenFlow10", "1.3": "OpenFlow13"}[of_version]
    argv = [exe, "-O", proto, f"--unixctl={scratch / 'ovs-testcontroller.ctl'}",
            "-vconsole:info", f"ptcp:{port}:{HOST}"]
    return LaunchPlan("ovs-testcontroller", ovs_testcontroller_version() or "unknown",
                      "learning switch", argv, base_env())


@functools.lru_cache(maxsize=1)
def ovs_testcontroller_version() -> Optional[str]:
    exe = shutil.which("ovs-testcontroller")
    if not exe:
        return None
    cp = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    m = re.search(r"\d+\.\d+\.\d+", cp.stdout)
    return m.group(0) if m else None
