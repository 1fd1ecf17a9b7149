"""Credentials in URLs (``http://user:password@host``): used, never printed or stored (issue 49).

A password enters sdnbench through two doors only: the command line and a scenario file. There
``keep`` takes it, remembers it for this process alone, and hands on the text with ``***`` in
its place (``http://user:***@host``). Everything after the door sees only that: parameters, the
stored run (its cells are run from the store), reports, failure lines. The HTTP edge
(``request``) puts the password back as HTTP basic auth and sends the request to the host without
the userinfo. ``redact`` masks without remembering: the last guard on a line about to be printed.

A run resumed in another process has no password (none was stored) unless the scenario file is
given again (``run --resume RUN FILE`` keeps it from there); without it, its requests stop with
one line asking for it rather than sending ``***``."""

from __future__ import annotations

import base64
import re
import urllib.request
from urllib.parse import unquote, urlsplit, urlunsplit

from .errors import UserError

MASK = "***"
# scheme://user:password@host — the password runs to the '@' (RFC 3986 §3.2.1: a literal '@' or
# '/' in it is percent-encoded)
_USERINFO = re.compile(r"(?P<pre>\b[A-Za-z][A-Za-z0-9+.-]*://(?P<user>[^\s/?#@:]*)):(?P<pw>[^\s/?#@]*)@"
                       r"(?P<host>[^\s/?#]*)")
_KEPT: dict = {}                 # (user, host[:port]) -> password, this process only


def _masked(m: re.Match) -> str:
    return f"{m['pre']}:{MASK}@{m['host']}"


def keep(text: str) -> str:
    """``text`` with every URL password masked, each remembered for ``request``."""
    def one(m: re.Match) -> str:
        if m["pw"] != MASK:
            _KEPT[(m["user"], m["host"])] = m["pw"]
        return _masked(m)
    return _USERINFO.sub(one, text)


def redact(text: str) -> str:
    """``text`` with every URL password masked (nothing remembered)."""
    return _USERINFO.sub(_masked, text)


def request(url: str, **kw) -> urllib.request.Request:
    """A ``Request`` to ``url`` without its userinfo, with HTTP basic auth from it (which wins
    over an ``Authorization`` header in ``headers``)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return urllib.request.Request(url, **kw)
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, pw = userinfo.partition(":")
    if pw == MASK:
        pw = _KEPT.get((user, host))
        if pw is None:
            raise UserError(f"{redact(url)}: the password is not known here (sdnbench never stores one); "
                            "give the URL with it again")
    req = urllib.request.Request(urlunsplit(parts._replace(netloc=host)), **kw)
    token = base64.b64encode(f"{unquote(user)}:{unquote(pw)}".encode()).decode()
    req.add_header("Authorization", f"Basic {token}")
    return req
