"""One discovery trial (RFC 8456 §5.1.1): the engine brings the network up against a running
controller; the northbound view is polled every ``poll_s`` from the start until it matches, stalls
(``stable`` identical answers) or the deadline passes; the engine is then stopped and its
southbound view (probes per link per direction) read. Times are from the first switch connecting.

Northbound errors: after ``ERRORS_IN_ROW`` failed polls in a row the trial goes on southbound-only
(until the deadline) and keeps the error line; the southbound result is always kept.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Optional

from ..engine.params import config
from ..engine.result_types import EngineResult
from ..northbound import Adapter, NorthboundError
from ..northbound.links import undirected_names
from .engine_run import EngineRun
from .poller import Poll, Verdict, judge

ERRORS_IN_ROW = 3


@dataclass
class Setup:
    params: dict                 # checked engine params (mode network, network, loops...)
    want: frozenset              # the emulated links, both directions
    adapter: Optional[Adapter]   # None: southbound verification
    api_url: Optional[str]
    poll_s: float = 3.0
    deadline_s: float = 60.0
    stable: int = 3
    quiet: bool = True


@dataclass
class Polled:
    polls: list = field(default_factory=list)
    verdict: Optional[Verdict] = None
    error: Optional[str] = None


def poll_until_done(s: Setup, run: EngineRun, start_ns: int, stop_when=None) -> Polled:
    """Poll (or, southbound, just wait) until a verdict, the deadline, or the engine ends.
    ``stop_when(polled)`` may end it earlier (topology change uses it)."""
    out = Polled()
    deadline = start_ns + int(s.deadline_s * 1e9)
    in_row = 0
    next_t = start_ns
    while run.running() and time.monotonic_ns() < deadline:
        now = time.monotonic_ns()
        if now < next_t:
            time.sleep(min((next_t - now) / 1e9, 0.5))
            continue
        next_t += int(s.poll_s * 1e9)
        if s.adapter is None or out.error:
            continue
        try:
            # a large view takes the controller a while to serialize: a slow answer is late, not lost
            links = frozenset(s.adapter.links(s.api_url, timeout=max(10.0, s.poll_s)))
            # a poll's time is when its answer arrived: the view showed this by then at the latest
            out.polls.append(Poll(time.monotonic_ns(), links))
            in_row = 0
        except NorthboundError as e:
            out.polls.append(Poll(now, None, str(e)))
            in_row += 1
            if in_row >= ERRORS_IN_ROW:
                out.error = str(e)
                print(f"{e}; going on southbound-only", file=sys.stderr)
            continue
        if not s.quiet:
            print(f"  poll {len(out.polls)}: {len(links)}/{len(s.want)} link directions", file=sys.stderr)
        if stop_when is not None:
            if stop_when(out):
                break
            continue
        out.verdict = judge(s.want, out.polls, s.stable)
        if out.verdict.state != "running":
            break
    return out


def run_trial(s: Setup, address: str, controller_pid: Optional[int] = None) -> dict:
    cfg = config(s.params, address)
    if controller_pid:
        cfg["controller_pid"] = controller_pid
    start = time.monotonic_ns()
    with EngineRun(cfg, live=not s.quiet) as run:
        polled = poll_until_done(s, run, start)
        res = EngineResult.from_json(run.stop())
    return summarize(s, polled, res)


def southbound(res: EngineResult) -> dict:
    net = res.network
    d = net.discovery if net else None
    probes = d.probes_ms if d else []
    firsts = [p[k][0] for p in probes for k in (0, 1) if p[k][0] is not None]
    complete = d.complete_ms if d else None
    return {
        "first_connect_mono_ns": d.first_connect_mono_ns if d else 0,
        "switches_connected": d.switches_connected if d else 0,
        "complete_s": None if complete is None else complete / 1000,
        # RFC 8456 §5.1.1: DT = Tmn − Tm1 (first probe seen to the last one discovery needed)
        "rfc_dt_s": None if complete is None or not firsts else (complete - min(firsts)) / 1000,
        "links_probed_both_ways": net.links_probed_both_ways if net else 0,
        "unprobed": [i for i, p in enumerate(probes) if p[0][0] is None or p[1][0] is None],
        "invariant": net.invariant if net else None,
    }


def summarize(s: Setup, polled: Polled, res: EngineResult) -> dict:
    sb = southbound(res)
    t0 = sb["first_connect_mono_ns"]
    links = res.network.links if res.network else len(s.want) // 2
    r = {"links": links, "switches": len(s.params["network"]["switches"]), "southbound": sb,
         "polls": len(polled.polls), "poll_s": s.poll_s, "northbound_error": polled.error,
         "engine_status": res.status, "view_sizes": view_sizes(polled.polls, t0)}
    if not t0:
        return dict(r, verification="none", state="failed", discovery_s=None,
                    note="no switch connected to the controller")
    v = polled.verdict
    if v is not None and v.state == "running":
        v.state = "timeout"          # the deadline (or the engine's end) came first
    if s.adapter is not None and v is not None and not polled.error:
        rel = lambda t: None if t is None else max(0.0, (t - t0) / 1e9)
        return dict(r, verification="northbound", state=v.state, discovery_s=rel(v.at_ns) if v.state == "complete" else None,
                    previous_poll_s=rel(v.before_ns), seen=v.seen, want=v.want,
                    missing=v.missing_names(), extra=undirected_names(v.extra),
                    why_missing=why_missing(v.missing, s.params["network"]["links"], res))
    if s.adapter is not None and not polled.error and polled.polls:
        v = judge(s.want, polled.polls, s.stable)
        return dict(r, verification="northbound", state="timeout", discovery_s=None, seen=v.seen,
                    want=v.want, missing=v.missing_names(), extra=undirected_names(v.extra),
                    why_missing=why_missing(v.missing, s.params["network"]["links"], res))
    # southbound verdict: every link carried the controller's probes both ways
    names = [_link_name(s.params["network"]["links"][i]) for i in sb["unprobed"]]
    done = sb["complete_s"] is not None
    return dict(r, verification="southbound", state="complete" if done else "incomplete",
                discovery_s=sb["complete_s"], seen=2 * sb["links_probed_both_ways"], want=2 * links, missing=names, extra=[])


def view_sizes(polls: list, t0_ns: int) -> list:
    """Every poll as [s since the first switch connected (negative: before it), link directions
    in the view or None for a failed poll]: the raw series behind the verdict, which shows a
    view that grows, stalls, or loses links again (os-ken 4 ages a link out 10 s after its last
    probe, Ryu 4.34 only after 5 unanswered probes as well)."""
    return [[round((p.t_ns - t0_ns) / 1e9, 4) if t0_ns else None,
             None if p.links is None else len(p.links)] for p in polls]


def why_missing(missing: list, links: list, res: EngineResult) -> dict:
    """For the link directions a northbound view lacks, where the engine saw their probes end:
    ``never_probed`` (no probe of the controller crossed that direction), ``dropped_by_switch``
    (probes crossed, the receiving switch raised none to the controller: no table-miss entry or
    rule sending LLDP up), ``raised`` (packet-ins with the probe reached the controller: its own
    bookkeeping lost the link)."""
    net = res.network
    crossed, raised = (net.lldp_per_link, net.lldp_raised_per_link) if net else ([], [])
    where = {}
    for i, (a, pa, b, pb) in enumerate(links):
        where[((a, pa), (b, pb))] = (i, 0)
        where[((b, pb), (a, pa))] = (i, 1)
    out = {"never_probed": 0, "dropped_by_switch": 0, "raised": 0}
    for d in missing:
        i, k = where.get(tuple(map(tuple, d)), (None, None))
        if i is None:
            continue
        c = crossed[i][k] if i < len(crossed) else 0
        up = raised[i][k] if i < len(raised) else 0
        out["raised" if up else "dropped_by_switch" if c else "never_probed"] += 1
    return out


def _link_name(l) -> str:
    a, pa, b, pb = l
    return "-".join(sorted([f"{a}:{pa}", f"{b}:{pb}"]))
