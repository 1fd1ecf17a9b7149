"""The switches' TLS files in engine params (TLS-CONTRACT.md sections 3 and 4): ``tls_ca``,
``tls_cert``, ``tls_key`` (flags or scenario keys) become the engine's ``tls`` field; a TLS spec
always gets one (sdnbench's own files for what is left out); a plain spec with TLS files is
refused; the field is never sent for a plain spec."""

import pytest

from sdnbench.controllers import tlsfiles
from sdnbench.engine.params import _tls, launch_spec, launch_tls
from sdnbench.errors import UserError
from sdnbench.tls import certs


@pytest.fixture
def own(tmp_path, monkeypatch):
    cs = certs.ensure(tmp_path / "tls")
    monkeypatch.setattr(tlsfiles.certs, "ensure", lambda *a, **k: cs)
    return cs


def test_a_tls_spec_gets_the_switch_files(own):
    p = {"controller": "osken:learning;tls"}
    _tls(p)
    assert p["tls"] == {"ca": str(own.switch.ca), "cert": str(own.switch.cert), "key": str(own.switch.key)}
    assert launch_tls(p) == own.switch
    p = {"controller": "tls:127.0.0.1:6653", "tls_ca": "/x/ca.pem", "tls_key": "/x/k.pem"}
    _tls(p)
    assert p == {"controller": "tls:127.0.0.1:6653",
                 "tls": {"ca": "/x/ca.pem", "cert": str(own.switch.cert), "key": "/x/k.pem"}}
    again = dict(p)
    _tls(again)                         # resolved params checked again: the same
    assert again == p


def test_a_plain_spec_gets_none_and_refuses_files(own):
    p = {"controller": "osken:learning", "tls": {"ca": "x"}}
    _tls(p)
    assert "tls" not in p and launch_tls(p) is None
    with pytest.raises(UserError) as e:
        _tls({"controller": "osken:learning", "tls_cert": "/x/c.pem"})
    assert str(e.value).startswith("--tls-cert (tls_cert): the controller osken:learning is not on TLS")


def test_faucet_auto_on_tls_stays_on_tls(monkeypatch, tmp_path):
    import sdnbench.engine.params as params
    monkeypatch.setattr(params, "faucet_config_for", lambda *a, **k: tmp_path / "f.yaml")
    spec = launch_spec({"controller": "faucet:auto;tls", "first_dpid": 1, "switches": 2, "ports": 4})
    assert spec == f"faucet:{tmp_path / 'f.yaml'};tls"
