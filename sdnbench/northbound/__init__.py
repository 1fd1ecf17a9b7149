"""Northbound adapters: a controller's own view of the links it discovered.

One small module per controller API, each a pure ``parse(doc) -> set of links`` plus the path
to GET; ``adapter.Adapter`` adds the thin HTTP fetch. A link is directed:
``((src_dpid, src_port), (dst_dpid, dst_port))`` with integers, so an API that lists a link once
for both directions (Floodlight's ``bidirectional``) yields both.

    from sdnbench.northbound import adapter_for
    a = adapter_for("ryu")                       # a name of ADAPTERS (adapter.py)
    links = a.links("http://127.0.0.1:8080")     # raises NorthboundError: one line, URL + reply

Tested against the real controller: ``osken`` (our ``osken:topology`` app) and ``ryu``
(``ryu:rest_topology``). Floodlight, ONOS and OpenDaylight cannot be installed here: their
adapters are tested against fake servers (``sdnbench.testing.http.FakeApi``) answering like their documented
APIs (see docs/rfc8456-topology.md).
"""

from .adapter import ADAPTERS, Adapter, NorthboundError, adapter_for
from .links import Link, directed, emulated_links, missing_and_extra

__all__ = ["ADAPTERS", "Adapter", "Link", "NorthboundError", "adapter_for", "directed",
           "emulated_links", "missing_and_extra"]
