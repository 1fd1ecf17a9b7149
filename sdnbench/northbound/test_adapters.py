"""Each adapter against a fake server answering like the controller's documented API (Floodlight
``LinksResource``, ONOS ``/onos/v1/links``, OpenDaylight RESTCONF ``flow:1``) and like our
os-ken app and Ryu's ``rest_topology``; and the one-line errors when the API cannot tell."""

from __future__ import annotations

import socket

import pytest

from .adapter import ADAPTERS, NorthboundError, adapter_for
from ..testing.http import FakeApi
from .links import emulated_links, missing_and_extra, undirected_names

# ring,3: 1:2-2:1, 2:2-3:1, 3:2-1:1
RING3 = {"links": [[1, 2, 2, 1], [2, 2, 3, 1], [3, 2, 1, 1]]}
WANT = emulated_links(RING3)


def _directions():
    return sorted(WANT)


def osken_doc():
    return [{"src": {"dpid": a, "port_no": pa, "name": None, "hw_addr": None},
             "dst": {"dpid": b, "port_no": pb, "name": None, "hw_addr": None}} for (a, pa), (b, pb) in _directions()]


def ryu_doc():
    end = lambda d, p: {"dpid": f"{d:016x}", "port_no": f"{p:08x}", "hw_addr": "00:00:00:00:00:01", "name": f"s{d}-eth{p}"}
    return [{"src": end(a, pa), "dst": end(b, pb)} for (a, pa), (b, pb) in _directions()]


def floodlight_doc():
    sw = lambda d: ":".join(f"{d:016x}"[i:i + 2] for i in range(0, 16, 2))
    return [{"src-switch": sw(a), "src-port": pa, "dst-switch": sw(b), "dst-port": pb,
             "type": "internal", "direction": "bidirectional"} for a, pa, b, pb in RING3["links"]]


def onos_doc():
    end = lambda d, p: {"device": f"of:{d:016x}", "port": str(p)}
    links = [{"src": end(a, pa), "dst": end(b, pb), "type": "DIRECT", "state": "ACTIVE"} for (a, pa), (b, pb) in _directions()]
    links.append({"src": end(9, 1), "dst": end(8, 1), "type": "DIRECT", "state": "INACTIVE"})
    return {"links": links}


def odl_doc():
    links = [{"link-id": f"openflow:{a}:{pa}", "source": {"source-node": f"openflow:{a}", "source-tp": f"openflow:{a}:{pa}"},
              "destination": {"dest-node": f"openflow:{b}", "dest-tp": f"openflow:{b}:{pb}"}} for (a, pa), (b, pb) in _directions()]
    return {"network-topology:topology": [{"topology-id": "flow:1", "node": [], "link": links}]}


DOCS = {"osken": osken_doc, "ryu": ryu_doc, "floodlight": floodlight_doc, "onos": onos_doc, "odl": odl_doc}


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_each_adapter_reads_ring_3_from_its_api(name):
    a = adapter_for(name)
    path = a.path
    with FakeApi({path: lambda: (200, DOCS[name]())}) as api:
        assert a.links(api.url) == WANT
        sent_auth = api.requests[-1][1]
    assert (sent_auth is not None) == (a.auth is not None)


def test_floodlight_unidirectional_counts_one_way_and_odl_empty_topology():
    doc = floodlight_doc()[:1]
    doc[0]["direction"] = "unidirectional"
    assert ADAPTERS["floodlight"].parse(doc) == {((1, 2), (2, 1))}
    assert ADAPTERS["odl"].parse({"topology": [{"topology-id": "flow:1"}]}) == set()


def test_missing_links_are_named():
    seen = set(WANT) - {((2, 2), (3, 1))}
    missing, extra = missing_and_extra(WANT, seen)
    assert missing == [((2, 2), (3, 1))] and extra == []
    assert undirected_names(missing) == ["2:2-3:1"]


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_unreachable_api_is_one_line_naming_the_url():
    url = f"http://127.0.0.1:{_closed_port()}"
    with pytest.raises(NorthboundError) as e:
        adapter_for("ryu").links(url, timeout=1)
    assert str(e.value).startswith(f"northbound {url}/v1.0/topology/links: unreachable") and "\n" not in str(e.value)


@pytest.mark.parametrize("status,body,says", [
    (500, {"error": "boom"}, "HTTP 500"),
    (200, "<html>login</html>", "not JSON: '<html>login</html>'"),
    (200, {"unexpected": True}, "unexpected answer"),
])
def test_unexpected_answers_are_one_line_with_what_came_back(status, body, says):
    a = adapter_for("onos")
    with FakeApi({a.path: lambda: (status, body)}) as api:
        with pytest.raises(NorthboundError) as e:
            a.links(api.url)
    msg = str(e.value)
    assert msg.startswith(f"northbound {api.url}{a.path}") and says in msg and "\n" not in msg


def test_unknown_adapter_lists_the_known_ones():
    with pytest.raises(Exception) as e:
        adapter_for("pox")
    assert "osken, ryu, floodlight, onos, odl" in str(e.value)
