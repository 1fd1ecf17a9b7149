"""A small HTTP server on 127.0.0.1 answering GETs from a table of callables: the stand-in for
controllers that cannot run here (Floodlight, ONOS, OpenDaylight) and for scripted controllers'
northbound views in known-answer tests. Nothing else listens; it stops on leaving the block."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Dict, Tuple

Route = Callable[[], Tuple[int, object]]    # () -> (status, JSON body or raw str)


class FakeApi:
    def __init__(self, routes: Dict[str, Route]):
        self.routes = routes
        self.requests: list = []             # (path, Authorization header)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "FakeApi":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler(self):
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                api.requests.append((self.path, self.headers.get("Authorization")))
                route = api.routes.get(self.path)
                status, body = route() if route else (404, {"error": "not found"})
                data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        return Handler
