"""A lab of engine agents on this machine (issue 20; docs/scale-out.md): every agent's "machine" is
a network namespace with its own addresses on a veth whose other end is a port of a Linux bridge
in the root namespace; the bridge carries the controller's address.

Per lab (prefix ``P``, a few random hex digits; subnet 10.N.0.0/24, N chosen so that no address of
it exists here):
- bridge ``P-br`` with 10.N.0.1/24 (the controller listens there);
- namespace ``P-aI`` (I = 1..), ``eth0`` with ``addrs`` addresses 10.N.0.(10 + addrs*(I-1) + j);
- agent spec ``netns:P-aI``.

``ssh()`` starts an sshd in every namespace (on its first address, a key made for the lab) and
returns the ``ssh:root@ADDR`` specs and the environment the engine needs to use them.

``AgentLab(n, addrs=1)`` is a context manager; leaving it stops every process still in its
namespaces (by PID: they are the engine agents this lab's runs started), deletes the namespaces,
veths and bridge, and checks that none is left (also after an exception).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def sh(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
    cp = subprocess.run(list(argv), capture_output=True, text=True, timeout=30)
    if check and cp.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {cp.stderr.strip()}")
    return cp


def _free_octet() -> int:
    used = sh("ip", "-4", "-o", "addr").stdout
    for n in random.sample(range(100, 250), 150):
        if f" 10.{n}." not in used:
            return n
    raise RuntimeError("no free 10.N.0.0/24 for the agent lab")


class AgentLab:
    __test__ = False

    def __init__(self, agents: int, addrs: int = 1) -> None:
        self.n, self.addrs = agents, addrs
        self.prefix = "ag" + "".join(random.choice("0123456789abcdef") for _ in range(4))
        self.octet = _free_octet()
        self.bridge = f"{self.prefix}-br"
        self.netns: list = []
        self.veths: list = []
        self.made_bridge = False
        self.sshd: list = []
        self.dir = Path(tempfile.mkdtemp(prefix=f"sdnbench-agentlab-{self.prefix}-"))

    @property
    def controller_ip(self) -> str:
        return f"10.{self.octet}.0.1"

    def ns(self, i: int) -> str:
        return f"{self.prefix}-a{i}"

    def spec(self, i: int) -> str:
        return f"netns:{self.ns(i)}"

    def specs(self) -> list:
        return [self.spec(i) for i in range(1, self.n + 1)]

    def agent_addrs(self, i: int) -> list:
        base = 10 + self.addrs * (i - 1)
        return [f"10.{self.octet}.0.{base + j}" for j in range(self.addrs)]

    def __enter__(self) -> "AgentLab":
        try:
            sh("ip", "link", "add", self.bridge, "type", "bridge")
            self.made_bridge = True
            sh("ip", "addr", "add", f"{self.controller_ip}/24", "dev", self.bridge)
            sh("ip", "link", "set", self.bridge, "up")
            for i in range(1, self.n + 1):
                self._agent(i)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _agent(self, i: int) -> None:
        ns, veth = self.ns(i), f"{self.prefix}v{i}"
        sh("ip", "netns", "add", ns)
        self.netns.append(ns)
        sh("ip", "link", "add", veth, "type", "veth", "peer", "name", f"{veth}x")
        self.veths.append(veth)
        sh("ip", "link", "set", f"{veth}x", "netns", ns, "name", "eth0")
        sh("ip", "link", "set", veth, "master", self.bridge)
        sh("ip", "link", "set", veth, "up")
        in_ns = ["ip", "netns", "exec", ns]
        sh(*in_ns, "ip", "link", "set", "lo", "up")
        for a in self.agent_addrs(i):
            sh(*in_ns, "ip", "addr", "add", f"{a}/24", "dev", "eth0")
        sh(*in_ns, "ip", "link", "set", "eth0", "up")

    def ssh(self, engine: str) -> tuple:
        """sshd in every namespace; returns (specs, env) for ``--agents`` over ssh."""
        key, host_key = self.dir / "id_ed25519", self.dir / "host_key"
        for k in (key, host_key):
            sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(k))
        (self.dir / "authorized_keys").write_text(Path(f"{key}.pub").read_text())
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        specs = []
        for i in range(1, self.n + 1):
            addr = self.agent_addrs(i)[0]
            cfg = self.dir / f"sshd-{i}.conf"
            cfg.write_text("\n".join([
                f"ListenAddress {addr}", "Port 22", f"HostKey {host_key}", "PidFile none",
                f"AuthorizedKeysFile {self.dir / 'authorized_keys'}", "StrictModes no",
                "PermitRootLogin prohibit-password", "PasswordAuthentication no", "UsePAM no", "UseDNS no",
                "PrintMotd no", "X11Forwarding no", "PermitTTY no", ""]))
            self.sshd.append(subprocess.Popen(["ip", "netns", "exec", self.ns(i), "/usr/sbin/sshd", "-D", "-e", "-f", str(cfg)],
                                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL, start_new_session=True))
            deadline = time.monotonic() + 10
            while True:
                with socket.socket() as s:
                    s.settimeout(0.5)
                    if s.connect_ex((addr, 22)) == 0:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"sshd in {self.ns(i)} did not listen on {addr}:22")
                time.sleep(0.05)
            specs.append(f"ssh:root@{addr}")
        env = {"SDNBENCH_AGENT_EXE": engine,
               "SDNBENCH_SSH_OPTS": f"-i {key} -o UserKnownHostsFile={self.dir / 'known_hosts'} -o LogLevel=ERROR"}
        return specs, env

    def pids(self, i: int) -> list:
        return [int(p) for p in sh("ip", "netns", "pids", self.ns(i), check=False).stdout.split()]

    def close(self) -> None:
        for p in self.sshd:
            p.terminate()
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.sshd = []
        for ns in self.netns:
            for pid in sh("ip", "netns", "pids", ns, check=False).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 5
        while any(sh("ip", "netns", "pids", ns, check=False).stdout.strip() for ns in self.netns) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        for ns in self.netns:
            sh("ip", "netns", "del", ns, check=False)
        for v in self.veths:
            sh("ip", "link", "del", v, check=False)
        if self.made_bridge:
            sh("ip", "link", "del", self.bridge, check=False)
        left = [n for n in self.netns if Path(f"/run/netns/{n}").exists()]
        left += [v for v in self.veths + [self.bridge] if sh("ip", "link", "show", v, check=False).returncode == 0]
        self.netns, self.veths, self.made_bridge = [], [], False
        shutil.rmtree(self.dir, ignore_errors=True)
        if left:
            raise RuntimeError(f"agent lab: left behind: {left}")
