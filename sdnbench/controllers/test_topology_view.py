"""The topology app's JSON (pure part): integer DPIDs and ports, stable order, routing of paths."""

from sdnbench.controllers.apps.topology_view import route, topology_view


def port(dpid, no, name=""):
    return {"dpid": f"{dpid:016x}", "port_no": f"{no:08x}", "hw_addr": "aa:bb:cc:dd:ee:ff", "name": name}


def test_view_converts_and_sorts():
    switches = [{"dpid": f"{2:016x}", "ports": [port(2, 2), port(2, 1)]},
                {"dpid": f"{1:016x}", "ports": [port(1, 1)]}]
    links = [{"src": port(2, 2), "dst": port(1, 2)}, {"src": port(1, 2), "dst": port(2, 2)}]
    hosts = [{"mac": "00:00:00:00:00:02", "ipv4": ["10.0.0.2"], "ipv6": [], "port": port(2, 1)}]
    v = topology_view(switches, links, hosts)
    assert [s["dpid"] for s in v["switches"]] == [1, 2]
    assert v["switches"][1]["dpid_str"] == "0000000000000002"
    assert [p["port_no"] for p in v["switches"][1]["ports"]] == [1, 2]
    assert [(l["src"]["dpid"], l["dst"]["dpid"]) for l in v["links"]] == [(1, 2), (2, 1)]
    assert v["hosts"] == [{"mac": "00:00:00:00:00:02", "ipv4": ["10.0.0.2"], "ipv6": [],
                           "dpid": 2, "port_no": 1}]


def test_routes():
    assert route("/v1/topology") == (None, True)
    assert route("/v1") == (None, True)
    assert route("/v1/links") == ("links", True)
    assert route("/v1/health") == ("health", True)
    assert route("/v2/links")[1] is False
    assert route("/v1/links/extra")[1] is False
    assert route("/")[1] is False
