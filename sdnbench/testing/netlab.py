"""The frame of the tests' network-namespace labs (the SSH backend's ``Testbed``, the cluster
backend's ``Rack``, the engine's ``AgentLab``): a random prefix naming everything the lab makes,
a directory of its own, namespaces with a veth each, SSH keys and an sshd per namespace from one
template, processes started in their own session and stopped by their process group, and one
teardown that deletes what the lab made, and only that, and fails if anything is left.

A lab subclass builds in ``build()``; leaving the ``with`` block (also after an exception in
``build``) runs ``close()`` (``sdnbench.lifecycle.Built``). Root only; addresses only in
namespaces and bridges of our own. A lab's ``main`` runs a command inside it (``split_command``,
``run_command``).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional

from ..lifecycle import Built

SSHD = "/usr/sbin/sshd"


def sh(*argv: str, check: bool = True, timeout: float = 30) -> subprocess.CompletedProcess:
    cp = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    if check and cp.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {cp.stderr.strip()}")
    return cp


def free_octet(net: str) -> int:
    """An N in 100..249 such that no address of ``net.format(n=N)`` (e.g. "172.31.{n}.") exists here."""
    used = sh("ip", "-4", "-o", "addr").stdout
    for n in random.sample(range(100, 250), 150):
        if f" {net.format(n=n)}" not in used:
            return n
    raise RuntimeError(f"no free {net.format(n='N')}0/24 here")


def split_command(argv: Optional[list]) -> tuple:
    """``(options, COMMAND)`` of a lab's ``main``: ``OPTIONS -- COMMAND ...`` (``sys.argv`` when None)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    return argv[:cut], argv[cut + 1:]


def run_command(cmd: list, file: Path, fill: dict) -> int:
    """A lab's ``main``: ``cmd`` with every ``{NAME}`` of ``fill`` replaced, to its end (its exit
    status); interrupted, it gets SIGINT and is waited for before the lab comes down. Without a
    command, ``file`` (what describes the lab) is printed."""
    if not cmd:
        print(file.read_text())
        return 0
    argv = []
    for c in cmd:
        for name, value in fill.items():
            c = c.replace(f"{{{name}}}", value)
        argv.append(c)
    p = subprocess.Popen(argv)
    try:
        return p.wait()
    except BaseException:
        p.send_signal(signal.SIGINT)
        p.wait()
        raise


