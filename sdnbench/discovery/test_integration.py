"""Discovery against real controllers through the CLI (integration; nothing skipped):
``osken:topology`` and ``ryu:rest_topology`` discover ring,10 (20 link directions) in their
northbound views and the engine's probes cross every link both ways; ``osken:topology`` sees a
link go down and come back up."""

from __future__ import annotations

import json
import subprocess
import sys


def _cli(*args, timeout=180) -> tuple:
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", *args, "--json"],
                        capture_output=True, text=True, timeout=timeout)
    return cp.returncode, (json.loads(cp.stdout) if cp.stdout.strip() else None), cp.stderr


def _discovers_ring_10(spec: str):
    rc, doc, err = _cli("discovery", "--controller", spec, "--topo", "ring,10", "--reps", "1",
                        "--poll-s", "0.5", "--deadline-s", "30")
    assert rc == 0, err
    [r] = doc
    t = r["counters"]["trials"][0]
    assert t["state"] == "complete" and (t["seen"], t["want"]) == (20, 20), t
    # the reading is the first poll whose view held all 20 directions; the previous one is the
    # answered poll before it (a failed one has no view; one before the first connection reads 0)
    sizes = t["view_sizes"]
    first = next(i for i, (_, n) in enumerate(sizes) if n == 20)
    assert abs(sizes[first][0] - t["discovery_s"]) <= 1e-4, (t["discovery_s"], sizes)
    before = [max(0.0, at) for at, n in sizes[:first] if n is not None]
    assert t["previous_poll_s"] is None if not before else abs(t["previous_poll_s"] - before[-1]) <= 1e-4, (t, sizes)
    assert t["southbound"]["complete_s"] is not None
    assert t["southbound"]["invariant"] == "ok" and t["southbound"]["switches_connected"] == 10
    f = r["counters"]["rfc8456"]
    assert (f["nodes"], f["links"], f["verification"]) == (10, 10, "northbound"), f
    assert r["controller"]["spec"] == spec
    assert r["series"][0]["metric"] == "discovery_time" and r["series"][0]["values"] == [t["discovery_s"]]


def test_osken_topology_discovers_ring_10():
    _discovers_ring_10("osken:topology")


def test_ryu_rest_topology_discovers_ring_10():
    _discovers_ring_10("ryu:rest_topology")


def test_osken_topology_sees_a_link_go_down_and_come_back():
    rc, doc, err = _cli("topology-change", "--controller", "osken:topology", "--topo", "ring,10",
                        "--down-at-s", "3", "--up-after-s", "3.1", "--poll-s", "0.25", "--deadline-s", "20")
    assert rc == 0, err
    c = doc[0]["counters"]
    assert c["discovered_before_change"] and c["link"] == "6:3-7:2", c
    # the view lost the link while it was down (detected before it came back 3.1 s later), and
    # had it again after it came back, once os-ken's probes had crossed it both ways again (the
    # engine's record): each reading a poll after the one before it
    assert 0 <= c["down_previous_poll_s"] < c["down_detect_s"] < 3.1, c
    assert 0 <= c["up_previous_poll_s"] < c["up_detect_s"], c
    assert 0 < c["southbound_change"]["up_probed_both_ways_s"] <= c["up_detect_s"], c
