"""One verdict per case, from what was observed (issue 16). Pure: inputs are the engine's
``robustness`` observation, its per-loop answered counts and raw latency samples, and whether the controller was alive
and listening after the case.

Verdicts, worst first (the first that applies wins):

- ``crashed``: the controller process died (managed: by PID), or a ``tcp:`` one stopped
  accepting connections on its port;
- ``hung``: no background switch got an answer for at least ``hung_ms`` from the case's start
  on (consecutive loops with zero answers);
- ``fooled`` (the two view cases, where the controller has a topology/host view, e.g.
  ``osken:topology``): after ``fabricated-lldp`` its view has the link between the victim's
  port 1 and the attacker's port 1 that does not exist; after ``host-hijack`` it places the
  victim's host on the attacker (TopoGuard's two attacks);
- ``degraded``: the background's answered rate during or after the case fell more than
  ``drop`` below its rate before the case, or (SYN flood) a new switch could not finish its
  handshake during the flood, or its latency rose (p99 during or after above
  ``max(LAT_FACTOR × p99 before, p99 before + LAT_SLACK_MS)``, each phase with at least
  ``LAT_MIN_SAMPLES`` answered requests, and at least ``LAT_MIN_LOOPS`` loops of the window
  and after with their own p99 above that limit, and the same phase's p50 above
  ``max(P50_FACTOR × p50 before, p50 before + P50_SLACK_MS)``), or a background session was lost;
- ``rejected``: the controller sent an OpenFlow error to the attacker or closed its session
  (and only that);
- ``ignored``: nothing visible, service unchanged.

And one non-verdict: ``unmeasured`` when the background was never answered before the case
(no baseline: the controller does not serve the engine's switches at all), so "hung" or
"degraded" would be claims without evidence.

The background runs at a fixed offered rate well below the controller's capacity, so its
answered rate is steady and a drop means the controller failed to keep up.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from statistics import fmean
from typing import Optional

VERDICTS = ("crashed", "hung", "fooled", "degraded", "rejected", "ignored", "unmeasured")
# The victim host of ``host-hijack``: switch 0's host 1 (crates/ofmutate/src/attacks.rs)
VICTIM_HOST_MAC = "00:00:00:00:00:01"
VIEW_CASES = ("fabricated-lldp", "host-hijack")
DROP = 0.3
HUNG_MS = 1000
# "their latency rose": p99 during/after > max(LAT_FACTOR × p99 before, p99 before + LAT_SLACK_MS).
# The factor catches a slow controller's doubling; the slack keeps a fast one's jitter (a p99 of
# 0.3 ms becoming 0.9 ms is noise on a shared machine, not a denial of service) out.
LAT_FACTOR = 2.0
LAT_SLACK_MS = 5.0
LAT_MIN_SAMPLES = 20
# ... and the rise must last: at least this many loops of the window and after (each loop's own
# p99) above the limit. One stalled 500 ms loop on a shared 2-core machine is scheduling noise
# (seen: a single loop's p99 of 50 ms with every other loop at 2-6 ms), not a denial of service.
LAT_MIN_LOOPS = 2
# ... and the body of the distribution moved too: p50 during/after > max(P50_FACTOR × p50 before,
# p50 before + P50_SLACK_MS). Other processes on a shared machine (a fuzzer, compilers) stretch
# the tail in bursts of 50-300 ms (seen: a table with load average 4 on 2 cores read "degraded"
# on p99 alone for half the cases, p50 unchanged); a controller that serves everyone slower
# moves the median.
P50_FACTOR = 2.0
P50_SLACK_MS = 2.0


@dataclass
class Phases:
    """Background answered requests/s in loops before, during and after the case window."""
    before: Optional[float]
    during: Optional[float]
    after: Optional[float]
    longest_silence_ms: float
    # the controller's CPU % (engine's sampler, one sample per loop end), same split
    ctl_cpu_before: Optional[float] = None
    ctl_cpu_during: Optional[float] = None
    ctl_cpu_after: Optional[float] = None
    # the background's latency (µs), nearest-rank percentiles of the raw per-request samples of
    # the loops of each phase (engine ``loops.latency_us``), and how many samples each rests on
    lat_p50_before: Optional[float] = None
    lat_p50_during: Optional[float] = None
    lat_p50_after: Optional[float] = None
    lat_p99_before: Optional[float] = None
    lat_p99_during: Optional[float] = None
    lat_p99_after: Optional[float] = None
    lat_n_before: int = 0
    lat_n_during: int = 0
    lat_n_after: int = 0
    # each measured loop's own p99 (µs; None: no sample), and its phase: the persistence check
    lat_p99_loops: list = field(default_factory=list)
    lat_phase_loops: list = field(default_factory=list)


@dataclass
class Verdict:
    case: str
    verdict: str
    evidence: str
    phases: dict = field(default_factory=dict)
    restarted: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def phases(loops: dict, started_s: float, ended_s: float, cpu: Optional[tuple] = None) -> Phases:
    """Split the measured loops (``loops`` as the engine writes it) around the window; ``cpu``
    is (t_s, cpu_percent) of the controller, each sample covering the loop that ends at t_s."""
    loop_s = loops["loop_ms"] / 1000.0
    warm = loops.get("warmup", 0)
    before, during, after = [], [], []
    lat: dict = {"before": [], "during": [], "after": []}
    samples = loops.get("latency_us") or [[] for _ in loops["k"]]
    per_loop, loop_phase = [], []
    silence, longest = 0.0, 0.0
    for k, t_end, n, us in zip(loops["k"], loops["t_s"], loops["answered"], samples):
        if k <= warm:
            continue
        t0, rate = t_end - loop_s, n / loop_s
        phase = "before" if t_end <= started_s else "after" if t0 >= ended_s else "during"
        {"before": before, "during": during, "after": after}[phase].append(rate)
        lat[phase].extend(us)
        per_loop.append(percentile(us, 0.99))
        loop_phase.append(phase)
        if t_end > started_s:
            silence = silence + loop_s if n == 0 else 0.0
            longest = max(longest, silence)
    m = lambda v: fmean(v) if v else None  # noqa: E731
    split: dict = {"b": [], "d": [], "a": []}
    for t_end, c in zip(*(cpu or ((), ()))):
        if t_end <= loop_s * warm:
            continue
        split["b" if t_end <= started_s else "a" if t_end - loop_s >= ended_s else "d"].append(c)
    q = {f"lat_p{int(p * 100)}_{ph}": percentile(v, p) for ph, v in lat.items() for p in (0.5, 0.99)}
    return Phases(m(before), m(during), m(after), longest * 1000.0,
                  m(split["b"]), m(split["d"]), m(split["a"]),
                  **q, **{f"lat_n_{ph}": len(v) for ph, v in lat.items()},
                  lat_p99_loops=per_loop, lat_phase_loops=loop_phase)


def percentile(values: list, q: float) -> Optional[float]:
    """Nearest-rank percentile (the smallest sample with at least ``q`` of them at or below)."""
    if not values:
        return None
    s = sorted(values)
    return float(s[max(0, math.ceil(q * len(s)) - 1)])


def latency_rose(ph: Phases) -> Optional[str]:
    """Why the background's latency counts as risen (the ``degraded`` rule), or None."""
    b = ph.lat_p99_before
    if b is None or ph.lat_n_before < LAT_MIN_SAMPLES:
        return None
    limit = max(LAT_FACTOR * b, b + LAT_SLACK_MS * 1000.0)
    high = sum(1 for p99, phase in zip(ph.lat_p99_loops, ph.lat_phase_loops)
               if phase != "before" and p99 is not None and p99 > limit)
    m = ph.lat_p50_before
    if high < LAT_MIN_LOOPS or m is None:
        return None
    mid = max(P50_FACTOR * m, m + P50_SLACK_MS * 1000.0)
    for name, p99, p50, n in (("during", ph.lat_p99_during, ph.lat_p50_during, ph.lat_n_during),
                              ("after", ph.lat_p99_after, ph.lat_p50_after, ph.lat_n_after)):
        if p99 is not None and p50 is not None and n >= LAT_MIN_SAMPLES and p99 > limit and p50 > mid:
            return (f"latency {name}: p99 {_ms(p99)} ms > {_ms(limit)} ms (max({LAT_FACTOR:g}× before {_ms(b)} ms, "
                    f"before + {LAT_SLACK_MS:g} ms); {high} loops above it) and p50 {_ms(p50)} ms > {_ms(mid)} ms "
                    f"(max({P50_FACTOR:g}× before {_ms(m)} ms, before + {P50_SLACK_MS:g} ms))")
    return None


