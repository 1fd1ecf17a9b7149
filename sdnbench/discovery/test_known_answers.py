"""Known answers for discovery, against the scripted LLDP controller (``scripted.py``) on the real
engine (ring,4 over 2 workers):

- its northbound view shows the links only 2 s after the first switch connected: read as 2 s
  within 5%, plus the measured gap between the last poll without and the first with the links
  (0.05 s asked);
- it never learns one link direction: incomplete after 3 identical answers, that link named,
  while the southbound verdict (probes crossed both ways) is complete;
- its view loses a link direction 1 s after the first connection: every poll's view size is kept,
  and the trial's line says the view had more links than it ended with;
- it never probes out of one port: the southbound verdict is incomplete and names that link;
- its northbound API is unreachable: one line naming the URL, and the southbound result is kept.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys

from ..northbound import adapter_for
from .record import describe, largest_view
from .scripted import LldpController
from .setup import engine_params, make_setup
from .trial import run_trial

TOPO = "ring,4"          # links 1:2-2:2, 2:3-3:2, 3:3-4:2, 4:3-1:3


def _run(ctl: LldpController, verify: str = "northbound", url=None, deadline_s: float = 8.0, poll_s: float = 0.05,
         stable: int = 3):
    p = engine_params(TOPO, f"tcp:{ctl.address}", "1.0", deadline_s, workers=2)
    adapter = adapter_for("osken") if verify == "northbound" else None
    s = make_setup(p, adapter, url or ctl.api.url, poll_s, deadline_s, stable, quiet=True)
    return run_trial(s, ctl.address)


def test_a_known_northbound_delay_is_read_within_5_percent():
    with LldpController(reveal_s=2.0) as ctl:
        t = _run(ctl)
    assert t["state"] == "complete" and t["verification"] == "northbound", t
    # the reading is the first poll that saw the links; the previous poll bounds it from below:
    # within 5% plus the measured gap between those two polls (0.05 s asked; more under load)
    gap = t["discovery_s"] - t["previous_poll_s"]
    assert abs(t["discovery_s"] - 2.0) <= 0.05 * 2.0 + gap, t
    assert t["previous_poll_s"] < 2.0 * 1.05 and t["discovery_s"] >= 2.0 * 0.95, t
    sb = t["southbound"]
    assert sb["complete_s"] is not None and sb["complete_s"] < 1.0 and sb["switches_connected"] == 4, sb


def test_a_link_never_learned_is_incomplete_and_named():
    with LldpController(hide={((2, 3), (3, 2))}) as ctl:
        t = _run(ctl)
    assert t["state"] == "incomplete" and (t["seen"], t["want"]) == (7, 8), t
    assert t["missing"] == ["2:3-3:2"] and t["extra"] == []
    assert t["southbound"]["complete_s"] is not None, "the probes did cross: only the view lacks it"
    # and they reached the controller as packet-ins: its bookkeeping, not the network, lost it
    assert t["why_missing"] == {"never_probed": 0, "dropped_by_switch": 0, "raised": 1}, t["why_missing"]


def test_a_view_that_loses_a_link_again_shows_in_its_poll_series():
    # one direction never learned, another forgotten 1 s after the first connection: the view
    # peaks at 7 of 8 and ends at 6 of 8, and the trial's line says it lost links again
    with LldpController(hide={((2, 3), (3, 2))}, forget={((4, 3), (1, 3))}, forget_s=1.0) as ctl:
        t = _run(ctl, stable=30)               # 1.5 s of identical answers: past the forgetting
    assert t["state"] == "incomplete" and (t["seen"], t["want"]) == (6, 8), t
    sizes = [n for at, n in t["view_sizes"]]
    # the view may pass through 6 on its way up ([0, 6, 7, 7, ...]): the loss is the last 7 -> 6
    last7 = max(i for i, n in enumerate(sizes) if n == 7)
    assert sizes[last7 + 1:] and set(sizes[last7 + 1:]) == {6}, sizes
    before = [at for at, n in t["view_sizes"][:last7 + 1] if n == 7]
    after = [at for at, n in t["view_sizes"][last7 + 1:]]
    assert max(before) < 1.0 * 1.05 + 0.5 and min(after) >= 1.0 * 0.95, t["view_sizes"]
    assert len(t["view_sizes"]) == t["polls"]
    peak, at = largest_view(t)
    assert peak == 7 and at < 1.0
    assert "its view had 7 at" in describe(t) and "lost links again" in describe(t)


def test_a_port_never_probed_is_southbound_incomplete_and_named():
    with LldpController(never_probe=(3, 3)) as ctl:
        t = _run(ctl, verify="southbound", deadline_s=2.0)
    assert t["verification"] == "southbound" and t["state"] == "incomplete", t
    assert t["missing"] == ["3:3-4:2"] and t["discovery_s"] is None


def test_unreachable_northbound_keeps_the_southbound_result(capsys):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    s.close()
    with LldpController() as ctl:
        t = _run(ctl, url=dead, deadline_s=2.0)
    assert t["northbound_error"].startswith(f"northbound {dead}/v1/links: unreachable"), t
    assert t["verification"] == "southbound" and t["state"] == "complete" and t["discovery_s"] < 1.0, t
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"northbound {dead}") and "southbound-only" in err[0]


def test_cli_reports_the_missing_link_and_exits_2():
    with LldpController(hide={((4, 3), (1, 3))}) as ctl:
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "discovery", "--controller", f"tcp:{ctl.address}",
                             "--of", "1.0", "--topo", TOPO, "--api", "osken", "--api-url", ctl.api.url, "--poll-s", "0.1",
                             "--deadline-s", "8", "--reps", "1", "--json"], capture_output=True, text=True, timeout=120)
    assert cp.returncode == 2, cp.stderr
    [r] = json.loads(cp.stdout)
    t = r["counters"]["trials"][0]
    assert t["missing"] == ["1:3-4:3"] and r["status"] == "failed"
    assert r["counters"]["rfc8456"]["verification"] == "northbound" and r["counters"]["rfc8456"]["links"] == 4
    assert "incomplete: 7 of 8 link directions (northbound); missing 1:3-4:3" in r["error"]


def test_size_search_stops_at_the_largest_size_its_view_can_hold():
    # the scripted view never holds a link of switch 7 (it never probes out of its port 3):
    # ring,3 and ring,6 are discovered, ring,12 is not; bisection then tries 9 (no) and 7 (no)
    with LldpController(never_probe=(7, 3)) as ctl:
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "discovery", "--controller", f"tcp:{ctl.address}",
                             "--of", "1.0", "--topo", "ring,3", "--api", "osken", "--api-url", ctl.api.url, "--poll-s", "0.1",
                             "--deadline-s", "6", "--size-search", "--json"], capture_output=True, text=True, timeout=300)
    assert cp.returncode == 0, cp.stderr
    c = json.loads(cp.stdout)[0]["counters"]
    assert (c["largest_size"], c["first_failure_size"]) == (6, 7), c["size_tried"]
    assert [n for n, _ in c["size_tried"]] == [3, 6, 12, 9, 7]


def test_southbound_change_reads_a_known_reaction_and_the_probes_coming_back():
    """topology-change without a northbound view: the scripted controller answers the link's
    PORT_STATUS (down) 300 ms later with a flow-mod, and probes every 50 ms: the flows react
    after 300 ms (within 5% + the 10 ms of its loop), the probes cross both ways again within
    one probe period (+ floor) after the link comes back."""
    from . import change
    p0 = engine_params(TOPO, "tcp:x", "1.0", 3.0, workers=2)
    link = change.pick_link(p0["network"], None)
    with LldpController(react_ms=300) as ctl:
        p = engine_params(TOPO, f"tcp:{ctl.address}", "1.0", 4.0, workers=2, events=change.events(link, 1.0, 1.0))
        t = change.run(make_setup(p, None, None, 0.05, 4.0, 3, quiet=True), ctl.address, link)
    sb = t["southbound_change"]
    assert t["verification"] == "southbound" and t["state"] == "complete", t
    assert abs(sb["down_flows_react_s"] - 0.3) <= 0.05 * 0.3 + 0.02, sb
    assert 0 < sb["up_probed_both_ways_s"] <= 0.05 + 0.03, sb
    assert (t["down_detect_s"], t["up_detect_s"]) == (sb["down_flows_react_s"], sb["up_probed_both_ways_s"])
    assert "flows reacted to the down after 0.3" in change.describe(t)
