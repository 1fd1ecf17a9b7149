"""Known answers for the TLS floor (issue 51): the C client on OpenSSL (hsclient.c --tls) counts
the sessions the TLS responder (sdnbench-responder --tls-*) really brought up, and what the
responder negotiates is what an independent client, Python's ssl (OpenSSL), says it negotiated."""

import socket
import ssl
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402
import cclient  # noqa: E402
from sdnbench.tls.certs import ensure  # noqa: E402


def _responder(tmp_path, ca=True):
    cs = ensure(tmp_path / "certs")
    c = cs.controller
    flags = ("--tls-cert", str(c.cert), "--tls-key", str(c.key)) + (("--tls-ca", str(c.ca)) if ca else ())
    return cs, bench.Responder("1.3", procs=2, extra=flags)


def _client(cs, who, versions):
    return (str(cs.switch.ca), str(who.cert), str(who.key), versions)


def test_the_c_clients_count_is_the_sessions_the_responder_brought_up_over_tls(tmp_path):
    cs, r = _responder(tmp_path)
    with r:
        for versions, want in (("1.3", "TLSv1.3"), ("1.2", "TLSv1.2")):
            out = cclient.run(r.port, 300, 2, r.p.pid, tls=_client(cs, cs.switch, versions))
            assert (out["sessions_up"], out["failed"], out["tls_version"]) == (300, 0, want)
            assert out["cpu_us_per_handshake_both_sides"] > 0 and out["responder_cpu_s"] > 0
        # the controller's certificate is no client certificate (no clientAuth): every session refused
        bad = cclient.run(r.port, 50, 1, r.p.pid, tls=_client(cs, cs.controller, "1.2"))
        assert (bad["sessions_up"], bad["failed"]) == (0, 50)
        # plain TCP to the TLS responder: nothing comes up
        plain = cclient.run(r.port, 20, 1, r.p.pid)
        assert (plain["sessions_up"], plain["failed"]) == (0, 20)


def _hello_over(ctx, port):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as s:
            s.sendall(bytes([4, 0, 0, 8, 0, 0, 0, 1]))
            got = b""
            while len(got) < 24:              # its HELLO (16 bytes, a version bitmap), then FEATURES_REQUEST
                got += s.recv(64)
            return s.version(), s.cipher()[0], got[:24]


def test_what_the_responder_negotiates_is_what_pythons_ssl_says(tmp_path):
    cs, r = _responder(tmp_path)
    with r:
        for v, name in ((ssl.TLSVersion.TLSv1_3, "TLSv1.3"), (ssl.TLSVersion.TLSv1_2, "TLSv1.2")):
            ctx = ssl.create_default_context(cafile=str(cs.switch.ca))
            ctx.load_cert_chain(str(cs.switch.cert), str(cs.switch.key))
            ctx.minimum_version = ctx.maximum_version = v
            version, cipher, got = _hello_over(ctx, r.port)
            assert version == name and cipher
            assert got[:2] == bytes([4, 0]) and got[16:18] == bytes([4, 5])   # HELLO, FEATURES_REQUEST
        # the CA given: a client without a certificate is refused
        ctx = ssl.create_default_context(cafile=str(cs.switch.ca))
        try:
            _hello_over(ctx, r.port)
            raise AssertionError("a client without a certificate was served")
        except (ssl.SSLError, ConnectionError, OSError):
            pass


def test_hsclient_refuses_a_load_over_tls_and_bad_files_in_one_line(tmp_path):
    import subprocess
    import tempfile
    cs = ensure(tmp_path / "certs")
    with tempfile.TemporaryDirectory() as d:
        exe = cclient._build(d)
        base = [str(exe), "--tls", str(cs.switch.ca), str(cs.switch.cert), str(cs.switch.key)]
        cases = [(base + ["1.3", "127.0.0.1", "1", "1", "1", "1", "127.77", "10", "1", "0", "2000", "2000"], "no load phase"),
                 (base + ["1.4", "127.0.0.1", "1", "1", "1", "1", "127.77"], "VERSIONS"),
                 ([str(exe), "--tls", "/nonexistent", str(cs.switch.cert), str(cs.switch.key), "1.3",
                   "127.0.0.1", "1", "1", "1", "1", "127.77"], "/nonexistent"),
                 ([str(exe), "--tls", str(cs.switch.ca), str(cs.switch.cert), str(cs.controller.key), "1.3",
                   "127.0.0.1", "1", "1", "1", "1", "127.77"], "not the key")]
        for argv, said in cases:
            cp = subprocess.run(argv, capture_output=True, text=True)
            assert cp.returncode == 1 and said in cp.stderr and len(cp.stderr.strip().splitlines()) == 1, (argv, cp.stderr)