def view_check(case: str, obs: dict, view: Optional[dict], victim_dpid: int) -> Optional[tuple]:
    """(fooled, evidence) from the controller's topology view, or None when not applicable."""
    if case not in VIEW_CASES or view is None:
        return None
    me = obs.get("attacker_dpid")
    if case == "fabricated-lldp":
        fake = [ln for ln in view.get("links", [])
                if {(ln["src"]["dpid"], ln["src"]["port_no"]), (ln["dst"]["dpid"], ln["dst"]["port_no"])}
                == {(victim_dpid, 1), (me, 1)}]
        return (True, f"view has the fabricated link {victim_dpid}:1 ↔ {me}:1 ({len(fake)} direction(s))") if fake \
            else (False, "no fabricated link in the view")
    at = [h for h in view.get("hosts", []) if h.get("mac") == VICTIM_HOST_MAC]
    if any(h["dpid"] == me for h in at):
        return True, f"view places host {VICTIM_HOST_MAC} on the attacker (dpid {me})"
    where = ", ".join(f"dpid {h['dpid']} port {h['port_no']}" for h in at) or "nowhere"
    return False, f"view places host {VICTIM_HOST_MAC} at {where}"


def judge(obs: Optional[dict], loops: dict, *, alive: bool, disconnects: int = 0,
          drop: float = DROP, hung_ms: float = HUNG_MS, view: Optional[dict] = None,
          victim_dpid: int = 1, ctl_cpu: Optional[tuple] = None, listen_queue: Optional[dict] = None) -> Verdict:
    """The verdict of one case run (see the module doc). ``listen_queue``: the change of the
    root namespace's TcpExt listen counters over a SYN flood's run (evidence only)."""
    case = (obs or {}).get("case", "?")
    if obs is None:
        return Verdict(case, "crashed" if not alive else "hung", "the run produced no observation")
    ph = phases(loops, obs["started_s"], obs["ended_s"], ctl_cpu)
    pd = asdict(ph)
    rates = f"background {_r(ph.before)} → {_r(ph.during)} → {_r(ph.after)} answered/s"
    if ph.lat_n_before or ph.lat_n_during or ph.lat_n_after:
        rates += (f"; latency p50 {_ms(ph.lat_p50_before)} → {_ms(ph.lat_p50_during)} → {_ms(ph.lat_p50_after)} ms, "
                  f"p99 {_ms(ph.lat_p99_before)} → {_ms(ph.lat_p99_during)} → {_ms(ph.lat_p99_after)} ms")
    if ph.ctl_cpu_before is not None:
        rates += f"; controller CPU {_r(ph.ctl_cpu_before)}% → {_r(ph.ctl_cpu_during)}% → {_r(ph.ctl_cpu_after)}%"
    if listen_queue:
        rates += "; listen queue " + ", ".join(f"{k} +{n:,}" for k, n in listen_queue.items() if n) if any(
            listen_queue.values()) else "; listen queue: no overflow, drop or SYN cookie counted"
    if not alive:
        return Verdict(case, "crashed", f"controller gone after the case; {rates}", pd)
    if not ph.before:
        return Verdict(case, "unmeasured", f"the background was never answered before the case (no baseline); "
                       f"{_seen(obs)}; {rates}", pd)
    if ph.longest_silence_ms >= hung_ms:
        return Verdict(case, "hung", f"no answers for {ph.longest_silence_ms:.0f} ms; {rates}", pd)
    seen_view = view_check(case, obs, view, victim_dpid)
    if seen_view and seen_view[0]:
        return Verdict(case, "fooled", f"{seen_view[1]}; {rates}", pd)
    if seen_view:
        rates = f"{seen_view[1]}; {rates}"
    worst = min((x for x in (ph.during, ph.after) if x is not None), default=None)
    if disconnects:
        return Verdict(case, "degraded", f"{disconnects} background session(s) lost; {rates}", pd)
    if obs.get("syn_sent") and obs.get("handshake_ms") is None:
        return Verdict(case, "degraded", f"a new switch could not connect during the SYN flood ({_seen(obs)}); {rates}", pd)
    if ph.before and worst is not None and worst < (1 - drop) * ph.before:
        fell = 1 - worst / ph.before
        return Verdict(case, "degraded", f"rate fell {fell:.0%} (> {drop:.0%}); {_seen(obs)}; {rates}", pd)
    slow = latency_rose(ph)
    if slow:
        return Verdict(case, "degraded", f"{slow}; {_seen(obs)}; {rates}", pd)
    seen = _seen(obs)
    if obs.get("errors") or obs.get("closed_by_controller"):
        return Verdict(case, "rejected", f"{seen}; {rates}", pd)
    return Verdict(case, "ignored", f"{seen}; {rates}", pd)


