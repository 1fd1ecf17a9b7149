"""TLS in specs: ``tls:HOST:PORT`` and ``;tls`` on every kind sdnbench starts, read in one place;
the launch plans then carry each controller's own TLS flags (read from their code: os-ken's and
Ryu's controller.py listen for TLS only, on --ofp-ssl-listen-port, when given a key and a
certificate; ovs-testcontroller takes pssl: with -p -c -C)."""

from __future__ import annotations

import pytest

from sdnbench.controllers import cmdplan, tlsfiles
from sdnbench.controllers.kinds import kind_of
from sdnbench.controllers.plan import plan_for
from sdnbench.controllers.spec import parse_spec
from sdnbench.errors import UserError
from sdnbench.tls import certs


@pytest.fixture(autouse=True)
def own_certs(tmp_path, monkeypatch):
    """sdnbench's own set in a scratch directory, not the state directory."""
    cs = certs.ensure(tmp_path / "tls")
    monkeypatch.setattr(tlsfiles.certs, "ensure", lambda *a, **k: cs)
    return cs


@pytest.mark.parametrize("text,kind", [
    ("osken:learning;tls", "osken"), ("ovs-testcontroller;tls", "ovs-testcontroller"),
    ("faucet:auto;tls", "faucet"), ("ryu:simple_switch_13;tls", "ryu"),
    ("cmd:prog --port={port};of=1.3;tls", "cmd"), ("cmd:prog --port={port} ; tls ;name=x", "cmd"),
    ("tls:127.0.0.1:6653", "tls"), ("tls:[::1]:6653", "tls"),
])
def test_tls_specs(text, kind):
    s = parse_spec(text)
    assert (s.kind, s.tls, s.text) == (kind, True, text)


def test_plain_specs_are_not_tls_and_a_quoted_semicolon_belongs_to_the_command():
    assert not parse_spec("osken:learning").tls and not parse_spec("tcp:127.0.0.1:6653").tls
    s = parse_spec("cmd:sh -c 'run --port={port};tls'")
    assert not s.tls and s.command.argv == ("sh", "-c", "run --port={port};tls")
    assert parse_spec("cmd:prog --port={port};name=x;tls").command.label == "x"


@pytest.mark.parametrize("text,needle", [
    ("tcp:127.0.0.1:6653;tls", "a TLS controller started elsewhere is tls:HOST:PORT"),
    ("tls:127.0.0.1", "expected tls:HOST:PORT"),
    ("tls:127.0.0.1:0", "expected tls:HOST:PORT"),
    ("osken:learning;tsl", "unknown os-ken app"),
])
def test_bad_tls_specs(text, needle):
    with pytest.raises(UserError) as e:
        parse_spec(text)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_osken_and_faucet_listen_for_tls_only(own_certs, tmp_path):
    f = own_certs.controller
    for text in ("osken:learning;tls", f"faucet:{tmp_path / 'f.yaml'};tls"):
        (tmp_path / "f.yaml").write_text("dps: {}\n")
        argv = plan_for(parse_spec(text), 7001, "1.3", tmp_path).argv
        assert "--ofp-tcp-listen-port" not in argv
        i = argv.index("--ofp-ssl-listen-port")
        assert argv[i:i + 8] == ["--ofp-ssl-listen-port", "7001", "--ctl-privkey", str(f.key),
                                 "--ctl-cert", str(f.cert), "--ca-certs", str(f.ca)]
    plain = plan_for(parse_spec("osken:learning"), 7001, "1.3", tmp_path).argv
    assert "--ofp-ssl-listen-port" not in plain and "--ofp-tcp-listen-port" in plain


def test_ovs_testcontroller_pssl(own_certs, tmp_path):
    f = own_certs.controller
    argv = plan_for(parse_spec("ovs-testcontroller;tls"), 7002, "1.3", tmp_path).argv
    assert argv[-7:] == ["-p", str(f.key), "-c", str(f.cert), "-C", str(f.ca), "pssl:7002:127.0.0.1"]
    assert plan_for(parse_spec("ovs-testcontroller"), 7002, "1.3", tmp_path).argv[-1] == "ptcp:7002:127.0.0.1"


def test_ryu_on_tls_is_refused_before_it_starts():
    spec = parse_spec("ryu:simple_switch_13;tls")
    with pytest.raises(UserError) as e:
        kind_of(spec).precheck(spec)
    assert "no shared cipher" in str(e.value) and "osken:learning;tls" in str(e.value)


def test_cmd_placeholders_are_the_controllers_files(own_certs):
    f = own_certs.controller
    spec = parse_spec("cmd:/bin/echo --port={port} --ca={tls_ca} --cert={tls_cert};env=KEY={tls_key};tls")
    plan = cmdplan.cmd_plan(spec, 7003, environ={"PATH": "/bin:/usr/bin"})
    assert plan.argv[1:] == ["--port=7003", f"--ca={f.ca}", f"--cert={f.cert}"]
    assert plan.env["KEY"] == str(f.key)
    with pytest.raises(UserError) as e:
        cmdplan.cmd_plan(parse_spec("cmd:/bin/echo --port={port} --ca={tls_ca}"), 7003, environ={"PATH": "/bin"})
    assert "{tls_ca} is only filled in for a controller on TLS; add ;tls" in str(e.value)
