"""Kubernetes pods simulated as processes and namespaces (issue 32; docs/scale-out.md): the Job that
``--agents k8s...`` prints, each pod run with its own command and environment and
``JOB_COMPLETION_INDEX`` set (``k8s_pods.Pods``), the Service's name resolved to loopback (or to
a namespace's address) by ``SDNBENCH_RESOLVE``. The controller is ``sdnbench-responder
--delay-us 4000``: every request is answered after D = 4 ms, so the latency is known.

Known answers:
- barrier: pods 0 and 1 up, pod 2 held back 2 s: until pod 2 is READY no packet-in leaves any
  pod (its sessions have sent their handshake only); then one merged result, every switch
  answering in every loop;
- skew: pod 2's clock 300 ms fast -> refused, one line naming ``pod:2`` with +300 ms, no loop;
- merge: the pods alone (``@none``), their results merged by ``sdnbench-engine merge``: totals
  and histogram counts the sums of the pods', p50 at least D and the fastest sample within the floor
  of D (``engine_fixtures.assert_reads_delay``), the p50 equal within 10% to
  the coordinated pods' result; files of another run, twice the same file, a missing pod refused
  or named;
- an engine outside the cluster (``k8s:3@IP:PORT``): every pod dials it, pod I gets slice I;
- the same run as ssh agents and as pods in the same namespaces: p50 and answered/s within 10%.
About 20 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import time

import jsonschema
import pytest

from .. import paths
from ..proc import spawn, wait_until
from sdnbench.testing.labs.agent_lab import AgentLab
from sdnbench.testing.engine_fixtures import assert_reads_delay, free_port, responder
from sdnbench.testing.labs.k8s_pods import Pods, bytes_sent_to

D_US = 4000
FLOOR_US = 400            # the engine's and kernel's own share of a round trip here (test_agents_netns)
SCHEMA = json.loads((paths.REPO / "crates/engine/schema/engine-result.schema.json").read_text())
RUN = ["--mode", "latency", "--switches", "12", "--loops", "3", "--loop-ms", "500", "--no-learn",
       "--of", "1.3", "--echo-interval-ms", "0"]


@pytest.fixture(scope="module")
def ctl():
    with responder("1.3", extra=("--delay-us", str(D_US))) as addr:
        yield addr


def _pods(tmp_path, ctl, spec):
    return Pods(["--controller", ctl, *RUN, "--agents", spec], tmp_path)


def _result(pods, i=0):
    return json.loads(pods.output(i))


def test_no_pod_loads_before_every_pod_is_ready(tmp_path, ctl):
    pods = _pods(tmp_path, ctl, f"k8s:3@pod0:{free_port()}")
    port = int(ctl.rsplit(":", 1)[1])
    try:
        pods.start(0, "127.0.0.1")
        pods.start(1, "127.0.0.1")
        wait_until(lambda: len(bytes_sent_to(port)) == 8, 15, "pods 0 and 1's 8 sessions")
        time.sleep(2.0)                 # far past their handshakes: without a barrier they would load now
        held = bytes_sent_to(port)
        pods.start(2, "127.0.0.1")
        rcs = pods.wait_all()
        after = bytes_sent_to(port)     # closed by now: read the result instead
    finally:
        pods.stop_all()
    doc = _result(pods)
    assert rcs == [0, 0, 0] and doc["status"] == "ok", pods.errors()
    # the handshake of one OF1.3 session is a few hundred bytes; 2 s of load would be ~70 KB
    assert len(held) == 8 and max(held) < 2000, held
    print(f"bytes sent by each of the 8 sessions while pod 2 was held back: {sorted(held)}")
    assert after == [] and doc["handshake"]["sessions_up"] == 12
    assert [a["name"] for a in doc["agents"]] == ["local", "pod:1", "pod:2"]
    assert [a["switches"] for a in doc["agents"]] == [[0, 4], [4, 8], [8, 12]]
    assert doc["loops"]["sessions_up"] == [12] * 4
    # every switch sent and was answered in every loop: all started together after the barrier
    assert all(min(s["answered_per_loop"]) > 0 for s in doc["switches"]), [s["answered_per_loop"] for s in doc["switches"]]
    assert_reads_delay(doc["latency"], D_US, FLOOR_US)


def test_a_pod_with_its_clock_off_is_refused_in_one_line(tmp_path, ctl):
    pods = _pods(tmp_path, ctl, f"k8s:3@pod0:{free_port()}")
    try:
        pods.start(0, "127.0.0.1")
        pods.start(1, "127.0.0.1")
        pods.start(2, "127.0.0.1", env={"SDNBENCH_TEST_CLOCK_OFFSET_MS": "300"})
        rcs = pods.wait_all()
    finally:
        pods.stop_all()
    doc = _result(pods)
    assert rcs[0] == 2 and doc["status"] == "failed", pods.errors()
    assert doc["error"].startswith("agent pod:2: clock offset +") and "\n" not in doc["error"], doc["error"]
    said = float(doc["error"].split("clock offset +", 1)[1].split(" ms", 1)[0])
    rtt = float(doc["error"].split("(round trip ", 1)[1].split(" ms", 1)[0])
    # NTP-style: the offset read from one ping is off by at most half its round trip
    assert abs(said - 300) <= rtt / 2 + 1, (said, rtt)
    assert "exceeds max_skew_ms 50" in doc["error"]
    assert doc["loops"]["k"] == [] and doc["totals"]["requests_sent"] == 0
    assert [a["state"] for a in doc["agents"]] == ["refused"] * 3


def test_an_engine_outside_the_cluster_coordinates_every_pod(tmp_path, ctl):
    """``k8s:3@IP:PORT``: the Service is the outside engine's address; it runs
    ``--agents pods:3@ADDR:PORT`` and every pod, pod 0 included, dials the Service's name."""
    port = free_port()
    pods = _pods(tmp_path, ctl, f"k8s:3@127.0.0.1:{port}")
    assert pods.coordinator_host == pods.name and "--serve" not in " ".join(pods.container["command"])
    out = tmp_path / "outside.json"
    coord = subprocess.Popen([pods.engine, "--config", str(pods.config), "--agents", f"pods:3@127.0.0.1:{port}",
                              "--quiet", "--json", str(out)], stderr=subprocess.PIPE, text=True)
    try:
        for i in (2, 0, 1):
            pods.start(i, "127.0.0.1")
        _, err = coord.communicate(timeout=60)
        rcs = pods.wait_all()
    finally:
        if coord.poll() is None:
            coord.kill()
            coord.wait()
        pods.stop_all()
    doc = json.loads(out.read_text())
    assert coord.returncode == 0 and doc["status"] == "ok" and rcs == [0, 0, 0], err + pods.errors()
    assert [(a["name"], a["switches"]) for a in doc["agents"]] == [("pod:0", [0, 4]), ("pod:1", [4, 8]), ("pod:2", [8, 12])]
    assert doc["handshake"]["sessions_up"] == 12
    assert_reads_delay(doc["latency"], D_US, FLOOR_US)


