"""A URL's password is used as HTTP basic auth and is never printed or stored (issue 49): the
unit rules, then whole commands against fake northbound APIs, grepping everything they leave."""

import base64
import subprocess
import sys

import pytest

from sdnbench.errors import UserError
from sdnbench.redact import keep, redact, request


def test_keep_masks_the_password_and_request_puts_it_back_as_basic_auth():
    text = keep("--api-url http://ann:pa%40ss@127.0.0.1:8181/x")
    assert text == "--api-url http://ann:***@127.0.0.1:8181/x"
    req = request("http://ann:***@127.0.0.1:8181/x?y=1", headers={"Authorization": "Basic b25vczpyb2Nrcw=="})
    assert req.full_url == "http://127.0.0.1:8181/x?y=1"
    assert req.get_header("Authorization") == "Basic " + base64.b64encode(b"ann:pa@ss").decode()


def test_redact_masks_every_password_and_leaves_other_text_alone():
    assert redact("GET https://u:p@h:1/a and ftp://v:w@x") == "GET https://u:***@h:1/a and ftp://v:***@x"
    for plain in ("http://127.0.0.1:8080/a:b@c", "http://user@host/", "tcp:127.0.0.1:6653", "a:b@c"):
        assert redact(plain) == plain


def test_a_masked_url_whose_password_this_process_never_saw_is_one_line():
    with pytest.raises(UserError, match=r"http://nobody:\*\*\*@127.0.0.1:9: the password is not known here"):
        request("http://nobody:***@127.0.0.1:9")


def test_a_url_without_userinfo_is_sent_as_it_is():
    req = request("http://127.0.0.1:9/p", headers={"Accept": "application/json"})
    assert req.full_url == "http://127.0.0.1:9/p" and not req.has_header("Authorization")


def test_wrong_credentials_are_one_line_without_the_password():
    from sdnbench.northbound.http import get_json
    from sdnbench.testing.peers.fake_northbound import FakeNorthbound
    with FakeNorthbound("onos", [1]) as f:
        url = keep(f.url.replace("http://", "http://onos:wrong@")) + "/onos/v1/devices"
        with pytest.raises(UserError) as e:
            get_json(url, timeout=5)
    assert "HTTP 401" in str(e.value) and "wrong" not in str(e.value) and "onos:***@" in str(e.value)


def _sdnbench(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sdnbench", *argv], capture_output=True, text=True, timeout=300)


def _left_anywhere(secret: str, proc, *paths) -> list:
    where = [name for name, text in (("stdout", proc.stdout), ("stderr", proc.stderr)) if secret in text]
    return where + [str(p) for p in paths for f in ([p] if p.is_file() else p.rglob("*"))
                    if f.is_file() and secret.encode() in f.read_bytes()]


def test_a_password_in_api_url_reaches_the_api_and_nowhere_else(tmp_path):
    """``controller provisioning --api onos`` against a fake ONOS that wants ``user:s3cret``: the
    flows are pushed (the fake answers 401 without them), and the password is in neither the
    output, the result file nor the store."""
    from sdnbench.testing.peers.fake_northbound import FakeNorthbound
    from sdnbench.testing.peers.path_controller import PathController
    auth = "Basic " + base64.b64encode(b"user:s3cret").decode()
    with PathController() as c, FakeNorthbound("onos", [1, 2, 3], auth=auth) as f:
        p = _sdnbench("controller", "provisioning", "--mode", "proactive", "--controller", f"tcp:{c.address}",
                      "--api", "onos", "--api-url", f.url.replace("http://", "http://user:s3cret@"), "--flows", "3",
                      "--deadline", "20", "--reps", "1", "--store", str(tmp_path / "st"), "-o", str(tmp_path / "r.json"))
        posted = [r for r in f.requests if r[0] == "POST"]
    assert p.returncode == 0, p.stderr
    assert posted, f.requests                    # every request passed the fake's auth check
    assert _left_anywhere("s3cret", p, tmp_path) == []


def test_a_failed_rfc8456_run_keeps_no_password_in_its_lines_report_or_store(tmp_path):
    """The issue's case: trials that fail, a FAILED run stored, a report written."""
    from sdnbench.testing.peers.path_controller import PathController
    with PathController(push_api=True) as c:
        p = _sdnbench("rfc8456", "--controller", f"tcp:{c.address}", "--api", "osken", "--api-url",
                      c.api_url.replace("http://", "http://user:password@"), "--only", "proactive", "--quick",
                      "--store", str(tmp_path / "st"), "-o", str(tmp_path / "r.md"))
    assert p.returncode in (0, 2) and "Traceback" not in p.stderr, p.stderr
    assert (tmp_path / "r.md").exists() and "user:***@" in (tmp_path / "r.md").read_text()
    assert _left_anywhere("password", p, tmp_path) == []


def test_a_scenario_keeps_its_text_without_the_password_and_the_password_for_requests():
    from sdnbench.campaign.scenario import parse
    sc = parse("name: s\ndescription: the API at http://ann:pw9@127.0.0.2:1\nbenchmarks:\n"
               "  - kind: synthetic\n    params: {samples: 3}\n")
    assert "pw9" not in sc.text and "http://ann:***@127.0.0.2:1" in sc.text and "pw9" not in sc.description
    auth = request("http://ann:***@127.0.0.2:1/x").get_header("Authorization")
    assert auth == "Basic " + base64.b64encode(b"ann:pw9").decode()
