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
started (by PID), deletes the namespaces, veths and the bridge, and fails if any is left.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

from .testbed import SSHD, _free_octet, sh

SCHEMA = "/usr/share/openvswitch/vswitch.ovsschema"


class Rack:
    __test__ = False

    def __init__(self, names: tuple = ("a", "b"), stopped: tuple = (), without_ovs: tuple = ()) -> None:
        import random
        self.names = list(names)
        self.stopped = stopped            # servers whose sshd is not started
        self.without_ovs = without_ovs    # servers with no OVS running (ovs-vsctl finds no db)
        self.prefix = "r" + "".join(random.choice("0123456789abcdef") for _ in range(4))
        self.dir = Path(tempfile.mkdtemp(prefix=f"sdnbench-rack-{self.prefix}-"))
        self.octet = _free_octet()
        self.procs: list = []             # (what, Popen)
        self.netns: list = []
        self.links: list = []
        self.key = self.dir / "id_ed25519"
        self.servers_file = self.dir / "servers.yaml"

    def ns(self, name: str) -> str:
        return f"{self.prefix}-{name}"

    def ip(self, i: int) -> str:
        return f"172.31.{self.octet}.{10 + i}"

    @property
    def lan_ip(self) -> str:
        return f"172.31.{self.octet}.1"

    def __enter__(self) -> "Rack":
        try:
            for k in ("id_ed25519", "host_key"):
                sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.dir / k))
            shutil.copy(f"{self.key}.pub", self.dir / "authorized_keys")
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
            lan = f"{self.prefix}lan"
            sh("ip", "link", "add", lan, "type", "bridge")
            self.links.append(lan)
            sh("ip", "addr", "add", f"{self.lan_ip}/24", "dev", lan)
            sh("ip", "link", "set", lan, "up")
            for i, name in enumerate(self.names, start=1):
                self._server(i, name, lan)
            self._write_file()
            for i, name in enumerate(self.names, start=1):
                if name not in self.stopped:
                    self._wait_port(name, self.ip(i))
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _server(self, i: int, name: str, lan: str) -> None:
        ns = self.ns(name)
        sh("ip", "netns", "add", ns)
        self.netns.append(ns)
        v = f"{self.prefix}v{i}"
        sh("ip", "link", "add", v, "type", "veth", "peer", "name", f"{v}x")
        self.links.append(v)
        sh("ip", "link", "set", f"{v}x", "netns", ns, "name", "eth0")
        sh("ip", "link", "set", v, "master", lan, "up")
        in_ns = ["ip", "netns", "exec", ns]
        sh(*in_ns, "ip", "link", "set", "lo", "up")
        sh(*in_ns, "ip", "addr", "add", f"{self.ip(i)}/24", "dev", "eth0")
        sh(*in_ns, "ip", "link", "set", "eth0", "up")
        sh(*in_ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
        run = self.dir / f"ovs-{name}"
        run.mkdir()
        if name not in self.without_ovs:
            self._ovs(name, ns, run)
        if name not in self.stopped:
            self._sshd(name, ns, self.ip(i), run)

    def _spawn(self, what: str, argv: list, env: Optional[dict] = None) -> subprocess.Popen:
        log = open(self.dir / f"{what}.log", "ab")
        try:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True, env={**os.environ, **(env or {})})
        finally:
            log.close()
        self.procs.append((what, p))
        return p

    def _ovs(self, name: str, ns: str, run: Path) -> None:
        db = run / "conf.db"
        sh("ovsdb-tool", "create", str(db), SCHEMA)
        env = {"OVS_RUNDIR": str(run), "OVS_DBDIR": str(run), "OVS_LOGDIR": str(run)}
        self._spawn(f"ovsdb-{name}", ["ip", "netns", "exec", ns, "ovsdb-server", str(db),
                                      f"--remote=punix:{run}/db.sock", f"--unixctl={run}/ovsdb-server.ctl",
                                      "--no-chdir", f"--log-file={run}/ovsdb-server.log"], env)
        self._wait(lambda: (run / "db.sock").exists(), f"ovsdb-server of {name}")
        cp = subprocess.run(["ovs-vsctl", f"--db=unix:{run}/db.sock", "--no-wait", "init"],
                            capture_output=True, text=True, timeout=20)
        if cp.returncode != 0:
            raise RuntimeError(f"ovs-vsctl init on {name}: {cp.stderr.strip()}")
        self._spawn(f"vswitchd-{name}", ["ip", "netns", "exec", ns, "ovs-vswitchd", f"unix:{run}/db.sock",
                                         f"--unixctl={run}/ovs-vswitchd.ctl", "--no-chdir",
                                         f"--log-file={run}/ovs-vswitchd.log"], env)
        self._wait(lambda: (run / "ovs-vswitchd.ctl").exists(), f"ovs-vswitchd of {name}")

    def _sshd(self, name: str, ns: str, addr: str, run: Path) -> None:
        cfg = self.dir / f"sshd-{name}.conf"
        home = self.dir / f"home-{name}"       # a fresh machine's root: no .bashrc of this one
        home.mkdir(exist_ok=True)
        cfg.write_text("\n".join([
            f"ListenAddress {addr}", "Port 22", f"HostKey {self.dir / 'host_key'}", "PidFile none",
            f"AuthorizedKeysFile {self.dir / 'authorized_keys'}", "StrictModes no",
            "PermitRootLogin prohibit-password", "PasswordAuthentication no",
            "KbdInteractiveAuthentication no", "UsePAM no", "UseDNS no", "MaxStartups 100",
            "MaxSessions 100", "PrintMotd no", "PrintLastLog no", "X11Forwarding no", "PermitTTY yes",
            f"SetEnv OVS_RUNDIR={run} HOME={home}", "Subsystem sftp internal-sftp", ""]))
        self._spawn(f"sshd-{name}", ["ip", "netns", "exec", ns, SSHD, "-D", "-e", "-f", str(cfg)])

    def _wait(self, ok, what: str, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while not ok():
            dead = [w for w, p in self.procs if p.poll() is not None]
            if dead:
                raise RuntimeError(f"{dead[0]} exited: {(self.dir / f'{dead[0]}.log').read_text()[-300:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start within {timeout:g}s")
            time.sleep(0.05)

    def _wait_port(self, name: str, addr: str) -> None:
        import socket

        def listening() -> bool:
            with socket.socket() as s:
                s.settimeout(0.5)
                return s.connect_ex((addr, 22)) == 0
        self._wait(listening, f"sshd of {name}")

    def _write_file(self) -> None:
        lines = [f"defaults: {{user: root, key: {self.key.name}}}", "servers:"]
        lines += [f"  - {{name: {n}, ssh: {self.ip(i)}}}" for i, n in enumerate(self.names, start=1)]
        self.servers_file.write_text("\n".join(lines) + "\n")

    def pids(self, name: str) -> list:
        """Processes in server ``name``'s namespace other than the lab's own (sshd, OVS)."""
        own = {p.pid for _w, p in self.procs}
        out = []
        for pid in sh("ip", "netns", "pids", self.ns(name), check=False).stdout.split():
            if int(pid) in own:
                continue
            try:
                out.append(f"{pid} " + Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip())
            except OSError:
                pass
        return out

    def ovs(self, name: str, *args: str) -> str:
        """An ovs-vsctl command against server ``name``'s database."""
        return sh("ovs-vsctl", f"--db=unix:{self.dir / f'ovs-{name}'}/db.sock", *args).stdout

    def close(self) -> None:
        for _w, p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait(timeout=5)
                except ProcessLookupError:
                    p.wait(timeout=5)
        for ns in self.netns:
            for pid in sh("ip", "netns", "pids", ns, check=False).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)     # only processes inside our namespace
                except ProcessLookupError:
                    pass
            sh("ip", "netns", "del", ns, check=False)
        for v in self.links:
            if Path(f"/sys/class/net/{v}").exists():
                sh("ip", "link", "del", v, check=False)
        left = [n for n in self.netns if Path(f"/run/netns/{n}").exists()]
        left += [v for v in self.links if Path(f"/sys/class/net/{v}").exists()]
        self.procs, self.netns, self.links = [], [], []
        shutil.rmtree(self.dir, ignore_errors=True)
        if left:
            raise RuntimeError(f"rack {self.prefix} left {', '.join(left)}")


def main(argv=None) -> int:
    """``python -m sdnbench.net.backends.clusterlab [--servers a,b] -- COMMAND ...``: build the
    rack, run COMMAND with ``{servers}`` replaced by the servers file and ``{lan}`` by this
    machine's address on the rack's LAN, tear the rack down."""
    import argparse
    import sys

    from ... import proc

    ap = argparse.ArgumentParser(prog="python -m sdnbench.net.backends.clusterlab", description=main.__doc__)
    ap.add_argument("--servers", default="a,b", help="server names (default: a,b)")
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    a, cmd = ap.parse_args(argv[:cut]), argv[cut + 1:]
    with proc.signals_as_exceptions(), Rack(tuple(a.servers.split(","))) as rack:
        print(f"rack {rack.prefix}: servers file {rack.servers_file}, this machine {rack.lan_ip}",
              file=sys.stderr)
        if not cmd:
            print(rack.servers_file.read_text())
            return 0
        p = subprocess.Popen([c.replace("{servers}", str(rack.servers_file)).replace("{lan}", rack.lan_ip)
                              for c in cmd])
        try:
            return p.wait()
        except BaseException:
            p.send_signal(signal.SIGINT)
            p.wait()
            raise


if __name__ == "__main__":
    raise SystemExit(main())
