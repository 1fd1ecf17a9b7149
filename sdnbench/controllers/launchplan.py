"""What starting a managed controller takes (``LaunchPlan``), decided before anything runs.

Each kind (``kinds/``) makes its own plan; ``lifecycle`` does the starting. Every plan binds
OpenFlow to ``HOST`` (loopback) and moves every other socket a controller would open onto
loopback or into the launch's scratch directory.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .parsed import ControllerSpec

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
    show_command: bool = False                    # record the command line (the user's own: cmd:)

    def info(self, spec: ControllerSpec, of_version: str, port: int) -> dict:
        d = {"spec": spec.text, "name": self.name, "version": self.version, "app": self.app,
             "of_version": of_version, "host": HOST, "port": port}
        if self.api_port:
            d["api"] = f"http://{HOST}:{self.api_port}"
        if self.metrics_port:
            d["metrics"] = f"http://{HOST}:{self.metrics_port}/metrics"
        if self.show_command:
            d["command"] = " ".join(self.argv)
        return d


def base_env(venv_bin: Optional[Path] = None) -> dict:
    """A small, explicit environment: no PYTHONPATH or VIRTUAL_ENV from the caller's."""
    path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    env = {"PATH": f"{venv_bin}:{path}" if venv_bin else path,
           "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
    return env
