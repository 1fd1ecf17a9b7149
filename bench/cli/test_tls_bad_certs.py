"""Each bad-certificate case of docs/tls.md (``tls_bad_certs.py``) through the command line:
its exit code (1: the user's file; 2: the controller refused the session) and its one line
naming the file and the reason, against real os-ken and ovs-testcontroller over TLS."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tls_bad_certs  # noqa: E402

pytestmark = pytest.mark.integration


def test_every_bad_certificate_case(tmp_path):
    tc, port = tls_bad_certs.external_wrong_name(tmp_path)
    try:
        cases = tls_bad_certs.make_cases(tmp_path, port)
        assert {c.exit for c in cases} == {1, 2}
        failed = {c.name: tls_bad_certs.problems(c, *tls_bad_certs.run(c)) for c in cases}
    finally:
        tc.stop(2.0)
    assert not {k: v for k, v in failed.items() if v}
