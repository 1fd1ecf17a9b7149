"""The one fake HTTP server of the tests: JSON over HTTP/1.1 on 127.0.0.1 in a thread, each
request answered by the subclass's ``answer`` and stopped (shut down, closed, joined) when the
``with`` block ends. ``FakeApi`` answers GETs from a table of callables: the stand-in for
controllers that cannot run here (Floodlight, ONOS, OpenDaylight) and for scripted controllers'
northbound views in known-answer tests. Nothing else listens."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Dict, Optional, Tuple


class FakeHttp:
    """Subclasses define ``answer(method, path, headers, body)`` -> ``(status, body)`` or
    ``(status, body, headers)``; the request body arrives decoded from JSON (None if empty), the
    answer's is sent as JSON (a ``str`` as it is, None as nothing)."""

    def __init__(self, port: int = 0) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def answer(self, method: str, path: str, headers, body) -> tuple:
        raise NotImplementedError

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _do(self, method: str) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n)) if n else None
                status, out, *extra = fake.answer(method, self.path, self.headers, body)
                data = b"" if out is None else out.encode() if isinstance(out, str) else json.dumps(out).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (extra[0] if extra else {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):  # noqa: N802 (http.server's names)
                self._do("GET")

            def do_POST(self):  # noqa: N802
                self._do("POST")

            def do_PUT(self):  # noqa: N802
                self._do("PUT")

            def do_DELETE(self):  # noqa: N802
                self._do("DELETE")

            def log_message(self, *args):
                pass

        return Handler


Route = Callable[[], Tuple[int, object]]    # () -> (status, JSON body or raw str)


class FakeApi(FakeHttp):
    """GETs answered from ``routes`` (path -> callable), 404 elsewhere; ``requests`` records
    (path, Authorization header) of each."""

    def __init__(self, routes: Dict[str, Route], port: int = 0) -> None:
        self.routes = routes
        self.requests: list = []
        super().__init__(port)

    def answer(self, method: str, path: str, headers, body) -> tuple:
        self.requests.append((path, headers.get("Authorization")))
        route: Optional[Route] = self.routes.get(path) if method == "GET" else None
        return route() if route else (404, {"error": "not found"})
