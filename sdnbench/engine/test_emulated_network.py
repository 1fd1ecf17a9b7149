"""The engine's emulated network against real os-ken apps (integration; nothing skipped).

- ``osken:topology`` discovers ring,50 and fat-tree k=4 built by the engine over 2 worker
  processes: its REST API (``/v1/links``) lists exactly the emulated links, both directions.
- ``osken:learning`` delivers emulated host frames across linear,5: every host sends one frame
  to the next host every 200 ms; frames are injected, delivered to the right host, and the
  controller installs flows.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request

from .. import paths
from ..controllers.lifecycle import launch
from ..net.engine_network import network_for
from ..northbound.links import emulated_links


def _links(api: str) -> set:
    with urllib.request.urlopen(api + "/v1/links", timeout=2) as r:
        return {((l["src"]["dpid"], l["src"]["port_no"]), (l["dst"]["dpid"], l["dst"]["port_no"])) for l in json.load(r)}


def _engine(tmp_path, net: dict, address: tuple, seconds: int, workers: int = 2) -> subprocess.Popen:
    f = tmp_path / "net.json"
    f.write_text(json.dumps(net))
    out = tmp_path / "result.json"
    args = [str(paths.engine_binary("sdnbench-engine")), "--mode", "network", "--network", str(f),
            "--controller", f"{address[0]}:{address[1]}", "--of", "1.0", "--workers", str(workers),
            "--loops", str(seconds), "--loop-ms", "1000", "--warmup", "0", "--settle-ms", "0",
            "--quiet", "--json", str(out)]
    return subprocess.Popen(args), out


def _discover(tmp_path, net: dict) -> tuple:
    want = emulated_links(net)
    with launch("osken:topology", of_version="1.0") as ctl:
        proc, out = _engine(tmp_path, net, ctl.address, seconds=12)
        seen, t0 = set(), time.monotonic()
        try:
            while proc.poll() is None and seen != want:
                time.sleep(0.5)
                seen = _links(ctl.api_url)
            took = time.monotonic() - t0
        finally:
            proc.wait(timeout=60)
    return want, seen, took, json.loads(out.read_text())


def test_osken_topology_discovers_ring_50(tmp_path):
    want, seen, took, doc = _discover(tmp_path, network_for("ring,50"))
    assert seen == want, f"missing {sorted(want - seen)[:5]}, extra {sorted(seen - want)[:5]}"
    n = doc["network"]
    assert n["invariant"] == "ok" and n["links"] == 50
    assert n["links_probed_both_ways"] == 50
    assert n["frames_to_other_workers"] > 0


def test_osken_topology_discovers_fat_tree_4(tmp_path):
    net = network_for("fattree,4")
    assert len(net["switches"]) == 20 and len(net["links"]) == 32
    want, seen, took, doc = _discover(tmp_path, net)
    assert seen == want, f"missing {sorted(want - seen)[:5]}, extra {sorted(seen - want)[:5]}"
    assert doc["network"]["links_probed_both_ways"] == 32


def test_osken_learning_delivers_host_frames_across_linear_5(tmp_path):
    net = dict(network_for("linear,5"), host_traffic_ms=200)
    with launch("osken:learning", of_version="1.0") as ctl:
        proc, out = _engine(tmp_path, net, ctl.address, seconds=4)
        assert proc.wait(timeout=60) == 0
    n = json.loads(out.read_text())["network"]
    h = n["hosts"]
    assert h["injected"] >= 5 * 10, h
    # every flow h -> h+1 (the last one wraps around: 4 -> 0) got frames to the right host
    for src in range(5):
        f = h["flows"][f"{src}->{(src + 1) % 5}"]
        assert f["delivered"] > 0 and f["first_delivered_ns"] >= f["first_injected_ns"], (src, f)
    assert h["delivered"] - h["delivered_foreign"] <= h["injected"]
    assert n["invariant"] == "ok"
