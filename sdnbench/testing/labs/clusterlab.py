"""A rack of "servers" on this machine for the cluster backend's tests: every server is a network
namespace with its own sshd, its own ovsdb-server and its own ovs-vswitchd (userspace datapath),
on a LAN (a Linux bridge in the root namespace) that also reaches this machine.

Per server ``K`` (prefix ``P``, a few random hex digits), numbered I from 1:
- namespace ``P-K``; its ``eth0`` (172.31.N.(10+I)/24) is a veth whose other end ``PvI`` is a
  port of the LAN bridge ``Plan`` (172.31.N.1/24 in the root namespace; N chosen so that no
  address of 172.31.N.0/24 exists on this machine). Servers reach each other (tunnels) and this
  machine (SSH, controllers) over it;
- ``ovsdb-server`` and ``ovs-vswitchd`` run inside the namespace with their own run directory
  (``OVS_RUNDIR``), so the server's bridges and ports live in its namespace, as they would on a
  machine of its own; sshd hands ``OVS_RUNDIR`` to every session (``SetEnv``);
- ``sshd -D`` listens on eth0's address, with a host key and an authorized key made for the lab,
  and gives its sessions a HOME of their own (a fresh machine's root: this machine's
  ``.bashrc``, which bash runs for every SSH command, costs 0.3 s here).

What is shared, unlike real servers: the kernel (one CPU set, one page cache), the file system
and the process ids. ``Rack(names)`` is a context manager; leaving it stops every process it
started (by PID), deletes the namespaces, veths and the bridge, and fails if any is left
(``sdnbench.testing.netlab``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from sdnbench import proc
from sdnbench.testing.netlab import NetnsLab, free_octet, run_command, sh, split_command

SCHEMA = "/usr/share/openvswitch/vswitch.ovsschema"


class Rack(NetnsLab):
    KIND = "rack"

    def __init__(self, names: tuple = ("a", "b"), stopped: tuple = (), without_ovs: tuple = ()) -> None:
        super().__init__("r")
        self.names = list(names)
        self.stopped = stopped            # servers whose sshd is not started
        self.without_ovs = without_ovs    # servers with no OVS running (ovs-vsctl finds no db)
        self.octet = free_octet("172.31.{n}.")
        self.servers_file = self.dir / "servers.yaml"

    def ns(self, name: str) -> str:
        return f"{self.prefix}-{name}"

    def ip(self, i: int) -> str:
        return f"172.31.{self.octet}.{10 + i}"

    @property
    def lan_ip(self) -> str:
        return f"172.31.{self.octet}.1"

    def build(self) -> None:
        self.ssh_keys()
        lan = f"{self.prefix}lan"
        self.linux_bridge(lan, f"{self.lan_ip}/24")
        for i, name in enumerate(self.names, start=1):
            self._server(i, name, lan)
        self._write_file()
        for i, name in enumerate(self.names, start=1):
            if name not in self.stopped:
                self.wait_listening(self.ip(i), 22, f"sshd of {name}")

    def _server(self, i: int, name: str, lan: str) -> None:
        ns = self.ns(name)
        self.add_netns(ns)
        self.veth_into(f"{self.prefix}v{i}", ns, "eth0", master=lan)
        self.address(ns, "eth0", f"{self.ip(i)}/24")
        self.in_ns(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
        run = self.dir / f"ovs-{name}"
        run.mkdir()
        if name not in self.without_ovs:
            self._ovs(name, ns, run)
        if name not in self.stopped:
            self._sshd(name, ns, self.ip(i), run)

    def _ovs(self, name: str, ns: str, run: Path) -> None:
        db = run / "conf.db"
        sh("ovsdb-tool", "create", str(db), SCHEMA)
        env = {"OVS_RUNDIR": str(run), "OVS_DBDIR": str(run), "OVS_LOGDIR": str(run)}
        self.spawn(f"ovsdb-{name}", ["ip", "netns", "exec", ns, "ovsdb-server", str(db),
                                     f"--remote=punix:{run}/db.sock", f"--unixctl={run}/ovsdb-server.ctl",
                                     "--no-chdir", f"--log-file={run}/ovsdb-server.log"], env)
        self.wait(lambda: (run / "db.sock").exists(), f"ovsdb-server of {name}")
        cp = subprocess.run(["ovs-vsctl", f"--db=unix:{run}/db.sock", "--no-wait", "init"],
                            capture_output=True, text=True, timeout=20)
        if cp.returncode != 0:
            raise RuntimeError(f"ovs-vsctl init on {name}: {cp.stderr.strip()}")
        self.spawn(f"vswitchd-{name}", ["ip", "netns", "exec", ns, "ovs-vswitchd", f"unix:{run}/db.sock",
                                        f"--unixctl={run}/ovs-vswitchd.ctl", "--no-chdir",
                                        f"--log-file={run}/ovs-vswitchd.log"], env)
        self.wait(lambda: (run / "ovs-vswitchd.ctl").exists(), f"ovs-vswitchd of {name}")

    def _sshd(self, name: str, ns: str, addr: str, run: Path) -> None:
        home = self.dir / f"home-{name}"       # a fresh machine's root: no .bashrc of this one
        home.mkdir(exist_ok=True)
        self.start_sshd(f"sshd-{name}", ns, addr, "MaxStartups 100", "MaxSessions 100", "PermitTTY yes",
                        f"SetEnv OVS_RUNDIR={run} HOME={home}", "Subsystem sftp internal-sftp")

    def _write_file(self) -> None:
        lines = [f"defaults: {{user: root, key: {self.key.name}}}", "servers:"]
        lines += [f"  - {{name: {n}, ssh: {self.ip(i)}}}" for i, n in enumerate(self.names, start=1)]
        self.servers_file.write_text("\n".join(lines) + "\n")

    def pids(self, name: str) -> list:
        """Processes in server ``name``'s namespace other than the lab's own (sshd, OVS)."""
        return self.others_in(self.ns(name), {p.pid for _w, p in self.procs})

    def ovs(self, name: str, *args: str) -> str:
        """An ovs-vsctl command against server ``name``'s database."""
        return sh("ovs-vsctl", f"--db=unix:{self.dir / f'ovs-{name}'}/db.sock", *args).stdout


def main(argv=None) -> int:
    """``python -m sdnbench.testing.labs.clusterlab [--servers a,b] -- COMMAND ...``: build the
    rack, run COMMAND with ``{servers}`` replaced by the servers file and ``{lan}`` by this
    machine's address on the rack's LAN, tear the rack down."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m sdnbench.testing.labs.clusterlab", description=main.__doc__)
    ap.add_argument("--servers", default="a,b", help="server names (default: a,b)")
    options, cmd = split_command(argv)
    a = ap.parse_args(options)
    with proc.signals_as_exceptions(), Rack(tuple(a.servers.split(","))) as rack:
        print(f"rack {rack.prefix}: servers file {rack.servers_file}, this machine {rack.lan_ip}",
              file=sys.stderr)
        return run_command(cmd, rack.servers_file, {"servers": str(rack.servers_file), "lan": rack.lan_ip})


if __name__ == "__main__":
    raise SystemExit(main())
