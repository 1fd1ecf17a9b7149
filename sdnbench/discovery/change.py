"""Topology change detection (RFC 8456 §5.1.8): after discovery, one link goes down at a
scheduled instant (engine ``events``: both ends send PORT_STATUS, probes stop crossing) and comes
back up later. Detection time = the first northbound poll at or after the engine's recorded
instant whose view no longer has the link (both directions), and for the way back, the first
whose view has it again. Resolution: the poll interval (the previous poll is reported too).
The RFC's Tcn is the PORT_STATUS instant: the engine records it as the event's ``mono_ns``.

Southbound (``--verify southbound``, for controllers without a northbound view; also reported
beside a northbound result), from what the engine saw the controller do (``southbound_change``):
the link down is detected when the controller's flows react (the flow-entry count of an end
switch changes after the PORT_STATUS; a controller that changes no flow shows nothing here, and
the result says so), the link up when its probes cross the link again in both directions.
"""

from __future__ import annotations

import time
from typing import Optional

from ..engine.result_types import EngineResult
from ..errors import UserError
from ..northbound.links import directed
from .engine_run import EngineRun
from .trial import Setup, poll_until_done, southbound


def pick_link(network: dict, text: Optional[str]) -> list:
    links = network["links"]
    if not links:
        raise UserError(f"topology {network.get('spec')} has no switch-to-switch link to take down")
    if text is None:
        return links[len(links) // 2]
    try:
        (a, pa), (b, pb) = [[int(x) for x in end.split(":")] for end in text.split("-")]
    except ValueError:
        raise UserError(f"--link: {text!r} is not DPID:PORT-DPID:PORT") from None
    for l in links:
        if l in ([a, pa, b, pb], [b, pb, a, pa]):
            return l
    raise UserError(f"--link {text}: no such link in {network.get('spec')}")


def events(link: list, down_at_s: float, up_after_s: float) -> list:
    if down_at_s <= 0 or up_after_s <= 0:
        raise UserError("--down-at-s and --up-after-s must be positive")
    at = int(down_at_s * 1000)
    return [{"at_ms": at, "link": link, "state": "down"},
            {"at_ms": at + int(up_after_s * 1000), "link": link, "state": "up"}]


def _dirs(link: list) -> set:
    a, pa, b, pb = link
    return directed((a, pa), (b, pb))


def back_up_seen(polls: list, link: list) -> bool:
    """The view had the link, lost it, and later had it again (the caller may stop polling)."""
    d, had, lost = _dirs(link), False, False
    for p in polls:
        if p.links is None:
            continue
        if not had:
            had = d <= p.links
        elif not lost:
            lost = not (d & p.links)
        elif d <= p.links:
            return True
    return False


def detect(polls: list, since_ns: Optional[int], test) -> tuple:
    """(first poll at/after ``since_ns`` passing ``test``, the poll before it) in ns, or (None, None)."""
    if since_ns is None:
        return None, None
    prev = since_ns
    for p in polls:
        if p.links is None or p.t_ns < since_ns:
            continue
        if test(p.links):
            return p.t_ns, prev
        prev = p.t_ns
    return None, None


def analyse(want: frozenset, link: list, polls: list, down_ns: Optional[int], up_ns: Optional[int]) -> dict:
    d = _dirs(link)
    complete_before = any(p.links == want for p in polls if down_ns and p.t_ns < down_ns)
    dn, dn_prev = detect(polls, down_ns, lambda v: not (d & v))
    up, up_prev = detect(polls, up_ns, lambda v: d <= v)
    s = lambda a, b: None if a is None or b is None else (a - b) / 1e9
    return {"discovered_before_change": complete_before,
            "down_detect_s": s(dn, down_ns), "down_previous_poll_s": s(dn_prev, down_ns) if dn else None,
            "up_detect_s": s(up, up_ns), "up_previous_poll_s": s(up_prev, up_ns) if up else None}


def southbound_change(evs: list) -> dict:
    """Seconds from the engine's instants (``evs``: its ``network.events``, ``Applied``) to the
    controller's southbound reactions (see above), and the instants themselves (CLOCK_MONOTONIC
    ns; None: not applied)."""
    def first(state: str):
        recs = [e for e in evs if e.state == state and e.mono_ns]
        return recs, min((e.mono_ns for e in recs), default=None)
    down, t_down = first("down")
    up, t_up = first("up")
    flows = [e.flows_changed_ns for e in down if e.flows_changed_ns]
    dirs = [min((e.first_probe_after_ns[k] for e in up if (e.first_probe_after_ns or [0, 0])[k]), default=None)
            for k in (0, 1)]
    return {"down_flows_react_s": (min(flows) - t_down) / 1e9 if flows and t_down else None,
            "up_probed_both_ways_s": (max(dirs) - t_up) / 1e9 if t_up and None not in dirs else None,
            "down_mono_ns": t_down, "up_mono_ns": t_up}


def run(s: Setup, address: str, link: list, controller_pid: Optional[int] = None) -> dict:
    from ..engine.params import config
    cfg = config(s.params, address)
    if controller_pid:
        cfg["controller_pid"] = controller_pid
    start = time.monotonic_ns()
    with EngineRun(cfg) as eng:
        polled = poll_until_done(s, eng, start, stop_when=lambda o: back_up_seen(o.polls, link))
        res = EngineResult.from_json(eng.stop())
    evs = res.network.events if res.network else []
    at = lambda state: min((e.mono_ns for e in evs if e.state == state and e.mono_ns), default=None)
    if s.adapter is not None:
        t = analyse(s.want, link, polled.polls, at("down"), at("up"))
    else:
        t = {"discovered_before_change": southbound(res)["complete_s"] is not None, "down_detect_s": None,
             "down_previous_poll_s": None, "up_detect_s": None, "up_previous_poll_s": None}
    t["southbound_change"] = southbound_change(evs)
    t.update({"link": "-".join(sorted(f"{x}:{y}" for x, y in ((link[0], link[1]), (link[2], link[3])))),
              "polls": len(polled.polls), "poll_s": s.poll_s, "northbound_error": polled.error,
              "southbound": southbound(res), "switches": len(s.params["network"]["switches"]),
              "links": len(s.params["network"]["links"]),
              "verification": "northbound" if s.adapter is not None else "southbound"})
    sb = t["southbound_change"]
    if s.adapter is None:      # southbound: the down from the flows (if they react), the up from the probes
        t["down_detect_s"], t["up_detect_s"] = sb["down_flows_react_s"], sb["up_probed_both_ways_s"]
        ok = t["discovered_before_change"] and t["up_detect_s"] is not None
    else:
        ok = t["discovered_before_change"] and t["down_detect_s"] is not None
    t["state"] = "complete" if ok else "incomplete"
    return t


def describe(t: dict) -> str:
    if not t["discovered_before_change"]:
        return f"link {t['link']}: the topology was not discovered before the change (poll longer: --down-at-s)"
    sb = t.get("southbound_change") or {}
    g = lambda v: "not seen" if v is None else f"{v:.3f} s"
    south = (f"southbound: flows reacted to the down after {g(sb.get('down_flows_react_s'))}"
             + (" (this controller changes no flow on a port down)" if sb.get("down_flows_react_s") is None else "")
             + f", probes crossed both ways again {g(sb.get('up_probed_both_ways_s'))} after the up")
    if t.get("verification") == "southbound":
        return f"link {t['link']}: {south}"
    f = lambda v, prev: "not seen" if v is None else f"{v:.3f} s (previous poll {prev:.3f} s)"
    return (f"link {t['link']}: down detected after {f(t['down_detect_s'], t['down_previous_poll_s'] or 0)}, "
            f"up after {f(t['up_detect_s'], t['up_previous_poll_s'] or 0)}; poll every {t['poll_s']:g} s; {south}")


def to_result(cfg, t: dict, info: dict, adapter):
    """The trial as a Result; ``cfg`` is the suite's typed parameters (``params.Discovery``)."""
    from ..result import Result
    from .record import rfc_fields
    from ..engine import driver
    r = Result(kind="controller", benchmark="topology-change",
               params={k: v for k, v in {"controller": cfg.controller, "topo": cfg.topo, "link": t["link"],
                       "poll_s": cfg.poll_s, "down_at_s": cfg.down_at_s, "up_after_s": cfg.up_after_s,
                       "of_version": cfg.of_version}.items() if v is not None})
    r.controller = info
    r.topology = {"spec": cfg.topo, "switches": t["switches"], "links": t["links"]}
    r.add("change_detect_down", "s", [] if t["down_detect_s"] is None else [t["down_detect_s"]])
    r.add("change_detect_up", "s", [] if t["up_detect_s"] is None else [t["up_detect_s"]])
    r.counters.update({"rfc8456": rfc_fields(info, cfg.topo, t["switches"], t["links"], t["verification"],
                                            adapter.name if adapter else None, cfg.of_version), **t})
    r.versions["sdnbench-engine"] = driver.version()
    return r.finish() if t["state"] == "complete" else r.finish("failed", describe(t))
