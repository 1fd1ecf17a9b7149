"""RFC 8456 §4.8 "connection encrypted": read from what the run used. The engine's own account
(its ``transport``, TLS-CONTRACT.md section 3) first; else a TLS controller (it takes nothing
else); else plain TCP. Never from what was only asked."""

from sdnbench.report.fields import _encrypted, encryption
from sdnbench.result import Result

TLS13 = {"protocol": "tls", "tls_version": "TLSv1_3", "cipher_suite": "TLS13_AES_128_GCM_SHA256", "sessions_tls": 16}


def _r(params=None, controller=None) -> Result:
    return Result(kind="controller", benchmark="throughput", params=params or {}, controller=controller)


def test_the_engines_transport_says():
    assert encryption(_r({"transport": TLS13})) == "yes: TLS (TLSv1_3, TLS13_AES_128_GCM_SHA256), 16 TLS sessions"
    assert encryption(_r({"transport": {"protocol": "tcp", "tls_version": None, "cipher_suite": None,
                                        "sessions_tls": 0}})) == "no (plain TCP)"
    # the engine's account wins over what the params asked
    assert encryption(_r({"tls": {"ca": "x"}, "transport": {"protocol": "tcp"}})) == "no (plain TCP)"


def test_without_the_engines_account():
    assert encryption(_r(controller={"spec": "osken:learning;tls", "tls": True})).startswith(
        "yes: TLS (the controller took nothing else")
    assert encryption(_r(controller={"spec": "osken:learning"})) == "no (plain TCP)"
    assert encryption(_r()) == "no (plain TCP)"


def test_a_run_of_both_says_both():
    rs = [_r({"transport": TLS13}), _r({"transport": {"protocol": "tcp"}}), _r({"transport": TLS13})]
    assert _encrypted(rs) == "yes: TLS (TLSv1_3, TLS13_AES_128_GCM_SHA256), 16 TLS sessions; no (plain TCP)"


def test_the_params_as_engine_convert_writes_them():
    flat = {"transport": "tls", "tls_version": "TLSv1_2", "tls_cipher_suite": "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"}
    r = _r(flat)
    r.counters["sessions_tls"] = 4
    assert encryption(r) == "yes: TLS (TLSv1_2, TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384), 4 TLS sessions"
    assert encryption(_r({"transport": "tcp"})) == "no (plain TCP)"
