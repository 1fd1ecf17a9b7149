"""Which certificate files each side of a TLS controller session uses, and the listen flags a
managed controller takes for them.

A controller sdnbench starts (``osken:learning;tls``, ...) uses the controller files of
sdnbench's own set (``tls.certs.ensure``): it trusts that set's CA, so the switches' certificate
must be signed by it (else the controller refuses the session: exit 2). The switches use the
files the user named (``--tls-ca/--tls-cert/--tls-key``, scenario keys ``tls_ca``...), each one
left out being the set's switch file. Those are checked before anything starts (exit 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..tls import certs
from ..tls.check import check
from ..tls.files import TlsFiles
from .parsed import ControllerSpec


def controller_files() -> TlsFiles:
    """What a managed controller listens with: sdnbench's own set, made on first use."""
    return certs.ensure().controller


def switch_files(ca=None, cert=None, key=None) -> TlsFiles:
    """The switches' files: each one given, else sdnbench's own set's (made on first use)."""
    own = certs.ensure().switch if None in (ca, cert, key) else None
    return TlsFiles(Path(ca) if ca else own.ca, Path(cert) if cert else own.cert,
                    Path(key) if key else own.key)


def checked_switch(spec: ControllerSpec, files: Optional[TlsFiles], managed: bool) -> Optional[TlsFiles]:
    """The switch files for a TLS spec, checked (a problem is one line naming the file, exit 1);
    None for a plain TCP spec. With a ``managed`` controller (sdnbench starts it), ``files.ca`` must be the CA that signed
    the controller's certificate."""
    if not spec.tls:
        return None
    files = files or switch_files()
    peer = controller_files().cert if managed else None
    check(files, "switch", peer_cert=peer)
    return files


def osken_listen(spec: ControllerSpec, port: int) -> list:
    """os-ken's and Ryu's listen flags (their controller.py): with a key and a certificate they
    listen for TLS only, on ``--ofp-ssl-listen-port``, and with ``--ca-certs`` require the
    switch's certificate; without, plain TCP on ``--ofp-tcp-listen-port``."""
    if not spec.tls:
        return ["--ofp-tcp-listen-port", str(port)]
    f = controller_files()
    return ["--ofp-ssl-listen-port", str(port), "--ctl-privkey", str(f.key), "--ctl-cert", str(f.cert),
            "--ca-certs", str(f.ca)]


def placeholders(spec: ControllerSpec) -> dict:
    """``{tls_ca}``, ``{tls_cert}``, ``{tls_key}`` of a ``cmd:...;tls`` spec: the controller's files."""
    if not spec.tls:
        return {}
    f = controller_files()
    return {"{tls_ca}": str(f.ca), "{tls_cert}": str(f.cert), "{tls_key}": str(f.key)}
