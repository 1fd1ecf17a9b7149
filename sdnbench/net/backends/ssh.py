"""The SSH hosts backend: the measurements of ``sdnbench.net`` on real machines named by an
inventory (``inventory.py``), joined by a real switch under test.

``SSHNetwork`` has the interface of ``base.Network``. It builds nothing: the hosts and the switch
exist. ``check()`` connects to every host and checks its tools before a controller starts (one
line naming the host on failure: unreachable, wrong key, missing tool); entering connects, and
when the switches point at a managed controller on this machine, waits until each of them has
connected to it; leaving stops every remote process (``remote.RemoteHostSession.close``).

What cannot be done on real hosts is refused in one line: link shaping (the links are real
cables; shape them on the switch), and the first-packet measurement, which captures on the
switch's own ports (a hardware switch has no capture point; a mirror port would be needed).
Flow tables are not emptied between repetitions: a real switch keeps its flows until they
expire; the run carries a note.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import uuid
import weakref
from pathlib import Path
from typing import Optional, Sequence

from ... import proc
from ...errors import UserError
from ...lifecycle import Built, left_behind
from . import remote
from .inventory import Inventory

# measurement -> the tools it runs on the hosts
TOOLS = {"ping": ["ping"], "tcp": ["iperf3", "ss"], "udp": ["iperf3", "ss"],
         "ditg": ["ITGSend", "ITGRecv", "ss"]}
BASE_TOOLS = ["sh", "setsid", "env", "kill", "cat", "mkdir", "tail"]
UNSUPPORTED = {"first-packet": "first-packet captures on the switch's ports, which a hardware "
                               "switch does not offer (the ssh backend measures between hosts)"}


class SSHNetwork(Built):
    def __init__(self, inventory: Inventory, measurements: Sequence[str] = ("ping",),
                 controller: Optional[tuple] = None, connect_timeout: float = 30.0) -> None:
        self.inventory = inventory
        self.topology = inventory.topology()
        self.measurements = list(measurements)
        self.controller = controller
        self.connect_timeout = connect_timeout
        self.run_id = uuid.uuid4().hex[:12]
        self.prefix = f"ssh-{self.run_id}"
        self.workdir: Optional[Path] = None
        self.notes: list = ["ssh backend: flow tables of the real switch are not emptied between "
                            "repetitions"]
        self.info: dict = {"backend": "ssh", "inventory": inventory.path}
        self.procs: list = []
        self._sessions: dict = {}
        self._checked = False
        # Checked but never entered (e.g. the controller failed to start): the connections are
        # closed when the object goes away, not at the end of a long campaign process.
        weakref.finalize(self, remote.close_sessions, self._sessions)

    # -- lifecycle -----------------------------------------------------------------------

    def check(self) -> "SSHNetwork":
        """Refuse unsupported measurements, connect to every host and check its tools; one line
        naming the host on failure, nothing left open."""
        if self._checked:
            return self
        for m in self.measurements:
            if m in UNSUPPORTED:
                raise UserError(f"ssh backend: {UNSUPPORTED[m]}")
        for l in self.topology.links:
            if not l.params.is_default():
                raise UserError("ssh backend: link shaping is not possible on real cables; "
                                "shape the links on the switch and drop link parameters")
        wanted = list(dict.fromkeys(BASE_TOOLS + [t for m in self.measurements for t in TOOLS.get(m, [])]))
        try:
            remote.connect_all(self.inventory.hosts, self.run_id, self._sessions)
            for h in self.inventory.hosts:
                for run in self._sessions[h.name].sweep_dead_runs():
                    self.notes.append(f"removed what a killed sdnbench run ({run}) left on {h.name}")
                missing = self._sessions[h.name].missing_tools(wanted)
                if missing:
                    raise UserError(remote.not_found(h, missing))
        except BaseException:
            self._close_all()
            raise
        self._checked = True
        return self

    def __enter__(self) -> "SSHNetwork":
        self.check()
        self.workdir = Path(tempfile.mkdtemp(prefix=f"sdnbench-{self.prefix}-"))
        return super().__enter__()

    def build(self) -> None:
        if self.controller is not None:
            self.wait_connected(self.connect_timeout)

    def close(self) -> None:
        left = []
        for t in self.procs:
            try:
                t.stop(grace=2)
            except UserError as e:
                left.append(str(e))
        self.procs = []
        left += self._close_all()
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        if left:
            left_behind("ssh clean-up: " + "; ".join(left), UserError)

    def _close_all(self) -> list:
        self._checked = False
        return remote.close_sessions(self._sessions)

    def wait_connected(self, timeout: float) -> None:
        """The managed controller runs here: wait until every switch of the inventory has an
        established OpenFlow connection to its port."""
        host, port = self.controller
        n = len(self.topology.switches)

        def connected() -> int:
            cp = subprocess.run(["ss", "-Htn", "state", "established", f"sport = :{port}"],
                                capture_output=True, text=True, timeout=10)
            return len([l for l in cp.stdout.splitlines() if l.strip()])

        proc.wait_until(lambda: connected() >= n, timeout,
                        f"{n} switch(es) of {self.inventory.path} to connect to the controller at "
                        f"{host}:{port}")

    # -- the measurements' interface -----------------------------------------------------

    def session(self, host: str) -> remote.RemoteHostSession:
        if host not in self._sessions:
            raise RuntimeError("network is not running")
        return self._sessions[host]

    def host_ip(self, host: str) -> str:
        return self.inventory.host(host).ip

    def host_intf(self, host: str) -> Optional[str]:
        return self.inventory.host(host).intf

    def run_in(self, host: str, argv: Sequence[str], timeout: float) -> subprocess.CompletedProcess:
        remote_argv, files = self._files(argv)
        try:
            status, out, err = self.session(host).run(remote_argv, timeout)
        finally:
            self._fetch(host, files)
        return subprocess.CompletedProcess(list(argv), status, out, err)

    def spawn_in(self, host: str, name: str, argv: Sequence[str], log_path=None):
        remote_argv, files = self._files(argv)
        t = self.session(host).spawn(name, remote_argv)
        t.log_path = log_path
        t.on_stop = lambda: self._fetch(host, files)
        self.procs.append(t)
        return t

    # Files under the local workdir named in a command (D-ITG's logs) are written on the remote
    # host under the run directory, and copied back when the command ends; a file another
    # host wrote (ITGSend -x: the receiver's log) is looked for there too.
    def _files(self, argv: Sequence[str]) -> tuple:
        local = str(self.workdir) + "/"
        remote_dir = f"{remote.RUN_ROOT}/{self.run_id}/files/"
        out, files = [], []
        for a in argv:
            if self.workdir is not None and str(a).startswith(local):
                r = remote_dir + str(a)[len(local):].replace("/", "_")
                files.append((r, Path(str(a))))
                a = r
            out.append(str(a))
        return out, files

    def _fetch(self, host: str, files: list) -> None:
        for r, l in files:
            if l.exists() and l.stat().st_size:
                continue
            others = [s for n, s in self._sessions.items() if n != host]
            for s in [self._sessions[host], *others]:
                if s.fetch(r, l):
                    break

    def spawn_root(self, name: str, argv: Sequence[str], log_path=None):
        raise UserError(f"ssh backend: {name} would run on the switch, which is not reachable")

    def port_towards(self, switch: str, peer: str):
        raise UserError(f"ssh backend: the ports of switch {switch} cannot be captured")

    def switch_ports(self, switch: str) -> list:
        return []

    def describe(self) -> dict:
        d = self.topology.to_dict()
        d.update(backend="ssh", inventory=self.inventory.path, prefix=self.prefix,
                 ips={h.name: h.ip for h in self.inventory.hosts},
                 hosts_ssh={h.name: f"{h.user}@{h.ssh}:{h.port}" for h in self.inventory.hosts})
        return d
