"""The northbound adapters against fakes that answer as Floodlight's and ONOS's documented APIs
do (neither controller runs here): the requests they send, the switches they read, and a refusal
as one line naming the request and the answer."""

from __future__ import annotations

import pytest

from sdnbench.testing.peers.fake_northbound import FakeNorthbound
from .flow_push import FloodlightStaticFlowPusher, NorthboundRefused, OnosFlows, adapter_for


def test_floodlight_static_flow_pusher_requests_and_switches():
    with FakeNorthbound("floodlight", [1, 0x1234]) as f:
        a = adapter_for("tcp:127.0.0.1:6653", f.url, "floodlight")
        assert a.switches() == [1, 0x1234]
        a.add(0x1234, "02:5d:00:00:00:01", "00:00:00:00:00:02", 3)
        method, path, body = f.requests[-1]
    assert (method, path) == ("POST", "/wm/staticflowpusher/json")
    assert body == {"switch": "00:00:00:00:00:00:12:34", "name": "sdnbench-1", "priority": "100",
                    "eth_src": "02:5d:00:00:00:01", "eth_dst": "00:00:00:00:00:02", "active": "true",
                    "actions": "output=3"}


def test_floodlight_refusal_with_200_and_an_error_status_is_one_line():
    with FakeNorthbound("floodlight", [1]) as f:
        f.answer = lambda *a: (200, {"status": "Error! Must specify switch and name"})
        with pytest.raises(NorthboundRefused) as e:
            FloodlightStaticFlowPusher(f.url).add(1, "02:5d:00:00:00:01", "00:00:00:00:00:02", 3)
    msg = str(e.value)
    assert "\n" not in msg and "/wm/staticflowpusher/json" in msg and msg.endswith("Error! Must specify switch and name")


def test_onos_flows_requests_devices_and_refusals():
    with FakeNorthbound("onos", [1, 2]) as f:
        a = OnosFlows(f.url)
        assert a.switches() == [1, 2]
        a.add(2, "02:5d:00:00:00:01", "00:00:00:00:00:02", 1)
        method, path, body = f.requests[-1]
        assert (method, path) == ("POST", "/onos/v1/flows/of:0000000000000002?appId=org.sdnbench.provisioning")
        assert body["deviceId"] == "of:0000000000000002" and body["isPermanent"] is True
        assert body["selector"]["criteria"] == [{"type": "ETH_SRC", "mac": "02:5d:00:00:00:01"},
                                                {"type": "ETH_DST", "mac": "00:00:00:00:00:02"}]
        assert body["treatment"]["instructions"] == [{"type": "OUTPUT", "port": "1"}]
        with pytest.raises(NorthboundRefused, match=r"HTTP 404 .*Device of:0000000000000009 not found"):
            a.add(9, "02:5d:00:00:00:01", "00:00:00:00:00:02", 1)
        with pytest.raises(NorthboundRefused, match="HTTP 401"):
            OnosFlows(f.url, password="wrong").switches()