def _merge(files, out=None):
    args = [str(paths.engine_binary("sdnbench-engine")), "merge", *map(str, files)]
    if out:
        args += ["--json", str(out)]
    return subprocess.run(args, capture_output=True, text=True, timeout=30)


def test_pods_alone_merged_by_hand_equal_the_coordinated_pods(tmp_path, ctl):
    (tmp_path / "alone").mkdir()
    alone = _pods(tmp_path / "alone", ctl, "k8s:3@none")
    try:
        for i in range(3):
            alone.start(i, "127.0.0.1")
        assert alone.wait_all() == [0, 0, 0], alone.errors()
    finally:
        alone.stop_all()
    files = []
    for i in range(3):
        files.append(tmp_path / f"pod{i}.json")
        files[-1].write_text(alone.output(i))
    parts = [json.loads(f.read_text()) for f in files]
    # each pod's own result counts its own slice: 4 sessions attempted, 4 up, none failed
    assert [(p["handshake"]["sessions_attempted"], p["handshake"]["sessions_up"]) for p in parts] == [(4, 4)] * 3
    cp = _merge(files, tmp_path / "merged.json")
    assert cp.returncode == 0, cp.stderr
    m = json.loads((tmp_path / "merged.json").read_text())
    assert m["status"] == "ok" and m["handshake"]["sessions_up"] == 12 and m["error"] is None
    for d in [m, *parts]:
        jsonschema.validate(d, SCHEMA)
    for k in ("requests_sent", "requests_answered", "requests_lost", "late_replies"):
        assert m["totals"][k] == sum(p["totals"][k] for p in parts), k
    assert m["latency"]["count"] == sum(p["latency"]["count"] for p in parts) > 0
    assert m["loops"]["answered"] == [sum(x) for x in zip(*(p["loops"]["answered"] for p in parts))]
    assert [a["name"] for a in m["agents"]] == ["pod:0", "pod:1", "pod:2"]
    assert_reads_delay(m["latency"], D_US, FLOOR_US)
    # the same run, coordinated (pod 0): equal within 10%
    (tmp_path / "co").mkdir()
    co = _pods(tmp_path / "co", ctl, f"k8s:3@pod0:{free_port()}")
    try:
        for i in range(3):
            co.start(i, "127.0.0.1")
        assert co.wait_all() == [0, 0, 0], co.errors()
    finally:
        co.stop_all()
    c = _result(co)
    jsonschema.validate(c, SCHEMA)
    assert abs(m["latency"]["p50"] - c["latency"]["p50"]) <= 0.10 * c["latency"]["p50"]
    assert abs(m["throughput"]["mean"] - c["throughput"]["mean"]) <= 0.10 * c["throughput"]["mean"]
    # refusals (one line, exit 1) and a missing pod (partial, named, exit 2)
    other = json.loads(files[2].read_text())
    other["params"]["loop_ms"] = 1000
    (tmp_path / "other.json").write_text(json.dumps(other))
    cp = _merge([files[0], tmp_path / "other.json"])
    assert cp.returncode == 1 and cp.stderr.count("\n") == 1 and "params.loop_ms is 1000 but 500" in cp.stderr, cp.stderr
    cp = _merge([files[0], files[0]])
    assert cp.returncode == 1 and "switch 0 is in both" in cp.stderr, cp.stderr
    cp = _merge(files[:2])
    assert cp.returncode == 2 and json.loads(cp.stdout)["status"] == "partial"
    assert "4 of the run's 12 switches are in no file (the first: switch 8)" in cp.stderr


