"""Open vSwitch in Mininet connecting with ``ssl:`` to a managed os-ken over TLS (docs/tls.md):
the switch takes the session only over TLS (os-ken listens for nothing else), a ping crosses
(the referee), the controller's own log records the switch's TLS session and certificate, and
Open vSwitch's SSL record is put back as it was."""

import pytest

from sdnbench.net import ovs_ssl
from sdnbench.net.runner import run_net

pytestmark = pytest.mark.integration


def test_ovs_ssl_to_osken_over_tls_pings(tmp_path):
    before = ovs_ssl.current()
    r = run_net({"topo": "linear,2", "controller": "osken:learning;tls", "measurements": ["ping"],
                 "ping": {"sizes": [64], "count": 3}, "log_dir": str(tmp_path)})
    assert r.status == "ok", r.error
    assert r.controller["tls"] is True
    assert r.counters["ping_sent"] == 3 and r.counters["ping_lost"] == 0     # across two switches
    [rtt] = [s for s in r.series if s.metric == "rtt"]
    assert len(rtt.values) == 3
    log = next(tmp_path.glob("osken_learning_tls-*.log")).read_text()
    # session 1 is sdnbench's readiness probe; the two bridges are sessions 2 and 3
    assert "TLS session 3 from 127.0.0.1" in log and log.count("commonName=sdnbench-switch") == 3
    assert ovs_ssl.current() == before
