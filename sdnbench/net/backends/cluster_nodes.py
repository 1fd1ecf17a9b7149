"""Mininet's cluster edition (``mininet/examples/cluster.py``), adapted to run here.

The node and link classes are cluster.py's own (``RemoteHost``, ``RemoteOVSSwitch``,
``RemoteGRELink``), with three changes:

- OpenSSH is run with a configuration file of the run (``ssh_config``: the servers file's keys,
  ports and host-key policy; nothing of ``~/.ssh`` is read or written);
- no ``sudo``: cluster.py wraps every command in ``sudo -E`` (and the local ssh in ``sudo -u``);
  the cluster backend logs in as root instead, so that machines without sudo work;
- the local machine is not asked to run Open vSwitch or mnexec (``isSetup``): only the servers
  are;

and one addition: ``RemoteVXLANLink``, cluster.py's GRE link with a VXLAN device instead of
``gretap`` (kernels without ``ip_gre``, like this machine's, still have ``vxlan``). As in
cluster.py, every interface of such a network gets MTU 1450 so that a full frame fits the
tunnel.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from ...procreg import die_with_parent

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)     # distutils' StrictVersion
    from mininet.examples.cluster import RemoteGRELink, RemoteHost, RemoteOVSSwitch

VXLAN_PORT = 4789


def ssh_config(path: Path, servers, known_hosts: Path) -> Path:
    """Write the OpenSSH client configuration for ``servers`` (``cluster_servers.Server``).

    One multiplexed connection per server (a node's shell or a command costs a channel, not a
    login: about 20 ms instead of 600 ms here); the master lingers at most ``ControlPersist``
    seconds after its last session, and ``stop_masters`` ends it at once."""
    lines = []
    for s in servers:
        lines += [f"Host {s.ssh}", f"  Port {s.port}", "  User root", "  BatchMode yes",
                  "  ConnectTimeout 5", "  ServerAliveInterval 5", "  ServerAliveCountMax 3",
                  "  ForwardAgent no", "  LogLevel ERROR", "  ControlMaster auto",
                  f"  ControlPath {path.parent}/cm-%C", "  ControlPersist 10"]
        if s.key:
            lines += [f"  IdentityFile {s.key}", "  IdentitiesOnly yes"]
        if s.host_key == "accept":
            lines += [f"  UserKnownHostsFile {known_hosts}", "  StrictHostKeyChecking accept-new"]
        else:
            lines += [f"  UserKnownHostsFile {Path(s.host_key).expanduser()}",
                      "  StrictHostKeyChecking yes"]
    path.write_text("\n".join(lines) + "\n")
    return path


def stop_masters(conf: Path, servers) -> None:
    """End the multiplexing master of every server (no-op where none runs)."""
    import subprocess
    for s in servers:
        subprocess.run(["ssh", "-F", str(conf), "-O", "exit", f"root@{s.ssh}"],
                       capture_output=True, timeout=10)


class _AsRoot:
    """cluster.py's remote mix-in without sudo (we log in as root), over our ssh config."""

    isSetup = True                # nothing to check on this machine
    ssh_conf: str = ""            # set per run by ``classes``

    @property
    def sshcmd(self) -> list:
        return self._sshcmd

    @sshcmd.setter
    def sshcmd(self, value: list) -> None:
        # cluster.py sets ['sudo', '-E', '-u', USER, *sshbase, DEST]
        self._sshcmd = list(value[4:]) if value[:2] == ["sudo", "-E"] else list(value)

    def _popen(self, cmd, sudo=True, tt=True, **params):
        return super()._popen(cmd, sudo=False, tt=tt, **params)

    @staticmethod
    def _ignoreSignal():  # noqa: N802 (cluster.py's name)
        """cluster.py's: a process group of its own (Ctrl-C is not sent to the ssh clients;
        the network's clean-up stops them); ours: the ssh client dies with sdnbench, so that a
        SIGKILLed run's remote shells (and their namespaces) end with their connections."""
        import os
        os.setpgrp()
        die_with_parent()


class RemoteVXLANLink(RemoteGRELink):
    """cluster.py's ``RemoteGRELink`` with a VXLAN device (one VNI per link) as the tunnel."""

    tunnel_ips: dict = {}          # server name -> tunnel address (set per run)

    def makeTunnel(self, node1, node2, intfname1, intfname2, addr1=None, addr2=None):  # noqa: N802
        assert node1.server != node2.server
        RemoteGRELink.GRE_KEY += 1
        vni = RemoteGRELink.GRE_KEY
        ip1, ip2 = self.tunnel_ips[node1.server], self.tunnel_ips[node2.server]
        for node, name, addr, local, peer in ((node1, intfname1, addr1, ip1, ip2),
                                              (node2, intfname2, addr2, ip2, ip1)):
            # One command on the server (a login costs a shell start-up there): make the device
            # and move it into the node's namespace; the rest through the node's own shell.
            out = node.rcmd(f"ip link add name {name} type vxlan id {vni} local {local} remote {peer} "
                            f"dstport {VXLAN_PORT} && ip link set {name} netns {node.pid}")
            if out.strip():
                raise RuntimeError(f"server {node.server}: cannot create VXLAN device {name}: {out.strip()}")
            out = node.cmd(f"ip link set dev {name} {f'address {addr} ' if addr else ''}mtu 1450 up")
            if out.strip():
                raise RuntimeError(f"server {node.server}: cannot configure {name}: {out.strip()}")
        return None


def classes(ssh_conf: Path, tunnel: str, tunnel_ips: dict) -> tuple:
    """``(Host, Switch, Link)`` classes for one run."""
    base = ["ssh", "-F", str(ssh_conf), "-q", "-tt"]
    host = type("ClusterHost", (_AsRoot, RemoteHost), {"sshbase": base})
    switch = type("ClusterOVSSwitch", (_AsRoot, RemoteOVSSwitch), {"sshbase": base, "OVSVersions": {}})
    link_base = RemoteVXLANLink if tunnel == "vxlan" else RemoteGRELink
    link = type(f"Cluster{link_base.__name__}", (link_base,), {"tunnel_ips": dict(tunnel_ips)})
    return host, switch, link
