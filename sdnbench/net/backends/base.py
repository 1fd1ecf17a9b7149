"""What a measurement needs of a network, and how a run chooses the network that provides it.

``Network`` is the interface the measurements (``net/ping.py``, ``iperf.py``, ``ditg.py``,
``first_packet.py``) use; ``backend.MininetNetwork`` (this machine), ``ssh.SSHNetwork`` (real
hosts) and ``cluster.ClusterNetwork`` implement it, on what they share: the life cycle
(``sdnbench.lifecycle.Built``: ``check()`` in ``__enter__``, then ``build()`` guarded by
``close()``), the SSH sessions of the remote ones (``remote.connect_all``, ``close_sessions``) and
the Mininet parts of the two Mininet ones (``net/mininet_common.py``). A backend is chosen by a spec string: ``mininet`` (the default) or
``ssh:INVENTORY`` or ``cluster:SERVERS`` (Mininet's cluster edition over several servers,
``cluster.py``) (``--backend`` of ``net run``, ``backend:`` in a scenario's params).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Protocol, Sequence

from ...errors import UserError
from ..topology import Topology


class Network(Protocol):
    topology: Topology
    workdir: Optional[Path]      # local scratch directory of the run
    notes: list                  # sentences for Result.notes
    info: dict                   # what was realised (datapath, versions, backend, ...)

    def check(self) -> "Network": ...           # refuse (one line) before anything starts
    def __enter__(self) -> "Network": ...       # up; clean-up on failure
    def __exit__(self, *exc) -> None: ...       # everything started is stopped
    def host_ip(self, host: str) -> str: ...
    def run_in(self, host: str, argv: Sequence[str], timeout: float) -> subprocess.CompletedProcess: ...
    def spawn_in(self, host: str, name: str, argv: Sequence[str], log_path=None): ...  # .stop/.alive/.log_tail
    def spawn_root(self, name: str, argv: Sequence[str], log_path=None): ...
    def port_towards(self, switch: str, peer: str): ...
    def describe(self) -> dict: ...


@dataclass(frozen=True)
class BackendSpec:
    kind: str                          # "mininet", "ssh" or "cluster"
    inventory: Optional[str] = None    # the inventory (ssh) or servers file (cluster)

    def __str__(self) -> str:
        return self.kind if self.kind == "mininet" else f"{self.kind}:{self.inventory}"


def parse_backend(spec: Optional[str]) -> BackendSpec:
    text = (spec or "mininet").strip()
    if text == "mininet":
        return BackendSpec("mininet")
    if text.startswith("ssh:") and text[4:].strip():
        return BackendSpec("ssh", text[4:].strip())
    if text.startswith("cluster:") and text[8:].strip():
        return BackendSpec("cluster", text[8:].strip())
    raise UserError(f"backend {text!r}: use mininet or ssh:INVENTORY (an inventory file) or "
                    "cluster:SERVERS (a servers file)")


def check_spec(value) -> Optional[str]:
    """One scenario ``backend:`` value: None when good, else what is wrong."""
    try:
        parse_backend(str(value))
    except UserError as e:
        return str(e)
    return None


def open_backend(spec: Optional[str]):
    """The backend object for ``spec`` (``mininet.MininetBackend`` or ``ssh_backend.SSHBackend``)."""
    b = parse_backend(spec)
    if b.kind == "mininet":
        from .mininet import MininetBackend
        return MininetBackend()
    if b.kind == "cluster":
        from .cluster import ClusterBackend
        return ClusterBackend(b.inventory)
    from .ssh_backend import SSHBackend
    return SSHBackend(b.inventory)
