"""Open vSwitch's SSL record (``ovs-vsctl set-ssl``) is set for the block and put back as it
was: nothing, or another run's files; left alone when somebody changed it meanwhile."""

import subprocess

import pytest

from sdnbench.net import ovs_ssl
from sdnbench.tls.files import TlsFiles

pytestmark = pytest.mark.integration


def test_set_and_put_back(tmp_path):
    before = ovs_ssl.current()
    ours = TlsFiles(tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem")
    other = ("/o/key.pem", "/o/cert.pem", "/o/ca.pem")
    try:
        with ovs_ssl.use(ours):
            assert ovs_ssl.current() == (str(ours.key), str(ours.cert), str(ours.ca))
        assert ovs_ssl.current() == before
        subprocess.run(["ovs-vsctl", "set-ssl", *other], check=True)
        with ovs_ssl.use(ours):
            pass
        assert ovs_ssl.current() == other                   # another run's files, put back
        with ovs_ssl.use(ours):
            subprocess.run(["ovs-vsctl", "set-ssl", "/t/k", "/t/c", "/t/ca"], check=True)
        assert ovs_ssl.current() == ("/t/k", "/t/c", "/t/ca")   # changed meanwhile: theirs
    finally:
        if before:
            subprocess.run(["ovs-vsctl", "set-ssl", *before], check=True)
        else:
            subprocess.run(["ovs-vsctl", "del-ssl"], check=True)
