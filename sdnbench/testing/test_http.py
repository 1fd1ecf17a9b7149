"""The fake HTTP server: routes, 404, JSON both ways, extra headers, and nothing left listening."""

import json
import socket
import urllib.error
import urllib.request

import pytest

from sdnbench.testing.http import FakeApi, FakeHttp


class Echo(FakeHttp):
    def answer(self, method, path, headers, body):
        return 201, {"method": method, "path": path, "body": body}, {"Location": f"{self.url}/1"}


def test_routes_answer_gets_and_record_them():
    with FakeApi({"/a": lambda: (200, {"x": 1}), "/raw": lambda: (200, "[1]")}) as api:
        assert json.loads(urllib.request.urlopen(api.url + "/a").read()) == {"x": 1}
        assert urllib.request.urlopen(api.url + "/raw").read() == b"[1]"
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(urllib.request.Request(api.url + "/b", headers={"Authorization": "k"}))
        assert e.value.code == 404
    assert api.requests == [("/a", None), ("/raw", None), ("/b", "k")]


def test_a_post_body_arrives_decoded_and_extra_headers_go_out():
    with Echo() as fake:
        req = urllib.request.Request(fake.url + "/p?q=1", data=b'{"k": 2}', method="POST",
                                     headers={"Content-Type": "application/json"})
        r = urllib.request.urlopen(req)
        assert r.status == 201 and r.headers["Location"] == fake.url + "/1"
        assert json.loads(r.read()) == {"method": "POST", "path": "/p?q=1", "body": {"k": 2}}
        port = fake.port
    with pytest.raises(ConnectionRefusedError):  # nothing listens any more
        socket.create_connection(("127.0.0.1", port), timeout=2)
