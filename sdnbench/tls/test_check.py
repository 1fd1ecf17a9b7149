"""``check``: each problem of a certificate file is one line naming the file and the reason.
The certificates are made with the library at known dates (``certs.make_ca``/``issue``); the
good ones are cross-checked by OpenSSL (``openssl verify``), the implementation the
controllers and Open vSwitch use."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

import pytest

from sdnbench.errors import UserError
from sdnbench.tls import certs
from sdnbench.tls.check import check, good_set
from sdnbench.tls.files import TlsFiles

NOW = dt.datetime(2026, 6, 1, 12, 0)
YEAR = dt.timedelta(days=365)


def _write(d: Path, name: str, issued: certs.Issued) -> tuple:
    cert, key = d / f"{name}-cert.pem", d / f"{name}-key.pem"
    cert.write_bytes(issued.cert_pem())
    key.write_bytes(issued.key_pem())
    return cert, key


@pytest.fixture
def pki(tmp_path):
    """A CA, a controller and a switch certificate valid around NOW, and a second CA."""
    ca = certs.make_ca(NOW - YEAR, NOW + YEAR)
    other = certs.make_ca(NOW - YEAR, NOW + YEAR, cn="another CA")
    (tmp_path / "ca.pem").write_bytes(ca.cert_pem())
    (tmp_path / "other-ca.pem").write_bytes(other.cert_pem())
    ctl = _write(tmp_path, "controller", certs.issue(ca, "c", NOW - YEAR, NOW + YEAR, ips=("127.0.0.1",),
                                                        dns=("localhost",), server=True))
    sw = _write(tmp_path, "switch", certs.issue(ca, "s", NOW - YEAR, NOW + YEAR))
    return {"dir": tmp_path, "ca": ca, "other": other, "ctl": TlsFiles(tmp_path / "ca.pem", *ctl),
            "sw": TlsFiles(tmp_path / "ca.pem", *sw)}


def _line(files: TlsFiles, role: str = "switch", **kw) -> str:
    with pytest.raises(UserError) as e:
        check(files, role, now=kw.pop("now", NOW), **kw)
    text = str(e.value)
    assert "\n" not in text and e.value.exit_code == 1
    return text


def test_a_good_set_passes_here_and_in_openssl(pki):
    check(pki["ctl"], "controller", host="127.0.0.1", peer_cert=pki["sw"].cert, now=NOW)
    check(pki["sw"], "switch", peer_cert=pki["ctl"].cert, now=NOW)
    check(pki["ctl"], "controller", host="localhost", now=NOW)
    cp = subprocess.run(["openssl", "verify", "-attime", str(int(NOW.replace(tzinfo=dt.timezone.utc).timestamp())),
                         "-CAfile", str(pki["dir"] / "ca.pem"), str(pki["ctl"].cert), str(pki["sw"].cert)],
                        capture_output=True, text=True)
    assert cp.returncode == 0, cp.stdout + cp.stderr


def test_expired_and_not_yet_valid(pki):
    old = _write(pki["dir"], "old", certs.issue(pki["ca"], "s", NOW - 2 * YEAR, NOW - YEAR))
    line = _line(TlsFiles(pki["sw"].ca, *old))
    assert line.startswith(f"{old[0]}: the switch's certificate expired on {(NOW - YEAR):%Y-%m-%d}")
    line = _line(pki["sw"], now=NOW + 2 * YEAR)       # the same files, two years later
    assert line.startswith(f"{pki['sw'].ca}: the CA certificate expired")
    line = _line(pki["sw"], now=NOW - 2 * YEAR)
    assert line.startswith(f"{pki['sw'].ca}: the CA certificate is not valid yet")


def test_wrong_ca(pki):
    files = TlsFiles(pki["dir"] / "other-ca.pem", pki["sw"].cert, pki["sw"].key)
    line = _line(files, peer_cert=pki["ctl"].cert)
    assert line.startswith(f"{files.ca}: not the CA that signed the controller's certificate {pki['ctl'].cert}")
    assert "sdnbench test CA" in line and "--tls-ca" in line


def test_same_name_other_key_is_still_the_wrong_ca(pki):
    """A CA with the same name but another key did not sign it: the signature is checked."""
    twin = certs.make_ca(NOW - YEAR, NOW + YEAR)         # the same subject as pki["ca"]
    (pki["dir"] / "twin.pem").write_bytes(twin.cert_pem())
    _line(TlsFiles(pki["dir"] / "twin.pem", pki["sw"].cert, pki["sw"].key), peer_cert=pki["ctl"].cert)


def test_wrong_name(pki):
    line = _line(pki["ctl"], "controller", host="127.0.0.2")
    assert line.startswith(f"{pki['ctl'].cert}: the controller's certificate does not name 127.0.0.2")
    assert "127.0.0.1" in line and "localhost" in line


def test_key_mismatch(pki):
    line = _line(TlsFiles(pki["sw"].ca, pki["sw"].cert, pki["ctl"].key))
    assert line.startswith(f"{pki['ctl'].key}: this key does not match the certificate {pki['sw'].cert}")


def test_not_pem_and_unreadable(pki, tmp_path):
    der = tmp_path / "cert.der"
    der.write_bytes(pki["ca"].cert.public_bytes(__import__("cryptography.hazmat.primitives.serialization",
                                                           fromlist=["Encoding"]).Encoding.DER))
    assert _line(TlsFiles(pki["sw"].ca, der, pki["sw"].key)).startswith(f"{der}: not a PEM certificate")
    assert _line(TlsFiles(pki["sw"].ca, pki["sw"].cert, der)).startswith(f"{der}: not a PEM private key")
    missing = tmp_path / "nope.pem"
    assert _line(TlsFiles(missing, pki["sw"].cert, pki["sw"].key)) == \
        f"{missing}: cannot read the CA certificate (--tls-ca) that signed the controller's: No such file or directory"
    assert "a directory, not a file" in _line(TlsFiles(tmp_path, pki["sw"].cert, pki["sw"].key))
    if os.geteuid() != 0:            # root reads a mode-000 file; the missing file stands for it
        locked = pki["sw"].key
        locked.chmod(0)
        assert "Permission denied" in _line(pki["sw"])


def test_good_set_is_false_for_a_missing_or_broken_set(tmp_path):
    cs = certs.layout(tmp_path)
    assert not good_set(cs)
    made = certs.ensure(tmp_path)
    assert made.made and good_set(cs)
    cs.switch.key.write_bytes(b"garbage")
    assert not good_set(cs)
