"""The JVM controller for the tests beside it: the jar ``make setup`` builds (its absence fails
every test here: setup is the contract) and one instance started as a user starts it."""

import os
import signal
import subprocess

import pytest

from sdnbench.controllers import ofhello
from sdnbench.proc import wait_until
from sdnbench.testing import jvm


@pytest.fixture(scope="module", autouse=True)
def built():
    """Fails each test of the module when the jar is missing, saying that ``make setup`` builds it."""
    why = jvm.missing()
    if why:
        pytest.fail(why, pytrace=False)


@pytest.fixture(scope="module")
def jvm_port(tmp_path_factory):
    """The JVM controller started here (as a user starts one), its port once it answers HELLO;
    stopped by SIGTERM (SIGKILL if it lingers), its process group only."""
    port = ofhello.free_port()
    log = tmp_path_factory.mktemp("jvm") / "jvm.log"
    with open(log, "w") as out:
        p = subprocess.Popen(jvm.command(port), stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until(lambda: p.poll() is not None or ofhello.probe("127.0.0.1", port, 4) is not None, 60,
                   "the JVM controller to answer HELLO")
        assert p.poll() is None, log.read_text()
        yield port
    finally:
        for sig, wait_s in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            if p.poll() is None:
                os.killpg(p.pid, sig)
                try:
                    p.wait(wait_s)
                except subprocess.TimeoutExpired:
                    pass
