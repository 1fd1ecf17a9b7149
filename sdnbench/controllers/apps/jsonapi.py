"""The small JSON HTTP API of sdnbench's os-ken apps (``osken:topology``, ``osken:flowpush``):
bound to 127.0.0.1 on ``--sdnbench-api-port`` (none when it is 0), served beside the app's own
threads and closed with the app.

Runs inside the os-ken virtualenv, never in sdnbench's own: it imports only os_ken and the
standard library. os-ken 4.x runs on native threads by default, so a threading HTTP server fits;
under OSKEN_HUB_TYPE=eventlet the monkey-patched socket module makes it green instead.
"""

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from os_ken.lib import hub


class Handler(BaseHTTPRequestHandler):
    """A request to an app's API: subclasses add ``do_GET``/``do_POST`` and read ``self.app``."""

    app = None

    def path_only(self) -> str:
        return self.path.split("?", 1)[0]

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        self.app.logger.debug("api: " + fmt, *args)


def serve(app, handler, path):
    """Start ``app``'s API (``handler``, a ``Handler`` subclass) on ``app.port`` and say where
    ``path`` is; returns the server, or None when the app has no port."""
    if not app.port:
        return None
    server = ThreadingHTTPServer(("127.0.0.1", app.port), type("Bound", (handler,), {"app": app}))
    app.threads.append(hub.spawn(server.serve_forever))
    app.logger.info("%s API on http://127.0.0.1:%d%s", app.name, app.port, path)
    return server


def close(server):
    """Stop serving and release the port (nothing when there was no server)."""
    if server is not None:
        server.shutdown()
        server.server_close()
