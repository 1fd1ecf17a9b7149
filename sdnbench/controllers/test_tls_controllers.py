"""Real controllers over TLS (docs/tls.md): os-ken, Faucet and ovs-testcontroller started with
``;tls`` listen for TLS only (a plain HELLO gets nothing; the HELLO inside TLS is answered, and
OpenSSL's own client completes the handshake with the switch's files); an external TLS
controller is taken as ``tls:HOST:PORT``; each fail-early check against them: a switch
certificate of another CA is refused BY THE CONTROLLER (exit 2), a controller certificate
without the address's name is refused (exit 2), another CA given with --tls-ca is the user's
(exit 1). A ``cmd:`` controller gets the controller's files through ``{tls_key}``... Ryu 4.34
is refused before it starts (test_tls_spec)."""

from __future__ import annotations

import subprocess

import pytest

from sdnbench.controllers import launch, ofhello, tlsprobe
from sdnbench.errors import UserError
from sdnbench.net.topology import parse_topology
from sdnbench.proc import spawn, wait_until
from sdnbench.tls import certs
from sdnbench.tls.files import TlsFiles

pytestmark = pytest.mark.integration


def _s_client(host: str, port: int, files: TlsFiles) -> str:
    cp = subprocess.run(["openssl", "s_client", "-connect", f"{host}:{port}", "-CAfile", str(files.ca),
                         "-cert", str(files.cert), "-key", str(files.key), "-verify_return_error", "-brief"],
                        input=b"", capture_output=True, timeout=20)
    return (cp.stdout + cp.stderr).decode(errors="replace")


CMD_TC = "cmd:ovs-testcontroller -O OpenFlow13 -p {tls_key} -c {tls_cert} -C {tls_ca} pssl:{port}:{host};of=1.3;tls"


@pytest.mark.parametrize("spec", ["osken:learning;tls", "ovs-testcontroller;tls", "faucet:auto;tls", CMD_TC])
def test_managed_controllers_take_tls_only(spec, tmp_path):
    own = certs.ensure()
    with launch(spec, log_dir=tmp_path, topology=parse_topology("single,2")) as ctl:
        assert ctl.tls and ctl.info["tls"] and ctl.target == f"127.0.0.1:{ctl.port}"
        assert ctl.probe(4) == 4                                   # the HELLO inside TLS
        assert ofhello.probe(ctl.host, ctl.port, 4) is None        # a plain HELLO: nothing
        said = _s_client(ctl.host, ctl.port, own.switch)
        assert "Verification: OK" in said and "Protocol version: TLSv1.3" in said, said
        if spec.startswith("osken"):
            log = ctl.log_path.read_text()
            assert "over TLS, switch certificates required" in log
            assert "TLS session 1 from 127.0.0.1" in log and "commonName=sdnbench-switch" in log


def test_external_tls_controller_and_its_refusals(tmp_path):
    own = certs.ensure()
    other = certs.ensure(tmp_path / "other")                      # another CA, its own switch pair
    with launch("ovs-testcontroller;tls", log_dir=tmp_path) as managed:
        port = managed.port
        with launch(f"tls:127.0.0.1:{port}") as ctl:              # the pre-flight takes a TLS port
            assert ctl.tls and ctl.pid is None and ctl.probe(4) == 4
        # the controller refuses a switch certificate of another CA: exit 2, the controller's answer
        with pytest.raises(tlsprobe.Refused) as e:
            with launch(f"tls:127.0.0.1:{port}", tls=TlsFiles(own.switch.ca, other.switch.cert, other.switch.key)):
                pass
        assert e.value.exit_code == 2 and str(other.switch.cert) in str(e.value) and "alert" in str(e.value)
        # another CA given for the controller: the user's --tls-ca, exit 1
        with pytest.raises(tlsprobe.Unverified) as e:
            with launch(f"tls:127.0.0.1:{port}", tls=TlsFiles(other.switch.ca, own.switch.cert, own.switch.key)):
                pass
        assert e.value.exit_code == 1 and str(e.value).startswith(f"{other.switch.ca}: the controller's certificate")


def test_a_managed_controller_refuses_a_switch_of_another_ca(tmp_path):
    own = certs.ensure()
    other = certs.ensure(tmp_path / "other")
    with pytest.raises(tlsprobe.Refused) as e:
        with launch("osken:learning;tls", log_dir=tmp_path,
                    tls=TlsFiles(own.switch.ca, other.switch.cert, other.switch.key)):
            pass
    assert e.value.exit_code == 2 and "refused the TLS session (alert unknown ca)" in str(e.value)
    # and --tls-ca of another CA is found before anything starts (the controller's certificate is known)
    with pytest.raises(UserError) as e:
        with launch("osken:learning;tls", log_dir=tmp_path,
                    tls=TlsFiles(other.switch.ca, own.switch.cert, own.switch.key)):
            pass
    assert str(e.value).startswith(f"{other.switch.ca}: not the CA that signed the controller's certificate")


def test_a_certificate_without_the_address_is_refused(tmp_path):
    """ovs-testcontroller with sdnbench's controller certificate (names 127.0.0.1, ::1,
    localhost), listening on 127.0.0.2: connecting there is refused, naming the address."""
    own = certs.ensure().controller
    port = ofhello.free_port("127.0.0.2")
    t = spawn("ovs-testcontroller", ["ovs-testcontroller", "-p", str(own.key), "-c", str(own.cert), "-C", str(own.ca),
                                     f"--unixctl={tmp_path / 'tc.ctl'}", f"pssl:{port}:127.0.0.2"],
              log_path=tmp_path / "tc.log")
    try:
        wait_until(lambda: ofhello.accepts("127.0.0.2", port), 10, "ovs-testcontroller on 127.0.0.2")
        with pytest.raises(tlsprobe.Refused) as e:
            with launch(f"tls:127.0.0.2:{port}"):
                pass
        assert e.value.exit_code == 2 and "does not name 127.0.0.2" in str(e.value)
    finally:
        t.stop(2.0)


def test_the_wrong_transport_is_named_at_once(tmp_path):
    """A TLS controller named tcp:, and a plain one named tls:, are one line naming the spec to
    use, without waiting out the HELLO time-out."""
    with launch("ovs-testcontroller;tls", log_dir=tmp_path) as tls_ctl, \
            launch("ovs-testcontroller", log_dir=tmp_path) as plain:
        for spec, want in ((f"tcp:127.0.0.1:{tls_ctl.port}", f"use tls:127.0.0.1:{tls_ctl.port}"),
                           (f"tls:127.0.0.1:{plain.port}", f"use tcp:127.0.0.1:{plain.port}")):
            with pytest.raises(UserError) as e:
                with launch(spec):
                    pass
            assert want in str(e.value) and e.value.exit_code == 1 and "timed out" not in str(e.value)
