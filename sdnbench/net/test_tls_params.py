"""net run's TLS keys: files that cannot be read are refused with the others' problems, before
anything starts; TLS files with a plain spec are refused; the flags are the same keys."""

import pytest

from sdnbench.net.params import NetParamsError, check


def test_tls_keys(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    p = check({"topo": "linear,2", "controller": "osken:learning;tls", "tls_ca": str(ca)})
    assert p["tls_ca"] == str(ca)
    with pytest.raises(NetParamsError) as e:
        check({"topo": "linear,2", "controller": "osken:learning;tls", "tls_key": str(tmp_path / "no.pem")},
              flags=True)
    assert "--tls-key: " in str(e.value) and "cannot read the switch's private key: No such file or directory" in str(e.value)
    with pytest.raises(NetParamsError) as e:
        check({"topo": "linear,2", "controller": "osken:learning", "tls_ca": str(ca)})
    assert "controller: osken:learning is not on TLS, but TLS files are given" in str(e.value)
    with pytest.raises(NetParamsError):
        check({"topo": "linear,2", "controller": "standalone", "tls_ca": str(ca)})
