"""Is a TLS controller ready? The OpenFlow HELLO probe (``controllers.ofhello``) inside a TLS
session made with the switch's files: a plain HELLO sent to a TLS port is garbage to the
controller, so a plain probe would refuse every working TLS controller.

Three outcomes besides "ready": not listening yet (None, the caller polls again); the
controller's certificate does not verify against the CA given (``Unverified``, exit 1: the
user's ``--tls-ca``); the controller aborted the handshake with an alert, i.e. refused our
certificate, or its certificate does not name its address (``Refused``, exit 2).
"""

from __future__ import annotations

import socket
import ssl
from typing import Optional

from .ofhello import hello_answer
from ..errors import UserError
from ..tls.files import TlsFiles

# OpenSSL's X509_V_ERR_* codes (x509_vfy.h) that say the certificate does not name the host
NAME_MISMATCH = {62, 63, 64}


class TlsProblem(UserError):
    """A TLS session could not be made, for a reason waiting will not change."""


class Refused(TlsProblem):
    """The controller refused the TLS session (it did not take the switch's certificate), or
    presented one that does not name its address: the system under test, exit 2."""

    exit_code = 2


class Unverified(TlsProblem):
    """The controller's certificate does not verify against the CA the user gave: exit 1."""


def context(files: TlsFiles) -> ssl.SSLContext:
    """A client context with the switch's identity, verifying the controller against ``files.ca``."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_verify_locations(cafile=str(files.ca))
    ctx.load_cert_chain(str(files.cert), str(files.key))
    return ctx


def session(host: str, port: int, files: TlsFiles, timeout: float = 2.0) -> ssl.SSLSocket:
    """A TLS session to the controller, handshake done (errors raised as ``ssl`` raises them)."""
    raw = socket.create_connection((host, port), timeout=timeout)
    try:
        s = context(files).wrap_socket(raw, server_hostname=host.strip("[]"))
    except BaseException:
        raw.close()
        raise
    s.settimeout(timeout)
    return s


def probe(host: str, port: int, version: int, files: TlsFiles, where: str,
          timeout: float = 2.0) -> Optional[int]:
    """The version of the controller's HELLO over TLS, or None if it is not (yet) answering.
    ``where`` names the controller in error lines."""
    try:
        with session(host, port, files, timeout) as s:
            return hello_answer(s, version)
    except ssl.SSLCertVerificationError as e:
        raise _not_verified(e, host, files, where) from None
    except ssl.SSLError as e:
        if "ALERT" in (e.reason or ""):
            raise Refused(f"{where} refused the TLS session ({_alert(e.reason)}): it does not take the "
                          f"switch's certificate {files.cert}") from None
        return None
    except OSError:
        return None


def _alert(reason: str) -> str:
    """``TLSV1_ALERT_UNKNOWN_CA`` -> ``alert unknown ca``."""
    text = reason.lower().replace("_", " ")
    return text[text.index("alert"):] if "alert" in text else text


def _not_verified(e: ssl.SSLCertVerificationError, host: str, files: TlsFiles, where: str) -> TlsProblem:
    if e.verify_code in NAME_MISMATCH:
        return Refused(f"{where}: the controller's certificate does not name {host} "
                       f"({e.verify_message}); connect by a name it has, or give it a certificate for {host}")
    return Unverified(f"{files.ca}: the controller's certificate at {where} does not verify against this CA "
                     f"({e.verify_message}); give the CA that signed it with --tls-ca")


def speaks_tls(host: str, port: int, timeout: float = 2.0) -> bool:
    """Does the peer answer a TLS handshake at all (no certificate checked, none presented)? A
    TLS controller either completes it or refuses us with an alert; a plain OpenFlow controller
    answers with bytes that are no TLS record, or closes."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw:
            with ctx.wrap_socket(raw) as s:
                s.settimeout(timeout)
                s.recv(1)
    except ssl.SSLError as e:
        return "ALERT" in (e.reason or "")
    except OSError:
        return False
    return True
