"""Known answers for discovery, against the scripted LLDP controller (``scripted.py``) on the real
engine (ring,4 over 2 workers):

- its northbound view shows the links only 2 s after the first switch connected: the reading is
  never below that instant, and it is the first answer with the links, read between that answer
  and the next request (the poller asks again only once it has read an answer);
- it never learns one link direction: incomplete after 3 identical answers, that link named,
  while the southbound verdict (probes crossed both ways) is complete;
- its view loses a link direction 2 s after the first connection: every poll's view size is kept,
  each read between the answer it got and the next request, and the trial's line says the view
  had more links than it ended with;
- it never probes out of one port: the southbound verdict is incomplete and names that link;
- its northbound API is unreachable: one line naming the URL, and the southbound result is kept.

Every time is bounded by what the scripted controller recorded (``scripted.py``), all on
CLOCK_MONOTONIC as the engine's are: from below by what it did (a probe cannot cross before it was
sent, nor a reaction come before it was due), from above by what it saw come back (a probe's
packet-in, an echo behind a flow-mod): never by how fast the machine was.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys

from ..northbound import adapter_for
from .record import describe, largest_view
from sdnbench.testing.peers.scripted_discovery import LldpController
from .setup import engine_params, make_setup
from .trial import run_trial

TOPO = "ring,4"          # links 1:2-2:2, 2:3-3:2, 3:3-4:2, 4:3-1:3


def _run(ctl: LldpController, verify: str = "northbound", url=None, deadline_s: float = 8.0, poll_s: float = 0.05,
         stable: int = 3):
    p = engine_params(TOPO, f"tcp:{ctl.address}", "1.0", deadline_s, workers=2)
    adapter = adapter_for("osken") if verify == "northbound" else None
    s = make_setup(p, adapter, url or ctl.api.url, poll_s, deadline_s, stable, quiet=True)
    return run_trial(s, ctl.address)


NS = 1000          # a time read back from float seconds is exact to well within 1 µs


def _directions() -> set:
    p = engine_params(TOPO, "tcp:127.0.0.1:6653", "1.0", 1.0)
    return {d for a, pa, b, pb in p["network"]["links"] for d in (((a, pa), (b, pb)), ((b, pb), (a, pa)))}


def _assert_southbound_complete_read(sb: dict, ctl: LldpController) -> None:
    """The engine's southbound completion (the last link direction's first probe across) lies
    between the last first probe the scripted controller sent out of a link's port and the last
    first packet-in of a probe it got back per direction: a probe crosses after it is sent and
    before its packet-in arrives."""
    dirs = _directions()
    heard = {}
    for t_ns, d in ctl.heard:
        heard.setdefault(d, t_ns)
    assert set(heard) >= dirs, (dirs - set(heard))
    done = sb["first_connect_mono_ns"] + sb["complete_s"] * 1e9
    sent = max(ctl.probed_ns[src] for src, _ in dirs)
    assert sent - NS <= done <= max(heard[d] for d in dirs) + NS, (done, sent, heard)


def test_a_known_northbound_delay_is_read_from_the_answer_that_first_held_the_links():
    with LldpController(reveal_s=2.0) as ctl:
        t = _run(ctl)
    assert t["state"] == "complete" and t["verification"] == "northbound", t
    t0 = t["southbound"]["first_connect_mono_ns"]
    at, before = (t0 + t[k] * 1e9 for k in ("discovery_s", "previous_poll_s"))
    # the view held the links from 2 s after the first connection (the peer's own clock): never read earlier
    assert at >= ctl.first_connect_ns + 2.0e9 - NS, (t, ctl.first_connect_ns)
    # the reading is the first answer with all 8 directions: it arrived after the peer built it
    # and before the poller's next request; the previous poll's (empty) answer came before it
    first = next(i for i, (_, n) in enumerate(ctl.views) if n == 8)
    assert all(n == 0 for _, n in ctl.views[:first]), ctl.views
    # (the next request, or the trial's end: the engine stopped, closing its connections)
    after = ctl.views[first + 1][0] if first + 1 < len(ctl.views) else ctl.ended_ns
    assert ctl.views[first][0] - NS <= at <= after + NS, (at, ctl.views, ctl.ended_ns)
    assert ctl.views[first - 1][0] - NS <= before <= ctl.views[first][0] + NS, (before, ctl.views)
    sb = t["southbound"]
    assert sb["switches_connected"] == 4, sb
    _assert_southbound_complete_read(sb, ctl)


def test_a_link_never_learned_is_incomplete_and_named():
    with LldpController(hide={((2, 3), (3, 2))}) as ctl:
        t = _run(ctl)
    assert t["state"] == "incomplete" and (t["seen"], t["want"]) == (7, 8), t
    assert t["missing"] == ["2:3-3:2"] and t["extra"] == []
    assert t["southbound"]["complete_s"] is not None, "the probes did cross: only the view lacks it"
    # and they reached the controller as packet-ins: its bookkeeping, not the network, lost it
    assert t["why_missing"] == {"never_probed": 0, "dropped_by_switch": 0, "raised": 1}, t["why_missing"]


def test_a_view_that_loses_a_link_again_shows_in_its_poll_series():
    # one direction never learned, another forgotten 2 s after the first connection: the view
    # peaks at 7 of 8 and ends at 6 of 8, and the trial's line says it lost links again
    with LldpController(hide={((2, 3), (3, 2))}, forget={((4, 3), (1, 3))}, forget_s=2.0) as ctl:
        # 60 identical answers (3 s at the least) outlast the peak; the deadline only stops a view that never settles
        t = _run(ctl, stable=60, deadline_s=20.0)
    assert t["state"] == "incomplete" and (t["seen"], t["want"]) == (6, 8), t
    # the series is every answer the peer gave, in order, each read between the peer building it
    # and the poller's next request (or the trial's end)
    assert [n for _, n in t["view_sizes"]] == [n for _, n in ctl.views] and len(ctl.views) == t["polls"]
    t0 = t["southbound"]["first_connect_mono_ns"]
    built = [b for b, _ in ctl.views] + [ctl.ended_ns]
    for i, (at, _) in enumerate(t["view_sizes"]):
        assert built[i] - 1e5 <= t0 + at * 1e9 <= built[i + 1] + 1e5, (i, at, built[i:i + 2])
    sizes = [n for at, n in t["view_sizes"]]
    # the view may pass through 6 on its way up ([0, 6, 7, 7, ...]): the loss is the last 7 -> 6,
    # and it came with the forgetting: every answer built before it had the link, none after
    last7 = max(i for i, n in enumerate(sizes) if n == 7)
    assert sizes[last7 + 1:] and set(sizes[last7 + 1:]) == {6}, sizes
    forgot = ctl.first_connect_ns + 2.0e9
    assert ctl.views[last7][0] < forgot <= ctl.views[last7 + 1][0], (ctl.views[last7:last7 + 2], forgot)
    peak, at = largest_view(t)
    assert (peak, at) == (7, t["view_sizes"][sizes.index(7)][0])
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
    assert t["verification"] == "southbound" and t["state"] == "complete", t
    assert t["discovery_s"] == t["southbound"]["complete_s"], t
    _assert_southbound_complete_read(t["southbound"], ctl)
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
    PORT_STATUS (down) 300 ms later with a flow-mod, and probes every 50 ms. The flows react no
    sooner than 300 ms after the down (exactly: the PORT_STATUS came after it and the flow-mod
    300 ms after that), no sooner than the flow-mod went out, and no later than the echo sent
    right behind it came back. The probes cross both ways again after the up, and no later than
    the first packet-in of a probe per direction the controller got after the up."""
    from . import change
    p0 = engine_params(TOPO, "tcp:127.0.0.1:6653", "1.0", 3.0, workers=2)
    link = change.pick_link(p0["network"], None)
    with LldpController(react_ms=300) as ctl:
        p = engine_params(TOPO, f"tcp:{ctl.address}", "1.0", 4.0, workers=2, events=change.events(link, 1.0, 1.0))
        t = change.run(make_setup(p, None, None, 0.05, 4.0, 3, quiet=True), ctl.address, link)
    sb = t["southbound_change"]
    assert t["verification"] == "southbound" and t["state"] == "complete", t
    down_ns, up_ns = sb["down_mono_ns"], sb["up_mono_ns"]
    # the PORT_STATUS with LINK_DOWN of the down, as Open vSwitch sends them for Mininet's link
    # down (ofswitch link_change.rs): the first end one, the second end two (the carrier, then
    # its own interface); the first end's (0, LINK_DOWN) on the way up comes after ``up``
    r = [x for x in ctl.reactions if x["port_status_ns"] < up_ns]
    assert len(r) == 3 and all(x["sent_ns"] - x["port_status_ns"] >= 0.3e9 for x in r), ctl.reactions
    assert 0.3 <= sb["down_flows_react_s"], sb
    reacted = down_ns + sb["down_flows_react_s"] * 1e9
    # (an end's flows are read after its flow-mod was sent, and before the echo behind it came
    # back; both ends: the engine keeps one change per worker, the later of two ends it holds)
    assert min(x["sent_ns"] for x in r) - NS <= reacted <= max(x["echoed_ns"] for x in r) + NS, (reacted, r)
    a, pa, b, pb = link
    back = [min(at for at, d in ctl.heard if d == way and at >= up_ns) for way in (((a, pa), (b, pb)), ((b, pb), (a, pa)))]
    assert 0 < sb["up_probed_both_ways_s"] and up_ns + sb["up_probed_both_ways_s"] * 1e9 <= max(back) + NS, (sb, back)
    assert (t["down_detect_s"], t["up_detect_s"]) == (sb["down_flows_react_s"], sb["up_probed_both_ways_s"])
    assert f"flows reacted to the down after {sb['down_flows_react_s']:.3f} s" in change.describe(t)
