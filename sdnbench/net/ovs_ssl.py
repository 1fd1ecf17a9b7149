"""Open vSwitch's TLS files (``ovs-vsctl set-ssl KEY CERT CA``) for switches that connect to a
controller with ``ssl:HOST:PORT`` (docs/tls.md).

Open vSwitch keeps one SSL record per database, for every bridge: ``use`` sets it for the block
and puts back what was there before (nothing, or another run's files), unless somebody changed
it meanwhile, which is theirs then.
"""

from __future__ import annotations

import contextlib
import subprocess
from typing import Iterator, Optional

from ..errors import UserError
from ..tls.files import TlsFiles

FIELDS = ("Private key", "Certificate", "CA Certificate")


def _vsctl(*args: str) -> str:
    cp = subprocess.run(["ovs-vsctl", "--timeout=10", *args], capture_output=True, text=True, timeout=20)
    if cp.returncode != 0:
        raise UserError(f"ovs-vsctl {' '.join(args)}: {(cp.stderr or cp.stdout).strip()}")
    return cp.stdout


def current() -> Optional[tuple]:
    """(key, cert, ca) of Open vSwitch's SSL record, or None when it has none."""
    got = {}
    for line in _vsctl("get-ssl").splitlines():
        k, sep, v = line.partition(":")
        if sep:
            got[k.strip()] = v.strip()
    return tuple(got.get(f, "") for f in FIELDS) if got else None


@contextlib.contextmanager
def use(files: TlsFiles) -> Iterator[None]:
    """Open vSwitch's switches present ``files.cert``/``files.key`` and trust ``files.ca``."""
    before = current()
    ours = (str(files.key), str(files.cert), str(files.ca))
    _vsctl("set-ssl", *ours)
    try:
        yield
    finally:
        if current() == ours and before != ours:
            if before:
                _vsctl("set-ssl", *before)
            else:
                _vsctl("del-ssl")