def _r(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:,.0f}"


def _ms(us: Optional[float]) -> str:
    """µs as ms, to 0.01 ms."""
    return "-" if us is None else f"{us / 1000.0:,.2f}"


def _seen(obs: dict) -> str:
    """What the attacker saw, in a few words."""
    bits = []
    if obs.get("connect_error"):
        bits.append(f"connect failed: {obs['connect_error']}")
    errs = obs.get("errors") or []
    if errs:
        names = sorted({e["name"] for e in errs})
        bits.append(f"error {', '.join(names)}" + (f" ×{len(errs)}" if len(errs) > 1 else ""))
    closed = obs.get("closed_by_controller")
    if closed:
        bits.append(f"session {'closed' if closed[0] == 'eof' else 'reset'} after "
                    f"{(closed[1] - obs['started_s']) * 1000:.0f} ms")
    idle = obs.get("idle")
    if idle:
        bits.append(f"idle conns {idle['opened']} opened, {idle['closed_by_controller']} closed by controller")
    if obs.get("flood_sent"):
        bits.append(f"flood {obs['flood_sent']:,} packet-ins")
    if obs.get("syn_sent") or obs.get("syn_refused"):
        bits.append(f"{obs['syn_sent']:,} SYNs sent" + (f" ({obs['syn_refused']:,} refused)" if obs.get("syn_refused") else "")
                    + (f"; new switch's handshake {obs['handshake_ms']:.1f} ms" if obs.get("handshake_ms") is not None else ""))
    back = {k: n for k, n in (obs.get("received") or {}).items()
            if k not in ("hello", "features_request", "echo_reply", "echo_request", "error")}
    if back:
        bits.append("got " + ", ".join(f"{k} {n:,}" for k, n in sorted(back.items(), key=lambda x: -x[1])[:3]))
    if obs.get("probe_answered") is not None:
        bits.append("probe echo answered" if obs["probe_answered"] else "probe echo unanswered")
    return "; ".join(bits) or "nothing back"
