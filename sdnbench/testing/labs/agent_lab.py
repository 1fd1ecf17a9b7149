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

``AgentLab(n, addrs=1)`` is a context manager (``sdnbench.testing.netlab``); leaving it stops
every process still in its namespaces (by PID: they are the engine agents this lab's runs
started), deletes the namespaces, veths and bridge, and checks that none is left (also after an
exception).
"""

from __future__ import annotations

from sdnbench.testing.netlab import NetnsLab, free_octet, sh


class AgentLab(NetnsLab):
    KIND = "agentlab"

    def __init__(self, agents: int, addrs: int = 1) -> None:
        super().__init__("ag")
        self.n, self.addrs = agents, addrs
        self.octet = free_octet("10.{n}.")
        self.bridge = f"{self.prefix}-br"

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

    def build(self) -> None:
        self.linux_bridge(self.bridge, f"{self.controller_ip}/24")
        for i in range(1, self.n + 1):
            ns = self.ns(i)
            self.add_netns(ns)
            self.veth_into(f"{self.prefix}v{i}", ns, "eth0", master=self.bridge)
            self.address(ns, "eth0", *(f"{a}/24" for a in self.agent_addrs(i)))

    def ssh(self, engine: str) -> tuple:
        """sshd in every namespace; returns (specs, env) for ``--agents`` over ssh."""
        self.ssh_keys()
        specs = []
        for i in range(1, self.n + 1):
            addr = self.agent_addrs(i)[0]
            self.start_sshd(f"sshd-{i}", self.ns(i), addr, "PermitTTY no", log=False)
            self.wait_listening(addr, 22, f"sshd in {self.ns(i)}", timeout=10)
            specs.append(f"ssh:root@{addr}")
        env = {"SDNBENCH_AGENT_EXE": engine,
               "SDNBENCH_SSH_OPTS": f"-i {self.key} -o UserKnownHostsFile={self.dir / 'known_hosts'} -o LogLevel=ERROR"}
        return specs, env

    def pids(self, i: int) -> list:
        return [int(p) for p in sh("ip", "netns", "pids", self.ns(i), check=False).stdout.split()]
