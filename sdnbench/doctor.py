"""``sdnbench doctor``: what this machine can and cannot do, with a fix for every failure.

Each check returns a ``Check``; ``run_checks`` gathers them. Other commands call ``require(...)``
with the check names they depend on, so they refuse up front, in one line, rather than half-way
through a run.

Probes that need a scratch network (qdiscs, nftables) run inside ``unshare --net``: the
namespace dies with the probe process, so nothing is ever left behind.
"""

from __future__ import annotations

import importlib
import os
import re
import resource
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from typing import Optional

from . import paths, scale_limits
from .errors import UserError

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass
class Check:
    name: str
    status: str                   # ok, warn or fail
    detail: str
    fix: str = ""
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def _run(argv: list, timeout: float = 10) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except (FileNotFoundError, PermissionError) as e:
        return subprocess.CompletedProcess(argv, 127, "", str(e))
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(argv, 124, "", f"timed out after {timeout}s")


def check_root() -> Check:
    if os.geteuid() == 0:
        return Check("root", OK, "running as root")
    return Check("root", FAIL, f"running as uid {os.geteuid()}",
                 "Mininet, OVS and tcpdump need root: run sdnbench as root (sudo)")


def check_netns() -> Check:
    cp = _run(["unshare", "--net", "ip", "link", "set", "lo", "up"])
    if cp.returncode == 0:
        return Check("netns", OK, "network namespaces can be created")
    return Check("netns", FAIL, f"cannot create a network namespace: {_last(cp)}",
                 "run as root on a kernel with CONFIG_NET_NS (containers need CAP_SYS_ADMIN)")


def check_ovs() -> Check:
    if not shutil.which("ovs-vsctl"):
        return Check("ovs", FAIL, "ovs-vsctl not found", "apt-get install openvswitch-switch (or `make setup`)")
    cp = _run(["ovs-vsctl", "--timeout=5", "get", "Open_vSwitch", ".", "datapath_types"])
    if cp.returncode != 0:
        return Check("ovs", FAIL, "Open vSwitch is not running",
                     "/usr/share/openvswitch/scripts/ovs-ctl start --system-id=random")
    types = re.findall(r"[a-z]+", cp.stdout)
    kernel = os.path.isdir("/sys/module/openvswitch") or _modprobe_ok("openvswitch")
    version = _first(_run(["ovs-vswitchd", "--version"]).stdout)
    datapath = "kernel" if kernel and "system" in types else ("user" if "netdev" in types else None)
    data = {"datapath_types": types, "kernel_module": kernel, "datapath": datapath, "version": version}
    if datapath is None:
        return Check("ovs", FAIL, f"no usable datapath (types: {types})",
                     "load the openvswitch module or use an OVS build with the netdev datapath", data)
    if datapath == "user":
        return Check("ovs", WARN,
                     f"{version}; no openvswitch kernel module: using the userspace datapath "
                     "(datapath=user, datapath_type=netdev), slower than the kernel datapath", "", data)
    return Check("ovs", OK, f"{version}; kernel datapath available", "", data)


def _modprobe_ok(module: str) -> bool:
    return _run(["modprobe", "-n", module]).returncode == 0 and \
        _run(["modprobe", module]).returncode == 0


def _probe_in_netns(script: str) -> subprocess.CompletedProcess:
    return _run(["unshare", "--net", "sh", "-ec", script], timeout=15)


def check_qdiscs() -> Check:
    found = {}
    for qdisc, args in (("htb", "htb default 1"), ("netem", "netem delay 1ms")):
        cp = _probe_in_netns(f"ip link add sb0 type veth peer name sb1; tc qdisc add dev sb0 root handle 1: {args}")
        found[qdisc] = cp.returncode == 0
    data = {"qdiscs": found}
    if not found["htb"]:
        return Check("tc", FAIL, "tc cannot install the htb qdisc: link bandwidth limits are unavailable",
                     "use a kernel with sch_htb", data)
    if not found["netem"]:
        return Check("tc", WARN, "htb works; netem is missing: link delay and jitter are disabled, "
                     "and loss falls back to nftables (numgen random)",
                     "for delay/jitter use a kernel with sch_netem (modprobe sch_netem)", data)
    return Check("tc", OK, "htb and netem available", "", data)


def check_nftables() -> Check:
    cp = _probe_in_netns("nft add table inet sb; nft add chain inet sb c '{ type filter hook input priority 0; }';"
                         " nft add rule inet sb c numgen random mod 100 '<' 5 drop")
    if cp.returncode == 0:
        return Check("nftables", OK, "nftables numgen random works (loss emulation fallback)")
    return Check("nftables", WARN, f"nftables unavailable: {_last(cp)}; link loss cannot be emulated",
                 "apt-get install nftables; a kernel with nf_tables")


_TOOLS = {
    # name: (argv for the version, fix)
    "iperf3": (["iperf3", "--version"], "apt-get install iperf3"),
    "ditg": (["ITGSend", "-v"], "apt-get install d-itg"),
    "tcpdump": (["tcpdump", "--version"], "apt-get install tcpdump"),
    "ping": (["ping", "-V"], "apt-get install iputils-ping"),
    "ethtool": (["ethtool", "--version"], "apt-get install ethtool"),
    "mininet": (["mn", "--version"], "apt-get install mininet"),
    "ovs-testcontroller": (["ovs-testcontroller", "--version"], "apt-get install openvswitch-testcontroller"),
}


