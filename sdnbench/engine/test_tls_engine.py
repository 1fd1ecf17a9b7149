"""The engine over TLS against real TLS controllers (issue 51): os-ken (``osken:learning;tls``,
``--ctl-privkey/--ctl-cert/--ca-certs``, switch certificates required) and ovs-testcontroller
(``pssl:``), each in throughput and latency mode, TLS 1.3 and TLS 1.2 forced, the switches
presenting sdnbench's switch certificate. The engine's result names the version agreed; every
session is up over TLS; replies are counted; and the controller's own log shows it took TLS
sessions (os-ken: ``TLS session N from``; Open vSwitch: its connections are ``ssl:``)."""

from __future__ import annotations

import pytest

from sdnbench.controllers import launch
from sdnbench.engine.runner import against
from sdnbench.net.topology import parse_topology
from sdnbench.tls import certs

pytestmark = pytest.mark.integration

SHORT = {"loops": 1, "loop_ms": 400, "warmup": 0, "switches": 3, "macs": 10}
CASES = (("throughput", "1.3", "TLSv1_3"), ("latency", "1.2", "TLSv1_2"))


@pytest.mark.parametrize("spec,of_version,seen", [
    ("osken:learning;tls", "1.3", "TLS session"),
    ("ovs-testcontroller;tls", "1.0", "ssl:127.0.0.1:"),
])
def test_every_mode_over_tls_against_a_real_controller(spec, of_version, seen, tmp_path):
    files = certs.ensure().switch
    with launch(spec, of_version=of_version, log_dir=tmp_path, topology=parse_topology("single,2"), tls=files) as ctl:
        run = against(ctl)
        for i, (mode, version, want) in enumerate(CASES):
            tls = {"ca": str(files.ca), "cert": str(files.cert), "key": str(files.key), "versions": [version]}
            # new datapath ids each run, so that no run's sessions meet the last run's in the controller.
            # A session os-ken closes fails the test: its false ends of session are repaired
            # (controllers/apps/false_eof.py; docs/tls.md)
            params = dict(SHORT, controller=spec, of_version=of_version, mode=mode, tls=tls, first_dpid=1 + 100 * i)
            r = run(params)
            assert r.status == "ok", (mode, version, r.error)
            c = r.counters
            assert c["sessions_up"] == 3 and c["sessions_tls"] == 3, (mode, c)
            assert c["requests_answered"] > 0, (mode, c)
            assert (r.params["transport"], r.params["tls_version"]) == ("tls", want), (mode, r.params)
            assert r.params["tls_cipher_suite"], r.params
            # each step of the opening, timed alone, one sample per switch
            for step in ("tcp_connect_time", "tls_handshake_time", "openflow_handshake_time"):
                assert len(r.find(step)[0].values) == 3, step
            assert c["tls_handshake_p50_us"] > 0
        log = ctl.log_path.read_text(errors="replace")
    assert seen in log, f"{spec}: the controller's log shows no TLS session:\n{log[-2000:]}"
