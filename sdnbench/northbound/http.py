"""The thin HTTP edge of the adapters: GET a URL, return its JSON, or one line saying why not."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from typing import Any, Optional, Tuple

from ..errors import UserError
from ..redact import request


class NorthboundError(UserError):
    """The northbound API was unreachable or answered something unexpected (names the URL)."""


def snippet(data: Any, limit: int = 120) -> str:
    text = data if isinstance(data, str) else json.dumps(data)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def get_json(url: str, timeout: float = 5.0, auth: Optional[Tuple[str, str]] = None) -> Any:
    req = request(url, headers={"Accept": "application/json"})
    if auth and not req.has_header("Authorization"):      # the URL's own credentials win
        token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        req.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            body = r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        raise NorthboundError(f"northbound {url}: HTTP {e.code} {e.reason}") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise NorthboundError(f"northbound {url}: unreachable ({reason})") from None
    try:
        return json.loads(body)
    except ValueError:
        raise NorthboundError(f"northbound {url}: not JSON: {snippet(body)!r}") from None