def tool_version(name: str) -> Optional[str]:
    argv, _ = _TOOLS[name]
    if not shutil.which(argv[0]):
        return None
    cp = _run(argv)
    text = (cp.stdout + "\n" + cp.stderr).strip()
    m = re.search(r"\d+\.\d+(\.\d+)?[\w.+~-]*", text)
    if name == "ditg":
        # ITGSend has no version flag; its banner and the Debian package carry the version.
        pkg = _run(["dpkg-query", "-W", "-f=${Version}", "d-itg"])
        return pkg.stdout.strip() or "installed"
    return m.group(0) if m else (text.splitlines()[0] if text else "installed")


def check_tool(name: str) -> Check:
    version = tool_version(name)
    if version is None:
        return Check(name, FAIL, f"{_TOOLS[name][0][0]} not found", _TOOLS[name][1])
    return Check(name, OK, f"{name} {version}", "", {"version": version})


def check_python_mininet() -> Check:
    try:
        import mininet.net  # noqa: F401
        from mininet.net import VERSION
    except ImportError:
        return Check("mininet-python", FAIL, "the mininet Python package is not importable",
                     "use the venv made from /usr/bin/python3 --system-site-packages (`make setup`)")
    return Check("mininet-python", OK, f"mininet {VERSION} importable", "", {"version": VERSION})


def check_engine() -> Check:
    binary = paths.engine_binary()
    if not binary.exists():
        return Check("engine", FAIL, f"{binary} not built", "cargo build --release (or `make setup`)")
    cp = _run([str(binary), "--version"])
    if cp.returncode != 0:
        return Check("engine", FAIL, f"{binary} --version failed: {_last(cp)}", "cargo build --release")
    return Check("engine", OK, cp.stdout.strip(), "", {"path": str(binary)})


def check_fd_limit() -> Check:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    data = {"soft": soft, "hard": hard}
    detail = f"open files: soft {soft}, hard {hard}"
    if hard != resource.RLIM_INFINITY and hard < 200_000:
        return Check("fd-limit", WARN,
                     f"{detail}; one process holds at most ~{hard - 100} switch sessions, "
                     "so the engine shards larger runs across worker processes", "", data)
    return Check("fd-limit", OK, detail, "", data)


def check_scale_kernel(sessions: Optional[int] = None) -> Check:
    """The kernel settings (and memory) a run of `sessions` switches needs (scale_limits.py)."""
    n = sessions or scale_limits.TARGET_SESSIONS
    rows = scale_limits.evaluate(scale_limits.read(), n, scale_limits.mem_available_kib())
    warns = [r for r in rows if r[0] == WARN]
    data = {"sessions": n, "findings": [dict(zip(("status", "key", "detail", "fix"), r)) for r in rows]}
    if not warns:
        return Check("scale-kernel", OK, f"kernel settings fit {n:,} loopback sessions", "", data)
    return Check("scale-kernel", WARN, f"for {n:,} sessions: " + "; ".join(f"{k} {t.split(':')[0]}" for _, k, t, _ in warns),
                 "; ".join(f for *_, f in warns), data)


CHECKS: dict = {
    "root": check_root,
    "netns": check_netns,
    "ovs": check_ovs,
    "tc": check_qdiscs,
    "nftables": check_nftables,
    "mininet-python": check_python_mininet,
    "engine": check_engine,
    "fd-limit": check_fd_limit,
    "scale-kernel": check_scale_kernel,
}
for _name in _TOOLS:
    CHECKS[_name] = (lambda n: lambda: check_tool(n))(_name)

# Modules that add checks of their own: each exposes ``doctor_checks() -> dict[name, fn]``.
EXTRA_CHECK_MODULES = ("sdnbench.controllers.doctor", "sdnbench.switchbench.doctor")


def all_checks() -> dict:
    checks: dict = dict(CHECKS)
    for modname in EXTRA_CHECK_MODULES:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name and modname.startswith(e.name):
                continue
            raise
        checks.update(mod.doctor_checks())
    return checks


def run_checks(names: Optional[list] = None) -> list:
    checks = all_checks()
    unknown = [n for n in names or [] if n not in checks]
    if unknown:
        raise UserError(f"unknown doctor check(s): {', '.join(unknown)}; known: {', '.join(checks)}")
    return [checks[n]() for n in (names or list(checks))]


def require(*names: str) -> dict:
    """Run the named checks; raise a one-line UserError at the first failure. Returns the checks
    by name so callers can read their data (e.g. which OVS datapath to use)."""
    results = {c.name: c for c in run_checks(list(names))}
    for c in results.values():
        if c.status == FAIL:
            raise UserError(f"{c.name}: {c.detail}" + (f" (fix: {c.fix})" if c.fix else ""))
    return results


def _first(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _last(cp: subprocess.CompletedProcess) -> str:
    lines = (cp.stderr or cp.stdout or "").strip().splitlines()
    return lines[-1] if lines else f"exit {cp.returncode}"


