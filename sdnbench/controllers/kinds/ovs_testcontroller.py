"""``ovs-testcontroller``: Open vSwitch's learning-switch test controller (from the
openvswitch-testcontroller package); its unixctl socket in the launch's scratch directory."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path
from typing import Optional

from ...errors import UserError
from ..launchplan import HOST, LaunchPlan, base_env
from ..parsed import ControllerSpec
from ..tlsfiles import controller_files
from .base import ControllerKind

NAME = "ovs-testcontroller"
VERSIONS = ("1.0", "1.3")
INSTALL = "apt-get install openvswitch-testcontroller"


def parse(text: str, rest) -> ControllerSpec:
    if rest is not None:
        raise UserError(f"{text!r}: ovs-testcontroller takes no argument")
    return ControllerSpec(text, NAME)


def plan(spec: ControllerSpec, port: int, of_version: str, scratch: Path) -> LaunchPlan:
    exe = shutil.which(NAME)
    if not exe:
        raise UserError(f"ovs-testcontroller not found (fix: {INSTALL})")
    proto = {"1.0": "OpenFlow10", "1.3": "OpenFlow13"}[of_version]
    argv = [exe, "-O", proto, f"--unixctl={scratch / 'ovs-testcontroller.ctl'}", "-vconsole:info"]
    if spec.tls:
        f = controller_files()
        argv += ["-p", str(f.key), "-c", str(f.cert), "-C", str(f.ca), f"pssl:{port}:{HOST}"]
    else:
        argv.append(f"ptcp:{port}:{HOST}")
    return LaunchPlan(NAME, ovs_testcontroller_version() or "unknown", "learning switch", argv, base_env())


@functools.lru_cache(maxsize=1)
def ovs_testcontroller_version() -> Optional[str]:
    exe = shutil.which(NAME)
    if not exe:
        return None
    cp = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    m = re.search(r"\d+\.\d+\.\d+", cp.stdout)
    return m.group(0) if m else None


def inventory() -> list:
    ovs = ovs_testcontroller_version()
    return [{"spec": NAME, "controller": NAME, "status": "installed" if ovs else "missing", "version": ovs,
             "of_versions": list(VERSIONS),
             "summary": "Open vSwitch's learning-switch test controller (at most 16 switches)",
             "how": "" if ovs else INSTALL}]


KIND = ControllerKind(NAME, NAME, parse, plan, versions=lambda spec: VERSIONS, inventory=inventory, doctor=NAME)
