"""The certificates sdnbench makes for the user (``sdnbench certs``): one CA, a controller
certificate and a switch certificate, ECDSA P-256, made with the ``cryptography`` library (no
``openssl`` shell-out) and kept in a directory, reused by every later run.

The pure part (``make_ca``, ``issue``) takes its dates, so the tests can make an expired or a
not-yet-valid certificate; ``ensure`` is the I/O: it reuses a set that is still good and makes
a new one otherwise.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import ipaddress
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from .. import paths
from ..errors import UserError
from .files import TlsFiles

DAYS = 365
CONTROLLER_IPS = ("127.0.0.1", "::1")
CONTROLLER_DNS = ("localhost",)
CONTROLLER_CN = "sdnbench-controller"
SWITCH_CN = "sdnbench-switch"
CA_CN = "sdnbench test CA"
# file names inside the directory, each written once here
NAMES = {"ca": "ca.pem", "ca_key": "ca-key.pem",
         "controller_cert": "controller-cert.pem", "controller_key": "controller-key.pem",
         "switch_cert": "switch-cert.pem", "switch_key": "switch-key.pem"}


@dataclass(frozen=True)
class Issued:
    """A certificate and its private key, in memory."""
    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey

    def cert_pem(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.PEM)

    def key_pem(self) -> bytes:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption())


@dataclass(frozen=True)
class CertSet:
    dir: Path
    controller: TlsFiles        # ca + the controller's own certificate and key
    switch: TlsFiles            # ca + the switch's own certificate and key
    made: bool = False          # made now (False: reused)


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "sdnbench"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def make_ca(not_before: dt.datetime, not_after: dt.datetime, cn: str = CA_CN) -> Issued:
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(_name(cn)).issuer_name(_name(cn))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(not_before).not_valid_after(not_after)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return Issued(cert, key)


def issue(ca: Issued, cn: str, not_before: dt.datetime, not_after: dt.datetime, *,
          ips: tuple = (), dns: tuple = (), server: bool = False) -> Issued:
    """A leaf certificate signed by ``ca``: a server's (``server``) or a client's."""
    key = ec.generate_private_key(ec.SECP256R1())
    usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
    b = (x509.CertificateBuilder().subject_name(_name(cn)).issuer_name(ca.cert.subject)
         .public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(not_before).not_valid_after(not_after)
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.key.public_key()),
                        critical=False))
    names = [x509.IPAddress(ipaddress.ip_address(i)) for i in ips] + [x509.DNSName(d) for d in dns]
    if names:
        b = b.add_extension(x509.SubjectAlternativeName(names), critical=False)
    return Issued(b.sign(ca.key, hashes.SHA256()), key)


def make_set(now: dt.datetime, days: int = DAYS) -> dict:
    """A CA, a controller and a switch certificate valid from ``now`` for ``days`` days."""
    start, end = now - dt.timedelta(minutes=5), now + dt.timedelta(days=days)
    ca = make_ca(start, end, cn=f"{CA_CN} {secrets.token_hex(3)}")    # each set's CA by its own name
    return {"ca": ca,
            "controller": issue(ca, CONTROLLER_CN, start, end, ips=CONTROLLER_IPS, dns=CONTROLLER_DNS,
                                server=True),
            "switch": issue(ca, SWITCH_CN, start, end)}


def default_dir() -> Path:
    return paths.state_dir() / "tls"


def layout(directory: Path) -> CertSet:
    d = Path(directory)
    p = {k: d / v for k, v in NAMES.items()}
    return CertSet(d, TlsFiles(p["ca"], p["controller_cert"], p["controller_key"]),
                   TlsFiles(p["ca"], p["switch_cert"], p["switch_key"]))


def ensure(dir: Optional[Path] = None, days: int = DAYS, force: bool = False) -> CertSet:
    """The certificate set in ``dir`` (default: ``tls/`` in the state directory): reused when
    all of it is there and still good for both roles, made (again) otherwise or with ``force``."""
    from .check import good_set
    cs = layout(Path(dir).expanduser() if dir else default_dir())
    if not force and good_set(cs):
        return cs
    if not 1 <= days <= 3650:
        raise UserError(f"--days {days}: give between 1 and 3650 days")
    try:
        cs.dir.mkdir(parents=True, exist_ok=True)
        with open(cs.dir / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)       # two runs starting at once make one set, not a mix
            if not force and good_set(cs):
                return cs
            _write(cs.dir, make_set(dt.datetime.now(dt.timezone.utc).replace(tzinfo=None), days))
    except OSError as e:
        raise UserError(f"{e.filename or cs.dir}: cannot write the certificates ({e.strerror})") from None
    return CertSet(cs.dir, cs.controller, cs.switch, made=True)


def _write(d: Path, made: dict) -> None:
    out = {"ca": made["ca"].cert_pem(), "ca_key": made["ca"].key_pem(),
           "controller_cert": made["controller"].cert_pem(), "controller_key": made["controller"].key_pem(),
           "switch_cert": made["switch"].cert_pem(), "switch_key": made["switch"].key_pem()}
    for k, data in out.items():
        path = d / NAMES[k]
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if k.endswith("key") else 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
