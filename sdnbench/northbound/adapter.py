"""An adapter: a controller API's path, its parser, and the fetch that joins them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

from ..errors import UserError
from . import floodlight, odl, onos, osken, ryu
from .http import NorthboundError, get_json, snippet


@dataclass(frozen=True)
class Adapter:
    name: str
    path: str
    parse: Callable[[Any], set]
    auth: Optional[Tuple[str, str]] = None
    doc: str = ""

    def url(self, base: str) -> str:
        return base.rstrip("/") + self.path

    def links(self, base: str, timeout: float = 5.0) -> set:
        """The controller's links now; NorthboundError (one line) when it cannot tell."""
        url = self.url(base)
        doc = get_json(url, timeout, self.auth)
        try:
            return self.parse(doc)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise NorthboundError(f"northbound {url}: unexpected answer ({type(e).__name__}: {e}): "
                                  f"{snippet(doc)}") from None


ADAPTERS = {
    "osken": Adapter("osken", osken.PATH, osken.parse, doc=osken.__doc__),
    "ryu": Adapter("ryu", ryu.PATH, ryu.parse, doc=ryu.__doc__),
    "floodlight": Adapter("floodlight", floodlight.PATH, floodlight.parse, doc=floodlight.__doc__),
    "onos": Adapter("onos", onos.PATH, onos.parse, onos.DEFAULT_AUTH, doc=onos.__doc__),
    "odl": Adapter("odl", odl.PATH, odl.parse, odl.DEFAULT_AUTH, doc=odl.__doc__),
}


def adapter_for(name: str) -> Adapter:
    try:
        return ADAPTERS[name]
    except KeyError:
        raise UserError(f"unknown northbound API {name!r}; known: {', '.join(ADAPTERS)}") from None