def test_pods_in_namespaces_equal_ssh_agents(tmp_path):
    """Two namespaces as two machines: the run as ssh agents, then as pods (pod 0 coordinating on
    its namespace's address, pod 1 dialling the Service name resolved to it)."""
    with AgentLab(2) as lab:
        port = free_port()
        r = spawn("sdnbench-responder", [str(paths.engine_binary("sdnbench-responder")), "--listen",
                                         f"{lab.controller_ip}:{port}", "--of", "1.3", "--delay-us", str(D_US)])
        try:
            wait_until(lambda: subprocess.run(["ss", "-Htln", f"sport = :{port}"], capture_output=True,
                                              text=True).stdout.strip() != "", 10, "the responder to listen")
            ctl = f"{lab.controller_ip}:{port}"
            specs, env = lab.ssh(str(paths.engine_binary("sdnbench-engine")))
            cp = subprocess.run([str(paths.engine_binary("sdnbench-engine")), "--controller", ctl, *RUN, "--quiet",
                                 "--agents", ",".join(specs), "--json", str(tmp_path / "ssh.json")],
                                capture_output=True, text=True, timeout=60, env={**os.environ, **env})
            ssh = json.loads((tmp_path / "ssh.json").read_text())
            assert cp.returncode == 0 and ssh["status"] == "ok", cp.stderr
            pods = _pods(tmp_path, ctl, f"k8s:2@pod0:{free_port()}")
            pod0_ip = lab.agent_addrs(1)[0]
            try:
                pods.start(0, pod0_ip, ns=lab.ns(1))
                pods.start(1, pod0_ip, ns=lab.ns(2))
                rcs = pods.wait_all()
            finally:
                pods.stop_all()
        finally:
            r.stop()
    doc = _result(pods)
    assert rcs == [0, 0] and doc["status"] == "ok", pods.errors()
    assert [a["local"]["source_addrs"] for a in doc["agents"]] == [lab.agent_addrs(1), lab.agent_addrs(2)]
    assert doc["totals"]["requests_answered"] == sum(s["answered"] for s in doc["switches"]) > 0
    assert_reads_delay(doc["latency"], D_US, FLOOR_US)
    for k in ("p50", "mean"):
        assert abs(doc["latency"][k] - ssh["latency"][k]) <= 0.10 * ssh["latency"][k], (k, doc["latency"][k], ssh["latency"][k])
    assert abs(doc["throughput"]["mean"] - ssh["throughput"]["mean"]) <= 0.10 * ssh["throughput"]["mean"]
    print(f"pods: p50 {doc['latency']['p50']} us, {doc['throughput']['mean']:.0f}/s; "
          f"ssh agents: p50 {ssh['latency']['p50']} us, {ssh['throughput']['mean']:.0f}/s")
