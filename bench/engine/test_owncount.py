"""owncount.py: Floodlight's own count of what it wrote. The body is a real one:
``GET /wm/core/counter/OFSwitchManager/all/json`` from Floodlight 71fe8a7 (docs/floodlight.md,
``fl-ls.properties``) 3 s into ``sdnbench controller cbench -- ... -s 1 -t`` on it (2026-11-29):
90,381 packet-outs and the one flow-mod (delete all) of the handshake written, 105,264
packet-ins read, 99 counters in all, most of them module-wide and 0."""

import http.server
import json
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from owncount import OwnCountError, floodlight_writes, reader  # noqa: E402

BODY = json.loads((Path(__file__).parent / "testdata" / "floodlight-counters.json").read_text())


def test_the_writes_are_the_packet_outs_and_flow_mods_of_every_connection():
    assert floodlight_writes(BODY) == 90_381 + 1
    two = dict(BODY, **{"00:00:00:00:00:00:00:02:0x0/write/PACKET_OUT": 7,
                        "00:00:00:00:00:00:00:02:0x0/read/PACKET_IN": 9})
    assert floodlight_writes(two) == 90_382 + 7
    assert floodlight_writes({k: v for k, v in BODY.items() if ":0x0/" not in k}) == 0   # no switch connected


@pytest.fixture
def api():
    """Floodlight's counter resource as a local HTTP server: (base URL, the body it serves)."""
    served = {"body": BODY}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path != "/wm/core/counter/OFSwitchManager/all/json":
                self.send_error(404)
                return
            data = json.dumps(served["body"]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/", served, srv
    finally:
        srv.shutdown()
        srv.server_close()


def test_the_reader_reads_the_api_each_time_and_none_when_it_cannot(api):
    url, served, srv = api
    read = reader("floodlight", url)
    assert read() == 90_382
    served["body"] = dict(BODY, **{"00:00:00:00:00:00:00:01:0x0/write/PACKET_OUT": 100_000})
    assert read() == 100_001
    served["body"] = ["not", "a", "map"]
    assert read() is None
    srv.shutdown()
    srv.server_close()
    assert read() is None


@pytest.mark.parametrize("kind,url,want", [("onos", "http://127.0.0.1:1", "known kinds are floodlight"),
                                           ("floodlight", None, "has no http= API")])
def test_what_cannot_be_read_is_named(kind, url, want):
    with pytest.raises(OwnCountError, match=want):
        reader(kind, url)
