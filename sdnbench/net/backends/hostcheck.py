"""Doctor checks for the hosts of an inventory: one ``doctor.Check`` per host (``host:NAME``):
can it be reached and logged into with its key, and are the measurement tools on its PATH.
``sdnbench doctor --inventory FILE``."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from ...doctor import FAIL, OK, Check
from . import inventory as inv
from . import remote
from .ssh import BASE_TOOLS, TOOLS

VERSIONS = {"iperf3": "iperf3 --version 2>&1 | head -n 1", "ping": "ping -V 2>&1 | head -n 1",
            "ITGSend": "ITGSend -v 2>&1 | grep -i version | head -n 1"}


def check_inventory(path: str) -> list:
    try:
        lab = inv.load(path)
    except inv.InventoryError as e:
        return [Check("inventory", FAIL, str(e), "fix the inventory file")]
    with ThreadPoolExecutor(max_workers=min(16, len(lab.hosts))) as pool:
        return list(pool.map(check_host, lab.hosts))


def check_host(h: inv.RemoteHost) -> Check:
    name = f"host:{h.name}"
    try:
        s = remote.RemoteHostSession(h, "doctor")
    except remote.RemoteError as e:
        return Check(name, FAIL, str(e), "check the address, port, user and key in the inventory "
                                        "(ssh -i KEY -p PORT USER@ADDRESS true)")
    try:
        tools = list(dict.fromkeys(BASE_TOOLS + [t for ts in TOOLS.values() for t in ts]))
        missing = s.missing_tools(tools)
        on = f"PATH={h.path}" if h.path else "the login PATH"
        data = {"ssh": f"{h.user}@{h.ssh}:{h.port}", "missing": missing, "versions": {}}
        for tool, cmd in VERSIONS.items():
            if tool not in missing:
                data["versions"][tool] = s.shell((f"PATH='{h.path}'; " if h.path else "") + cmd)[1].strip()
    finally:
        s.close()
    if missing:
        unused = [m for m in missing if m in ("ITGSend", "ITGRecv")]
        needed = [m for m in missing if m not in unused]
        fix = f"install {', '.join(missing)} on {h.name} (Debian: iperf3, d-itg, iproute2, iputils-ping) " \
              f"or point path: in the inventory at them"
        if not needed:
            return Check(name, "warn", f"{data['ssh']}: {', '.join(unused)} not found on {on} "
                                       "(D-ITG measurements cannot run)", fix, data)
        return Check(name, FAIL, f"{data['ssh']}: {', '.join(missing)} not found on {on}", fix, data)
    v = "; ".join(f"{k}: {val}" for k, val in data["versions"].items() if val)
    return Check(name, OK, f"{data['ssh']}: login ok, every tool found ({v})", data=data)
