"""``certs.ensure``: made once, reused, made again when broken or with ``force``; what it makes
is what the contract says (ECDSA P-256, one CA, the controller's names, the switch's CN and
clientAuth), read back by OpenSSL."""

from __future__ import annotations

import stat
import subprocess

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from sdnbench.tls import certs
from sdnbench.tls.check import names, validity


def test_made_once_then_reused_and_forced(tmp_path):
    a = certs.ensure(tmp_path)
    assert a.made
    first = a.switch.cert.read_bytes()
    b = certs.ensure(tmp_path)
    assert not b.made and b.switch.cert.read_bytes() == first
    c = certs.ensure(tmp_path, force=True)
    assert c.made and c.switch.cert.read_bytes() != first
    c.controller.cert.write_text("broken")
    assert certs.ensure(tmp_path).made          # a broken set is made again


def test_what_is_made(tmp_path):
    cs = certs.ensure(tmp_path, days=30)
    ctl = x509.load_pem_x509_certificate(cs.controller.cert.read_bytes())
    sw = x509.load_pem_x509_certificate(cs.switch.cert.read_bytes())
    assert sorted(names(ctl)) == ["127.0.0.1", "::1", "localhost"]
    assert sw.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "sdnbench-switch"
    eku = sw.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(eku) == [ExtendedKeyUsageOID.CLIENT_AUTH]
    assert isinstance(ctl.public_key(), ec.EllipticCurvePublicKey) and ctl.public_key().curve.name == "secp256r1"
    start, end = validity(ctl)
    assert 29 <= (end - start).days <= 30
    for key in (cs.controller.key, cs.switch.key, tmp_path / "ca-key.pem"):
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    cp = subprocess.run(["openssl", "verify", "-CAfile", str(cs.controller.ca), str(cs.controller.cert),
                         str(cs.switch.cert)], capture_output=True, text=True)
    assert cp.returncode == 0, cp.stdout + cp.stderr
    cp = subprocess.run(["openssl", "x509", "-noout", "-text", "-in", str(cs.controller.cert)],
                        capture_output=True, text=True, check=True)
    assert "prime256v1" in cp.stdout and "IP Address:127.0.0.1" in cp.stdout and "DNS:localhost" in cp.stdout


def test_runs_starting_at_once_make_one_set(tmp_path):
    """Four processes asking for the set at once: one makes it, the others reuse it, and it is
    one set (its leaves signed by its CA), not a mix of several."""
    import multiprocessing

    from sdnbench.tls.check import good_set
    with multiprocessing.get_context("fork").Pool(4) as pool:
        made = pool.map(_made, [str(tmp_path)] * 4)
    assert sorted(made) == [False, False, False, True]
    assert good_set(certs.layout(tmp_path))


def _made(d: str) -> bool:
    return certs.ensure(d).made