def _cmdline(pid: str) -> Optional[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return None


class NetnsLab(Built):
    __test__ = False              # not a pytest test class
    KIND = "lab"                  # in the directory's name and the teardown's message

    def __init__(self, letters: str) -> None:
        self.prefix = letters + "".join(random.choice("0123456789abcdef") for _ in range(4))
        self.dir = Path(tempfile.mkdtemp(prefix=f"sdnbench-{self.KIND}-{self.prefix}-"))
        self.netns: list = []
        self.links: list = []         # veths (root ends) and Linux bridges
        self.ovs_bridges: list = []
        self.procs: list = []         # (what, Popen), in start order
        self.key = self.dir / "id_ed25519"

    # -- building ------------------------------------------------------------------------

    def add_netns(self, ns: str) -> None:
        sh("ip", "netns", "add", ns)
        self.netns.append(ns)
        self.in_ns(ns, "ip", "link", "set", "lo", "up")

    def in_ns(self, ns: str, *argv: str) -> subprocess.CompletedProcess:
        return sh("ip", "netns", "exec", ns, *argv)

    def veth_into(self, root_end: str, ns: str, ns_end: str = "eth0", master: Optional[str] = None) -> None:
        """A veth from the root namespace (``root_end``, up, a port of ``master`` if given) into
        ``ns`` as ``ns_end`` (left down: the caller addresses it)."""
        sh("ip", "link", "add", root_end, "type", "veth", "peer", "name", f"{root_end}x")
        self.links.append(root_end)
        sh("ip", "link", "set", f"{root_end}x", "netns", ns, "name", ns_end)
        if master:
            sh("ip", "link", "set", root_end, "master", master)
        sh("ip", "link", "set", root_end, "up")

    def address(self, ns: str, dev: str, *cidrs: str) -> None:
        for c in cidrs:
            self.in_ns(ns, "ip", "addr", "add", c, "dev", dev)
        self.in_ns(ns, "ip", "link", "set", dev, "up")

    def linux_bridge(self, name: str, cidr: str) -> None:
        sh("ip", "link", "add", name, "type", "bridge")
        self.links.append(name)
        sh("ip", "addr", "add", cidr, "dev", name)
        sh("ip", "link", "set", name, "up")

    def ssh_keys(self, *extra: str) -> None:
        """The lab's client key (``key``, authorized), its host key and ``extra`` keys, in ``dir``."""
        for k in ("id_ed25519", "host_key") + extra:
            sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.dir / k))
        shutil.copy(f"{self.key}.pub", self.dir / "authorized_keys")
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)     # sshd's privilege-separation dir

    def start_sshd(self, what: str, ns: str, addr: str, *options: str, log: bool = True) -> subprocess.Popen:
        """``sshd -D`` in ``ns`` listening on ``addr``:22 only, key login as root with the lab's key;
        ``options`` are further sshd_config lines."""
        cfg = self.dir / f"{what}.conf"
        cfg.write_text("\n".join([
            f"ListenAddress {addr}", "Port 22", f"HostKey {self.dir / 'host_key'}", "PidFile none",
            f"AuthorizedKeysFile {self.dir / 'authorized_keys'}", "StrictModes no",
            "PermitRootLogin prohibit-password", "PasswordAuthentication no",
            "KbdInteractiveAuthentication no", "UsePAM no", "UseDNS no", "PrintMotd no", "PrintLastLog no",
            "X11Forwarding no", *options, ""]))
        return self.spawn(what, ["ip", "netns", "exec", ns, SSHD, "-D", "-e", "-f", str(cfg)], log=log)

    def spawn(self, what: str, argv: list, env: Optional[dict] = None, log: bool = True) -> subprocess.Popen:
        """A process of the lab in a session of its own, output to ``dir/WHAT.log`` (or nowhere)."""
        out = open(self.dir / f"{what}.log", "ab") if log else subprocess.DEVNULL
        try:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True, env={**os.environ, **(env or {})})
        finally:
            if log:
                out.close()
        self.procs.append((what, p))
        return p

    def wait(self, ok: Callable[[], bool], what: str, timeout: float = 15) -> None:
        """Until ``ok()``; fails at once if a process of the lab exited, naming it and its log's end."""
        deadline = time.monotonic() + timeout
        while not ok():
            dead = [w for w, p in self.procs if p.poll() is not None]
            if dead:
                log = self.dir / f"{dead[0]}.log"
                raise RuntimeError(f"{dead[0]} exited: {log.read_text()[-300:] if log.exists() else ''}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start within {timeout:g}s")
            time.sleep(0.05)

    def wait_listening(self, addr: str, port: int, what: str, timeout: float = 15) -> None:
        def listening() -> bool:
            with socket.socket() as s:
                s.settimeout(0.5)
                return s.connect_ex((addr, port)) == 0
        self.wait(listening, f"{what} on {addr}:{port}", timeout)

    # -- inspecting and tearing down -----------------------------------------------------

    def others_in(self, ns: str, keep: set) -> list:
        """"PID command" of each process in ``ns`` whose PID is not in ``keep``."""
        out = []
        for pid in sh("ip", "netns", "pids", ns, check=False).stdout.split():
            cmd = None if int(pid) in keep else _cmdline(pid)
            if cmd is not None:
                out.append(f"{pid} {cmd}")
        return out

    def close(self) -> None:
        for _w, p in reversed(self.procs):
            _stop(p)
        for ns in self.netns:
            for pid in sh("ip", "netns", "pids", ns, check=False).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)     # only processes inside our namespace
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 5
        while any(sh("ip", "netns", "pids", ns, check=False).stdout.strip() for ns in self.netns) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        for ns in self.netns:
            sh("ip", "netns", "del", ns, check=False)
        for v in self.links:
            if Path(f"/sys/class/net/{v}").exists():
                sh("ip", "link", "del", v, check=False)
        for br in self.ovs_bridges:
            sh("ovs-vsctl", "--timeout=20", "--if-exists", "del-br", br, check=False)
        left = [n for n in self.netns if Path(f"/run/netns/{n}").exists()]
        left += [v for v in self.links if Path(f"/sys/class/net/{v}").exists()]
        left += [b for b in self.ovs_bridges if sh("ovs-vsctl", "br-exists", b, check=False).returncode == 0]
        self.procs, self.netns, self.links, self.ovs_bridges = [], [], [], []
        shutil.rmtree(self.dir, ignore_errors=True)
        if left:
            raise RuntimeError(f"{self.KIND} {self.prefix} left {', '.join(left)}")


def _stop(p: subprocess.Popen) -> None:
    """SIGTERM to the process group, SIGKILL after 5 s."""
    if p.poll() is not None:
        return
    try:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(timeout=5)
    except ProcessLookupError:
        p.wait(timeout=5)
