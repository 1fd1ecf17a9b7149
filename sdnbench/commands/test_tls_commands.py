"""Which commands take a TLS controller (docs/tls.md): the ones that carry the switch's files
have the flags; the others refuse a TLS spec in one line, nothing started; ``sdnbench certs``
makes, reuses and checks a set."""

import json

import pytest

from sdnbench.cli import main
from sdnbench.commands._parser import build_parser
from sdnbench.errors import UserError

TLS = "osken:learning;tls"


@pytest.mark.parametrize("argv", [
    ["controller", "discovery", "--controller", TLS],
    ["controller", "provisioning", "--controller", TLS],
    ["controller", "robustness", "--controller", "osken:hub", "--controller", TLS],
    ["controller", "failover", "--controller", TLS],
    ["conformance", "--controller", TLS],
])
def test_commands_without_tls_refuse_a_tls_spec(refused, argv):
    line = refused(argv)
    assert f"--controller {TLS}: " in line and ("TLS" in line)


def test_the_flags_are_where_they_are_carried():
    parser = build_parser()
    for argv in (["controller", "bench"], ["controller", "capacity"], ["controller", "search"], ["net", "run", "--topo", "linear,2"]):
        args = parser.parse_args(argv + ["--tls-ca", "/x/ca.pem"])
        assert str(args.tls_ca) == "/x/ca.pem"
    with pytest.raises(UserError) as e:
        parser.parse_args(["controller", "discovery", "--tls-ca", "/x/ca.pem"])
    assert "unrecognized arguments: --tls-ca" in str(e.value)


def test_certs_command(tmp_path, capsys):
    assert main(["certs", "--dir", str(tmp_path), "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["status"] == "made" and made["switch"]["cert"] == str(tmp_path / "switch-cert.pem")
    assert main(["certs", "--dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "reused"
    assert main(["certs", "--dir", str(tmp_path), "--check"]) == 0
    assert capsys.readouterr().out.startswith(f"good: {tmp_path}")
    (tmp_path / "switch-key.pem").write_text("not a key")
    assert main(["certs", "--dir", str(tmp_path), "--check"]) == 1
    err = capsys.readouterr().err
    assert err == f"sdnbench: error: {tmp_path / 'switch-key.pem'}: not a PEM private key: the switch's private key must be PEM, unencrypted\n"
