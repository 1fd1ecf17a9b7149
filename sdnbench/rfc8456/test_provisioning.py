"""Reactive path provisioning and table capacity: pure parts, known answers against the scripted
path controller (a known install delay, a known table cap), and the real os-ken learning app.

Known answers: a K-switch path through a controller that answers each packet-in after d (as
it really waited, recorded by the peer itself) costs K x d more than the same path through the same controller answering at once (the measured
floor): read within 5%. A controller that installs at most M flows per switch leaves exactly M
entries (limit: controller); an emulated table of T entries holds exactly T (limit: switch-table,
every refusal a TABLE_FULL the controller receives)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ..errors import UserError
from ..net.engine_network import network_for
from . import provisioning as prov
from sdnbench.testing.peers.path_controller import PathController
from .paths import farthest_pairs, path_switches
from .stored import ProvisioningCounters


def _trial(ctl, topo: str, flows: int, timeout_ms: int = 300, table_size: int = 0, concurrency: int = 1) -> dict:
    net, _, _ = prov.trial_network(topo, flows, concurrency=concurrency, timeout_ms=timeout_ms, announce_ms=300,
                                   table_size=table_size)
    s = prov.summarize(prov.run_trial(ctl.address, net, "1.0", 20), net)
    assert s["invariant"] == "ok" and s["network_invariant"] == "ok", s
    return s


def test_farthest_pairs_give_the_path_length():
    pairs, k = farthest_pairs(network_for("linear,4"))
    assert (pairs, k) == ([(0, 3), (3, 0)], 4)
    net = network_for("fattree,4")
    pairs, k = farthest_pairs(net)
    assert k == 5 and len(pairs) == 16, "every host has a farthest host in another pod"
    assert len(path_switches(net, *pairs[0])) == 10, "2 edges, 4 aggregations, 4 cores on shortest paths"
    with pytest.raises(UserError, match="at least 2 hosts"):
        farthest_pairs({"spec": "x", "switches": [{"dpid": 1, "ports": 1}], "hosts": []})


def test_capacity_names_the_limit_hit():
    base = {"flows": 10, "provisioned": 10, "table_full": 0, "table_size": 0, "entries_on_path_max": 10}
    assert prov.capacity(base) == (10, "none")
    assert prov.capacity(dict(base, entries_on_path_max=7)) == (7, "controller")
    assert prov.capacity(dict(base, entries_on_path_max=5, table_size=5, table_full=3)) == (5, "switch-table")
    assert prov.capacity(dict(base, provisioned=4, entries_on_path_max=4)) == (4, "controller")
    assert prov.stats([1.0, 3.0]) == {"trials": 2, "average": 2.0, "variance": 2.0}
    assert prov.run_seconds({"timeout_ms": 500, "flows": 10, "concurrency": 2, "rate": 0, "announce_ms": 1000}, 30) == 4.0


@pytest.mark.parametrize("topo,k,delay", [("linear,2", 2, 0.020), ("linear,4", 4, 0.010)])
def test_known_install_delay_is_read_within_5_percent(topo, k, delay):
    with PathController() as c:
        floor = _trial(c, topo, 5)
    with PathController(delay_s=delay) as c:
        s = _trial(c, topo, 5)
        applied = c.applied_s
    assert floor["provisioned"] == s["provisioned"] == 5
    assert len(applied) == 5 * k and all(a >= delay for a in applied)
    want = k * sum(applied) / len(applied) * 1000     # the delay the peer really applied
    extra = sum(s["times_ms"]) / 5 - sum(floor["times_ms"]) / 5
    assert abs(extra - want) <= 0.05 * want, (extra, want, s["times_ms"], floor["times_ms"])
    assert s["entries_on_path_min"] == 5, "every switch of the path holds every flow"


def test_known_controller_cap_and_switch_table_size_are_read_exactly():
    with PathController(install_cap=7) as c:
        s = _trial(c, "linear,2", 12, concurrency=4)
    assert s["provisioned"] == 12, "packet-outs still carry the frames"
    assert prov.capacity(s) == (7, "controller") and s["table_full"] == 0
    with PathController() as c:
        s = _trial(c, "linear,2", 12, table_size=5, concurrency=4)
        refused = c.table_full_errors
    assert prov.capacity(s) == (5, "switch-table")
    assert s["table_full"] == refused == 2 * 7, "each switch refused the 7 flows beyond 5"


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sdnbench", "controller", *args], capture_output=True, text=True,
                          timeout=300)


def test_a_controller_that_never_provisions_stops_at_its_deadline_with_a_verdict(tmp_path):
    out = tmp_path / "r.json"
    with PathController(delay_s=30) as c:
        cp = _cli("provisioning", "--controller", f"tcp:{c.address}", "--flows", "3", "--timeout-ms", "200",
                  "--announce-ms", "200", "--reps", "1", "-o", str(out))
    assert cp.returncode == 2, cp.stderr
    assert "never provisioned" in cp.stderr and "Traceback" not in cp.stderr
    [r] = json.loads(out.read_text())
    assert r["status"] == "failed" and r["counters"]["timed_out"] == 3, "what was measured is kept"


def test_bad_input_is_one_line():
    cp = _cli("provisioning", "--flows", "0", "--reps", "1")
    assert cp.returncode == 1 and "--flows: " in cp.stderr and "got 0" in cp.stderr, cp.stderr
    assert cp.stderr.count("\n") == 1 and "Traceback" not in cp.stderr


def test_osken_learning_provisions_linear_2_reactively():
    cp = _cli("provisioning", "--controller", "osken:learning", "--topo", "linear,2", "--flows", "10",
              "--timeout-ms", "500", "--reps", "1", "--json")
    assert cp.returncode == 0, cp.stderr
    [r] = json.loads(cp.stdout)
    c = r["counters"]
    assert c["provisioned"] == 10 and c["verdict"] == "all provisioned"
    assert ProvisioningCounters.problems(c) == []
    assert c["entries_on_path_min"] >= 10, "osken:learning installs (in_port, src, dst) on both switches"
    [t] = [s for s in r["series"] if s["metric"] == "provisioning_time"]
    assert len(t["values"]) == 10 and all(v > 0 for v in t["values"])


def test_proactive_flow_macs_are_the_engines():
    from .proactive import flow_mac
    assert flow_mac(7) == "02:5d:00:00:00:07" and flow_mac(0x01020304) == "02:5d:01:02:03:04"
    assert port_path_ends(network_for("linear,4")) == [(1, 2), (2, 3), (3, 3), (4, 1)]


def port_path_ends(net):
    from .paths import port_path
    hops = port_path(net, 0, 3)
    assert hops[-1] == (net["hosts"][3]["dpid"], net["hosts"][3]["port"]), "the last hop leads to the host"
    return hops


def test_a_refused_northbound_request_is_one_line_naming_request_and_answer():
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer
    from .flow_push import NorthboundRefused, RyuOfctl

    class Refuse(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(400)
            self.end_headers()
            self.wfile.write(b"Invalid rule parameter.\n")

        def log_message(self, *a):
            pass

    srv = HTTPServer(("127.0.0.1", 0), Refuse)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        with pytest.raises(NorthboundRefused) as e:
            RyuOfctl(f"http://127.0.0.1:{srv.server_port}").add(1, "02:5d:00:00:00:00", "00:00:00:00:00:02", 2)
    finally:
        srv.shutdown()
    msg = str(e.value)
    assert "\n" not in msg and "POST http://127.0.0.1:" in msg and "/stats/flowentry/add" in msg
    assert '"dl_src": "02:5d:00:00:00:00"' in msg and msg.endswith("HTTP 400 Invalid rule parameter.")


def test_ryu_ofctl_rest_provisions_linear_2_proactively():
    cp = _cli("provisioning", "--mode", "proactive", "--controller", "ryu:ofctl_rest", "--topo", "linear,2",
              "--flows", "5", "--announce-ms", "300", "--deadline", "20", "--reps", "1", "--json")
    assert cp.returncode == 0, cp.stderr
    [r] = json.loads(cp.stdout)
    c = r["counters"]
    assert r["benchmark"] == "provisioning-proactive" and c["provisioned"] == 5 and c["before_request"] == 0
    assert c["entries_on_path_min"] == 5, "one pushed entry per flow on both switches"
    assert c["repeated"] > 0, "frames knocked until their path existed"


def test_osken_flowpush_provisions_linear_2_proactively_and_refuses_an_unknown_switch():
    cp = _cli("provisioning", "--mode", "proactive", "--controller", "osken:flowpush", "--topo", "linear,2",
              "--flows", "5", "--announce-ms", "300", "--deadline", "20", "--reps", "1", "--json")
    assert cp.returncode == 0, cp.stderr
    c = json.loads(cp.stdout)[0]["counters"]
    assert c["provisioned"] == 5 and c["before_request"] == 0 and c["entries_on_path_min"] == 5
    assert ProvisioningCounters.problems(c) == []
    from ..controllers import launch
    from .flow_push import NorthboundRefused, adapter_for
    with launch("osken:flowpush", of_version="1.3") as ctl:
        with pytest.raises(NorthboundRefused) as e:
            adapter_for("osken:flowpush", ctl.api_url).add(99, "02:5d:00:00:00:00", "00:00:00:00:00:02", 1)
    assert "/v1/flows" in str(e.value) and "HTTP 404" in str(e.value) and "no switch with dpid 99" in str(e.value)


def _proactive(delay: float) -> tuple:
    from . import proactive
    from .flow_push import OsKenFlowPush
    with PathController(delay_s=delay, push_api=True) as c:
        net, _, _ = prov.trial_network("linear,2", 5, announce_ms=300)
        s, _ = proactive.run(OsKenFlowPush(c.api_url), c.address, net, "1.0", 20)
        applied = list(c.applied_s)
    assert s["provisioned"] == 5 and s["before_request"] == 0 and s["invariant"] == "ok", s
    return s, applied


def test_known_northbound_apply_delay_is_read_within_5_percent_plus_the_repeat():
    floor, _ = _proactive(0.0)
    s, applied = _proactive(0.050)
    # a path is across when its last switch applied its request: the last of K requests each
    # answered at once and applied d later; the frames knock every REPEAT_MS
    from .proactive import REPEAT_MS
    d = sum(applied) / len(applied) * 1000
    extra = sum(s["times_ms"]) / 5 - sum(floor["times_ms"]) / 5
    assert abs(extra - d) <= 0.05 * d + REPEAT_MS, (extra, d, s["times_ms"], floor["times_ms"])


def _proactive_capacity(cap, table_size: int, flows: int = 12) -> tuple:
    from . import proactive
    from .flow_push import OsKenFlowPush
    with PathController(install_cap=cap, push_api=True) as c:
        net, _, _ = prov.trial_network("linear,2", flows, announce_ms=300, table_size=table_size)
        s, _ = proactive.run(OsKenFlowPush(c.api_url), c.address, net, "1.0", 3, until_refused=True)
        refused = c.table_full_errors
    assert s["invariant"] == "ok", s
    return s, refused


def test_proactive_table_capacity_reads_the_api_cap_and_the_switch_table_exactly():
    s, _ = _proactive_capacity(7, 0)
    assert (s["pushed"], s["provisioned"]) == (7, 7) and prov.capacity(s) == (7, "controller")
    assert "HTTP 400" in s["refused"] and "flow table full (7 flows)" in s["refused"] and "/v1/flows" in s["refused"]
    s, refused = _proactive_capacity(None, 5)
    assert s["pushed"] == 12 and s["provisioned"] == 5 and s["refused"] is None
    assert prov.capacity(s) == (5, "switch-table") and s["table_full"] == refused == 2 * 7


def _connected(port: int) -> set:
    """The PIDs holding an established TCP connection to 127.0.0.1:``port`` (the trial's engine,
    its switches up)."""
    import re
    out = subprocess.run(["ss", "-Htnp", "state", "established", f"( dport = :{port} )"], capture_output=True,
                         text=True, timeout=10).stdout
    return {int(x) for x in re.findall(r"pid=(\d+)", out)}


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_ctrl_c_during_a_proactive_trial_ends_it_at_once_and_leaves_nothing(tmp_path):
    """Interrupted once its engine's switches are connected, the trial ends by the interrupt
    (exit 130, "interrupted") and leaves no engine behind. Without it the trial would end otherwise:
    the flow API never answers (port 9) and the controller drops every packet-in, so no flow is
    ever provisioned; the engine would run to its 600 s deadline, the CLI give up waiting for the
    API after 30 s (exit 1)."""
    import signal
    from ..proc import wait_until
    with PathController(push_api=True) as c:
        p = subprocess.Popen([sys.executable, "-m", "sdnbench", "controller", "provisioning", "--mode", "proactive",
                              "--controller", f"tcp:{c.address}", "--api", "onos", "--api-url", "http://127.0.0.1:9",
                              "--flows", "3", "--deadline", "600", "--reps", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            engines: set = set()
            wait_until(lambda: engines.update(_connected(c.port)) or engines or p.poll() is not None, 120,
                       "the trial's engine to connect")
            assert p.poll() is None, p.communicate()
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=120)           # the interrupt ends it (or, 30 s on, the API wait)
        finally:
            if p.poll() is None:
                # the failure path must not leave the trial behind: its engine (by PID), then the CLI
                for pid in subprocess.run(["pgrep", "-P", str(p.pid), "sdnbench-engine"], capture_output=True,
                                          text=True).stdout.split():
                    os.kill(int(pid), signal.SIGINT)
                p.kill()
                p.wait()
    assert p.returncode == 128 + signal.SIGINT and "interrupted" in err and "Traceback" not in err, (p.returncode, err)
    assert engines and not [pid for pid in engines if _alive(pid)], f"an engine of the trial is still running: {engines}"


def test_without_of_the_version_follows_the_test_and_the_controller():
    from sdnbench.rfc8456.provisioning_trial import default_of
    assert default_of("osken:learning", proactive=False) == "1.0"
    assert default_of("osken:learning", proactive=True) == "1.3"
    assert default_of("ryu:simple_switch_13", proactive=False) == "1.3"   # speaks 1.3 only
    assert default_of("osken:takeover", proactive=False) == "1.3"
    assert default_of("tcp:127.0.0.1:6653", proactive=False) == "1.0"     # unknown: the test's choice
