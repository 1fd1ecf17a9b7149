"""Are these certificate files usable? Checked before anything starts, each problem one line
naming the file and the reason (a ``UserError``, exit 1: the files are the user's).

What is checked: each file can be read and is PEM of the right thing; the certificate is valid
now (neither expired nor not yet valid); the key is the certificate's; when the peer's
certificate is known (a controller sdnbench starts), the CA given is the one that signed it;
for a controller's certificate and an address, the address is one of its names.
Whether the peer accepts OUR certificate is the peer's decision, seen when it refuses the
session (``probe``: exit 2).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
from pathlib import Path
from typing import Optional

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

from ..errors import UserError
from .files import TlsFiles

_PEM_CERT = re.compile(rb"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", re.S)
ROLES = ("controller", "switch")
PEER = {"controller": "switch", "switch": "controller"}


def _read(path: Path, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise UserError(f"{path}: cannot read the {what}: a directory, not a file") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read the {what}: {e.strerror}") from None


def load_certs(path: Path, what: str) -> list:
    """Every certificate of a PEM file (a CA file may hold several)."""
    data = _read(path, what)
    blocks = _PEM_CERT.findall(data)
    if not blocks:
        raise UserError(f"{path}: not a PEM certificate (no -----BEGIN CERTIFICATE----- block): "
                        f"the {what} must be PEM")
    try:
        return [x509.load_pem_x509_certificate(b) for b in blocks]
    except ValueError as e:
        raise UserError(f"{path}: not a readable PEM certificate ({e}): the {what} must be PEM") from None


def load_key(path: Path, what: str):
    data = _read(path, what)
    try:
        return serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise UserError(f"{path}: the {what} is encrypted with a passphrase; give an unencrypted key") from None
    except ValueError:
        raise UserError(f"{path}: not a PEM private key: the {what} must be PEM, unencrypted") from None


def _when(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M UTC")


def validity(cert: x509.Certificate) -> tuple:
    """(not before, not after), naive UTC (``cryptography`` 42 renamed them ``*_utc``)."""
    if hasattr(cert, "not_valid_after_utc"):
        return cert.not_valid_before_utc.replace(tzinfo=None), cert.not_valid_after_utc.replace(tzinfo=None)
    return cert.not_valid_before, cert.not_valid_after


def check_dates(cert: x509.Certificate, path: Path, what: str, now: Optional[dt.datetime] = None) -> None:
    now = now or dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    start, end = validity(cert)
    if now > end:
        raise UserError(f"{path}: the {what} expired on {_when(end)}; make a new one "
                        "(`sdnbench certs --force` for sdnbench's own)")
    if now < start:
        raise UserError(f"{path}: the {what} is not valid yet (from {_when(start)}); check this machine's clock")


def signed_by(cert: x509.Certificate, ca: x509.Certificate) -> bool:
    if cert.issuer != ca.subject:
        return False
    pub = ca.public_key()
    try:
        if isinstance(pub, ec.EllipticCurvePublicKey):
            pub.verify(cert.signature, cert.tbs_certificate_bytes, ec.ECDSA(cert.signature_hash_algorithm))
        elif isinstance(pub, rsa.RSAPublicKey):
            pub.verify(cert.signature, cert.tbs_certificate_bytes, padding.PKCS1v15(),
                       cert.signature_hash_algorithm)
        else:
            pub.verify(cert.signature, cert.tbs_certificate_bytes)
    except (InvalidSignature, TypeError, ValueError):
        return False
    return True


def _public(obj) -> bytes:
    return obj.public_key().public_bytes(serialization.Encoding.DER,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)


def names(cert: x509.Certificate) -> list:
    """The certificate's subject alternative names (IP addresses and DNS names), as text."""
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    return [str(n) for n in san.get_values_for_type(x509.IPAddress)] + san.get_values_for_type(x509.DNSName)


def names_host(cert: x509.Certificate, host: str) -> bool:
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host.lower().rstrip(".") in (n.lower() for n in names(cert))
    return any(ipaddress.ip_address(n) == ip for n in names(cert) if _is_ip(n))


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def check(files: TlsFiles, role: str, *, host: Optional[str] = None, peer_cert: Optional[Path] = None,
          now: Optional[dt.datetime] = None) -> None:
    """``files`` are ``role``'s ("controller" or "switch"): raise ``UserError`` (one line naming
    the file) at the first problem. ``host``: the address the switches connect to (a
    controller's certificate must name it). ``peer_cert``: the other side's certificate, when
    known, which ``files.ca`` must have signed."""
    if role not in ROLES:
        raise ValueError(f"role {role!r}")
    cas = load_certs(files.ca, f"CA certificate (--tls-ca) that signed the {PEER[role]}'s")
    cert = load_certs(files.cert, f"{role}'s certificate")[0]
    key = load_key(files.key, f"{role}'s private key")
    for c in cas:
        check_dates(c, files.ca, "CA certificate", now)
    check_dates(cert, files.cert, f"{role}'s certificate", now)
    if _public(key) != _public(cert):
        raise UserError(f"{files.key}: this key does not match the certificate {files.cert} "
                        "(give the key the certificate was made for)")
    if host is not None and role == "controller" and not names_host(cert, host):
        raise UserError(f"{files.cert}: the controller's certificate does not name {host} "
                        f"(its names: {', '.join(names(cert)) or 'none'}); switches would refuse it")
    if peer_cert is not None:
        peer = load_certs(peer_cert, f"{PEER[role]}'s certificate")[0]
        if not any(signed_by(peer, c) for c in cas):
            raise UserError(f"{files.ca}: not the CA that signed the {PEER[role]}'s certificate {peer_cert} "
                            f"(its issuer: {peer.issuer.rfc4514_string()}); give that CA with --tls-ca")


def good_set(cs) -> bool:
    """Is the ``certs.CertSet`` there and good for both roles (``certs.ensure`` reuses it)?"""
    try:
        check(cs.controller, "controller", host="127.0.0.1", peer_cert=cs.switch.cert)
        check(cs.switch, "switch", peer_cert=cs.controller.cert)
    except UserError:
        return False
    return True
