"""What a measurement needs of a network, and how a run chooses the network that provides it.

``Network`` is the interface the measurements (``net/ping.py``, ``iperf.py``, ``ditg.py``,
``first_packet.py``) use; ``backend.MininetNetwork`` (this machine), ``ssh.SSHNetwork`` (real
hosts) and ``cluster.ClusterNetwork`` implement it, on what they share: the life cycle
(``sdnbench.lifecycle.Built``: ``check()`` in ``__enter__``, then ``build()`` guarded by
``close()``), the SSH sessions of the remote ones (``remote.connect_all``, ``close_sessions``) and
the Mininet parts of the two Mininet ones (``net/mininet_common.py``). A backend is chosen by a spec string (``--backend`` of ``net run``, ``backend:`` in a
scenario's params): ``mininet`` (the default) or ``ssh:INVENTORY`` or ``cluster:SERVERS``
(Mininet's cluster edition over several servers, ``cluster.py``), one line each in ``NET_BACKENDS``.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Protocol, Sequence

from ...errors import UserError
from ..topology import Topology
from .cluster import ClusterBackend
from .mininet import MininetBackend
from .ssh_backend import SSHBackend


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
class Kind:
    """One backend: what builds it and what its spec takes after ``NAME:`` (None: nothing)."""
    build: Callable                    # (argument or nothing) -> the backend object
    argument: Optional[str] = None     # "INVENTORY": the spec is NAME:INVENTORY
    what: str = ""                     # the argument in words, for the error line


# A new backend is a module of this package and one line here.
NET_BACKENDS: dict = {
    "mininet": Kind(MininetBackend),
    "ssh": Kind(SSHBackend, "INVENTORY", "an inventory file"),
    "cluster": Kind(ClusterBackend, "SERVERS", "a servers file"),
}


@dataclass(frozen=True)
class BackendSpec:
    kind: str                          # a name of NET_BACKENDS
    inventory: Optional[str] = None    # the argument: the inventory (ssh) or servers file (cluster)

    def __str__(self) -> str:
        return self.kind if self.inventory is None else f"{self.kind}:{self.inventory}"


def parse_backend(spec: Optional[str]) -> BackendSpec:
    text = (spec or "mininet").strip()
    name, colon, arg = text.partition(":")
    k = NET_BACKENDS.get(name)
    if k is not None and k.argument is None and not colon:
        return BackendSpec(name)
    if k is not None and k.argument is not None and arg.strip():
        return BackendSpec(name, arg.strip())
    forms = " or ".join(f"{n}:{k.argument} ({k.what})" if k.argument else n for n, k in NET_BACKENDS.items())
    raise UserError(f"backend {text!r}: use {forms}")


def check_spec(value) -> Optional[str]:
    """One scenario ``backend:`` value: None when good, else what is wrong."""
    try:
        parse_backend(str(value))
    except UserError as e:
        return str(e)
    return None


def open_backend(spec: Optional[str]):
    """The backend object for ``spec``."""
    b = parse_backend(spec)
    k = NET_BACKENDS[b.kind]
    return k.build(b.inventory) if k.argument else k.build()
