"""One verdict per case, from what was observed (issue 16). Pure: inputs are the engine's
``robustness`` observation and its per-loop answered counts and raw latency samples (``loops``),
as the typed views of its document (``engine.result_types``: a field the schema renames fails
where the document is read, not here), and whether the controller was alive and listening after
the case.

Verdicts, worst first (the first that applies wins):

- ``crashed``: the controller process died (managed: by PID), or a ``tcp:`` one stopped
  accepting connections on its port;
- ``hung``: no background switch got an answer for at least ``hung_ms`` from the case's start
  on (consecutive loops with zero answers);
- ``fooled`` (the two view cases, where the controller has a topology/host view, e.g.
  ``osken:topology``): after ``fabricated-lldp`` its view has the link between the victim's
  port 1 and the attacker's port 1 that does not exist; after ``host-hijack`` it places the
  victim's host on the attacker (TopoGuard's two attacks; Faucet: read by read, after a read
  that had it on the victim, ``host_move_check``);
- ``degraded``: a background session was lost, or (SYN flood) a new switch could not finish
  its handshake during the flood, or the background's answered rate fell or its latency rose
  during or after the window by a change that is significant over the loop samples and large
  (``change.py``: one-sided Mann–Whitney U, p < 0.01; rate: mean more than ``drop`` below
  before; latency: pooled p50 above max(2 × before, before + 2 ms));
- ``not applicable`` (the two view cases): the controller serves no topology or host view
  sdnbench reads, so being fooled cannot be observed (an L2 learning switch re-learns a moved
  MAC by design); the reason is given, and it is not a pass;
- ``rejected``: the controller sent an OpenFlow error to the attacker or closed its session
  (and only that);
- ``ignored``: nothing visible, service unchanged.

And one non-verdict: ``unmeasured`` when the background was never answered before the case
(no baseline: the controller does not serve the engine's switches at all), or the baseline was
starved (the controller already at ``STARVED_CPU`` % of a core before the case), or the load
generator itself was starved (the engine's loop clock ran ``ENGINE_LATE_MS`` or more late in a
measured loop: its switches sent late and read late, so the background's rate and latency say
nothing about the controller), so "hung" or "degraded" would be claims without evidence. A
``fooled`` or ``crashed`` does not rest on the background and stands.

The background runs at a fixed offered rate well below the controller's capacity, so its
answered rate is steady and a drop means the controller failed to keep up.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from statistics import fmean
from typing import Optional

from ..engine.result_types import Idle, Loops, Observation
from .change import Change, latency_rose, rate_fell

VERDICTS = ("crashed", "hung", "fooled", "degraded", "rejected", "ignored", "not applicable", "unmeasured")
PASSED = ("rejected", "ignored")
# A controller this busy before the case has no spare capacity to show a change against.
STARVED_CPU = 90.0
# The load generator was starved when a loop boundary of the engine ran this late: its loop
# ticker shares the switches' event loop, so its lateness is theirs (a fixed-rate request's
# latency is measured from its schedule, so a late engine looks like a slow controller). Measured
# here (docs/robustness.md): below 2 ms in most loops, single blips to 28 ms at load average 5 on
# 2 cores, and stalls of 52 ms to 1.35 s in 6 of 24 runs at that load: a fifth of a loop.
ENGINE_LATE_MS = 50.0
# The victim host of ``host-hijack``: switch 0's host 1 (crates/ofmutate/src/attacks.rs)
VICTIM_HOST_MAC = "00:00:00:00:00:01"
VIEW_CASES = ("fabricated-lldp", "host-hijack")
# a stack port's states (Faucet 1.10 ``port.py`` STACK_STATE_*; its ``port_stack_state`` metric)
STACK_STATES = {0: "ADMIN_DOWN", 1: "INIT", 2: "BAD", 3: "UP", 4: "GONE", -1: "NONE"}
DROP = 0.3
HUNG_MS = 1000
# A loop's end is stamped when the engine gets to it, a fraction of a ms after the nominal time;
# a loop that overlaps the window by less than this counts on its side of the edge.
EDGE_S = 0.01


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
    # each measured loop's own p99 (µs; None: no sample; evidence), and its phase
    lat_p99_loops: list = field(default_factory=list)
    lat_phase_loops: list = field(default_factory=list)
    # each measured loop's answered rate (/s) and median latency (µs): the significance tests' samples
    rate_loops: list = field(default_factory=list)
    lat_p50_loops: list = field(default_factory=list)
    # how late the engine ran each measured loop's boundary (ms; ``engine_lateness``), and the
    # largest per phase: the load generator's own scheduling, not the controller's
    engine_late_ms_loops: list = field(default_factory=list)
    engine_late_ms_before: Optional[float] = None
    engine_late_ms_during: Optional[float] = None
    engine_late_ms_after: Optional[float] = None
    # the longest run-queue wait in one loop per phase (ms: how long its threads were runnable
    # but got no CPU; engine ``resources.processes[].run_delay_ms``), {"engine"|"controller":
    # {"before"|"during"|"after": ms}}: which of the two the machine starved
    run_wait_ms: dict = field(default_factory=dict)


@dataclass
class Verdict:
    case: str
    verdict: str
    evidence: str
    phases: dict = field(default_factory=dict)
    restarted: bool = False
    # the significance test behind a "degraded" by rate or latency (change.Change.to_dict)
    test: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def phases(loops: Loops, started_s: float, ended_s: float, cpu: Optional[tuple] = None,
           waits: Optional[dict] = None) -> Phases:
    """Split the measured loops (the engine's ``loops``) around the window; ``cpu``
    is (t_s, cpu_percent) of the controller, each sample covering the loop that ends at t_s;
    ``waits`` {label: (t_s, run-queue delay ms)} the same for the engine and the controller."""
    loop_s = loops.loop_ms / 1000.0
    warm = loops.warmup
    before, during, after = [], [], []
    lat: dict = {"before": [], "during": [], "after": []}
    samples = loops.latency_us or [[] for _ in loops.k]
    per_loop, loop_phase, rate_loops, p50_loops = [], [], [], []
    silence, longest = 0.0, 0.0
    late_all = engine_lateness(loops)
    late_ph: dict = {"before": [], "during": [], "after": []}
    late_loops = []
    for k, t_end, n, us, late in zip(loops.k, loops.t_s, loops.answered, samples, late_all):
        if k <= warm:
            continue
        t0, rate = t_end - loop_s, n / loop_s
        phase = "before" if t_end <= started_s + EDGE_S else "after" if t0 >= ended_s - EDGE_S else "during"
        {"before": before, "during": during, "after": after}[phase].append(rate)
        lat[phase].extend(us)
        late_ph[phase].append(late)
        late_loops.append(late)
        per_loop.append(percentile(us, 0.99))
        p50_loops.append(percentile(us, 0.5))
        rate_loops.append(rate)
        loop_phase.append(phase)
        if t_end > started_s + EDGE_S:
            silence = silence + loop_s if n == 0 else 0.0
            longest = max(longest, silence)
    m = lambda v: fmean(v) if v else None  # noqa: E731
    split = _by_phase(cpu, loop_s, warm, started_s, ended_s)
    wait = {label: {ph: (round(max(v), 2) if v else None) for ph, v in
                     zip(("before", "during", "after"), _by_phase(w, loop_s, warm, started_s, ended_s).values())}
            for label, w in (waits or {}).items()}
    q = {f"lat_p{int(p * 100)}_{ph}": percentile(v, p) for ph, v in lat.items() for p in (0.5, 0.99)}
    return Phases(m(before), m(during), m(after), longest * 1000.0,
                  m(split["b"]), m(split["d"]), m(split["a"]),
                  **q, **{f"lat_n_{ph}": len(v) for ph, v in lat.items()},
                  lat_p99_loops=per_loop, lat_phase_loops=loop_phase, rate_loops=rate_loops,
                  lat_p50_loops=p50_loops, engine_late_ms_loops=late_loops,
                  **{f"engine_late_ms_{ph}": (max(v) if v else None) for ph, v in late_ph.items()},
                  run_wait_ms=wait)


def _by_phase(series: Optional[tuple], loop_s: float, warm: int, started_s: float, ended_s: float) -> dict:
    """{"b"|"d"|"a": values} of a per-loop (t_s, value) series of the engine's sampler."""
    split: dict = {"b": [], "d": [], "a": []}
    for t_end, c in zip(*(series or ((), ()))):
        if t_end <= loop_s * warm:
            continue
        split["b" if t_end <= started_s + EDGE_S else "a" if t_end - loop_s >= ended_s - EDGE_S else "d"].append(c)
    return split


def engine_lateness(loops: Loops) -> list:
    """How late (ms) the engine stamped each loop's end, every loop in order. The engine's loop
    ticker sleeps until go + k × loop_ms on the switches' own event loop and the coordinator
    stamps ``t_s`` when its report arrives, so ``t_s - k × loop`` is a constant (the settle time
    and the hand-over, under a millisecond) plus how late the switches' event loop ran at that
    instant. The constant is taken as the least of these over the run (the promptest loop)."""
    loop_s = loops.loop_ms / 1000.0
    off = [t - k * loop_s for k, t in zip(loops.k, loops.t_s)]
    base = min(off, default=0.0)
    return [round((o - base) * 1000.0, 2) for o in off]


def engine_starved(ph: Phases, limit_ms: float = ENGINE_LATE_MS) -> Optional[str]:
    """Why the load generator's measurement cannot be trusted (a loop boundary it ran
    ``limit_ms`` or more late), else None."""
    worst = {p: getattr(ph, f"engine_late_ms_{p}") for p in ("before", "during", "after")}
    late = {p: v for p, v in worst.items() if v is not None and v >= limit_ms}
    if not late:
        return None
    words = {"before": "before the case", "during": "during it", "after": "after it"}
    where = ", ".join(f"{v:,.0f} ms {words[p]}" for p, v in late.items())
    return (f"the engine's loop clock ran late by up to {where} (limit {limit_ms:.0f} ms): its own switches "
            "sent and read late, so the background's rate and latency say nothing about the controller")


def percentile(values: list, q: float) -> Optional[float]:
    """Nearest-rank percentile (the smallest sample with at least ``q`` of them at or below)."""
    if not values:
        return None
    s = sorted(values)
    return float(s[max(0, math.ceil(q * len(s)) - 1)])


def service_changed(ph: Phases, drop: float) -> Optional[Change]:
    """A significant and large fall of the background's rate, else rise of its latency (``change.py``)."""
    pooled = {"before": ph.lat_p50_before, "during": ph.lat_p50_during, "after": ph.lat_p50_after}
    return (rate_fell(ph.rate_loops, ph.lat_phase_loops, drop)
            or latency_rose(ph.lat_p50_loops, ph.lat_phase_loops, pooled))


def view_check(case: str, me: Optional[int], view: Optional[dict], victim_dpid: int) -> Optional[tuple]:
    """(fooled, evidence) from the controller's topology view (what sdnbench read from it, not the
    engine's document), or None when not applicable; ``me``: the attacker's datapath id."""
    if case not in VIEW_CASES or view is None:
        return None
    src = f"{view['source']}: " if view.get("source") else ""
    if case == "fabricated-lldp" and "stack_change" in view:
        return stack_check(view["stack_change"], victim_dpid, me, src)
    if case == "fabricated-lldp":
        fake = [ln for ln in view.get("links", [])
                if {(ln["src"]["dpid"], ln["src"]["port_no"]), (ln["dst"]["dpid"], ln["dst"]["port_no"])}
                == {(victim_dpid, 1), (me, 1)}]
        return (True, f"view has the fabricated link {victim_dpid}:1 ↔ {me}:1 ({len(fake)} direction(s))") if fake \
            else (False, "no fabricated link in the view")
    if "host_reads" in view:
        return host_move_check(view["host_reads"], victim_dpid, me, src)
    at = [h for h in view.get("hosts", []) if h.get("mac") == VICTIM_HOST_MAC]
    where = ", ".join(f"dpid {h['dpid']} port {h['port_no']}" for h in at) or "nowhere"
    on_me = [h for h in at if h["dpid"] == me]
    if on_me:
        return True, f"{src}view places host {VICTIM_HOST_MAC} on the attacker (dpid {me}; all: {where})"
    return False, f"{src}view places host {VICTIM_HOST_MAC} at {where}"


def host_move_check(reads: list, victim_dpid: int, me: Optional[int], src: str = "") -> Optional[tuple]:
    """(fooled, evidence) from where a controller placed the victim's host at each read of its
    host view over the case (Faucet: ``faucet_view.host_reads``, [(t_s, [(dpid, port)])]), or
    (None, reason) when no move can be shown. The hijack is a move only if the controller knew
    the host on the victim first: a read with it on the victim and not yet on the attacker (the
    background announced it there before the case: ``Profile::learning``). Fooled when a later
    read places it on the attacker; not fooled when no read does."""
    places = lambda ps: ", ".join(f"dpid {d} port {p}" for d, p in ps) or "nowhere"  # noqa: E731
    first_me = next((i for i, (_, ps) in enumerate(reads) if any(d == me for d, _ in ps)), None)
    prior = reads if first_me is None else reads[:first_me]
    known = [(t, ps) for t, ps in prior if any(d == victim_dpid for d, _ in ps)]
    host = f"host {VICTIM_HOST_MAC}"
    if not known:
        if first_me is None:
            return None, (f"{src}{host} placed on neither the victim (dpid {victim_dpid}) nor the attacker at any "
                          f"of {len(reads)} reads: the background's announcement of it was not learned")
        t, ps = reads[first_me]
        return None, (f"{src}{host} first placed on the attacker ({places(ps)} at {t:.2f} s) with no earlier read "
                      f"placing it on the victim (dpid {victim_dpid}): a new host, not a move")
    (t0, ps0), (tl, psl) = known[0], reads[-1]
    since = f"{host} at {places(ps0)} from {t0:.2f} s"
    if first_me is None:
        return False, (f"{src}{since}; at the last read ({tl:.2f} s): {places(psl)}; never on the attacker "
                       f"(dpid {me}): the forged ARP did not move it")
    (tb, psb), (t, ps) = reads[first_me - 1], reads[first_me]
    return True, (f"{src}{since}; at the last read before the forged ARP was taken ({tb:.2f} s): {places(psb)}; "
                  f"at {t:.2f} s: {places(ps)}: learned on the attacker (dpid {me}) while known on the victim; "
                  f"at the last read ({tl:.2f} s): {places(psl)}")


def stack_check(change: dict, victim_dpid: int, me: Optional[int], src: str = "") -> Optional[tuple]:
    """(fooled, evidence) from a stack controller's stack state over the case (Faucet:
    ``faucet_view.stack_change``): fooled when a stack port of the victim or the attacker that
    no link reaches (not in ``change["cabled"]``) came up during it: only the attacker's LLDP
    got there. A cabled port coming up is the stack working (its peer's beacons cross the
    emulated link). None (not applicable) when neither has a stack port (LLDP is read on stack
    ports only)."""
    mine = {k: v for k, v in change["states"].items() if k[0] in (victim_dpid, me)}
    if not mine:
        return None
    cabled = {tuple(k) for k in change.get("cabled", ())}
    up = [k for k in change["came_up"] if k[0] in (victim_dpid, me) and tuple(k) not in cabled]
    name = lambda x: "absent" if x is None else STACK_STATES.get(x, str(x))  # noqa: E731
    states = ", ".join(f"{d}:{p} {name(x)} → {name(y)}" + (" (cabled)" if (d, p) in cabled else "")
                       for (d, p), (x, y) in mine.items())
    text = (f"{src}stack ports {states}; stack probes received +{change['probes']}, "
            f"cabling errors +{change['cabling_errors']}")
    if up:
        return True, f"{src}stack port(s) {', '.join(f'{d}:{p}' for d, p in up)} came up with no link behind them; " \
            + text[len(src):]
    return False, text


def judge(obs: Optional[Observation], loops: Loops, *, alive: bool, disconnects: int = 0,
          drop: float = DROP, hung_ms: float = HUNG_MS, view: Optional[dict] = None,
          victim_dpid: int = 1, ctl_cpu: Optional[tuple] = None, listen_queue: Optional[dict] = None,
          no_view: Optional[str] = None, waits: Optional[dict] = None) -> Verdict:
    """The verdict of one case run (see the module doc). ``listen_queue``: the change of the
    root namespace's TcpExt listen counters over a SYN flood's run (evidence only). ``no_view``:
    why a view case cannot be judged for this controller (it serves no view we read)."""
    if obs is None:
        return Verdict("?", "crashed" if not alive else "hung", "the run produced no observation")
    case = obs.case
    ph = phases(loops, obs.started_s, obs.ended_s, ctl_cpu, waits)
    pd, rates, seen = asdict(ph), _service(ph, listen_queue), _seen(obs)
    if not alive:
        return Verdict(case, "crashed", f"controller gone after the case; {rates}", pd)
    if not ph.before:
        return Verdict(case, "unmeasured", f"the background was never answered before the case (no baseline); "
                       f"{seen}; {rates}", pd)
    if ph.ctl_cpu_before is not None and ph.ctl_cpu_before >= STARVED_CPU:
        return Verdict(case, "unmeasured", f"starved baseline: the controller used {ph.ctl_cpu_before:.0f}% of a core "
                       f"before the case (≥ {STARVED_CPU:.0f}%): no spare capacity to show a change against; "
                       f"{seen}; {rates}", pd)
    seen_view = view_check(case, obs.attacker_dpid, view, victim_dpid)
    if seen_view and seen_view[0] is None:   # a view, but it cannot show this case (the reason)
        no_view, seen_view = seen_view[1], None
    starved = engine_starved(ph)
    if starved:
        if seen_view and seen_view[0]:   # the view does not rest on the background
            return Verdict(case, "fooled", f"{seen_view[1]}; {seen}; {rates}; {starved}", pd)
        return Verdict(case, "unmeasured", f"the load generator was starved ({starved}); {seen}; {rates}", pd)
    if ph.longest_silence_ms >= hung_ms:
        return Verdict(case, "hung", f"no answers for {ph.longest_silence_ms:.0f} ms; {seen}; {rates}", pd)
    if seen_view and seen_view[0]:
        return Verdict(case, "fooled", f"{seen_view[1]}; {seen}; {rates}", pd)
    if seen_view:
        seen = f"{seen_view[1]}; {seen}"
    if disconnects:
        return Verdict(case, "degraded", f"{disconnects} background session(s) lost; {rates}", pd)
    if obs.syn_sent and obs.handshake_ms is None:
        return Verdict(case, "degraded", f"a new switch could not connect during the SYN flood ({seen}); {rates}", pd)
    changed = service_changed(ph, drop)
    if changed:
        return Verdict(case, "degraded", f"{changed.text()}; {seen}; {rates}", pd, test=changed.to_dict())
    if case in VIEW_CASES and not seen_view:
        return Verdict(case, "not applicable", f"{no_view or 'no topology or host view to read'}; {seen}; {rates}", pd)
    if obs.errors or obs.closed_by_controller:
        return Verdict(case, "rejected", f"{seen}; {rates}", pd)
    return Verdict(case, "ignored", f"{seen}; {rates}", pd)


def _service(ph: Phases, listen_queue: Optional[dict]) -> str:
    """The background's service before → during → after, in words (every verdict's evidence)."""
    rates = f"background {_r(ph.before)} → {_r(ph.during)} → {_r(ph.after)} answered/s"
    if ph.longest_silence_ms:
        rates += f" (longest silence {ph.longest_silence_ms:.0f} ms)"
    if ph.lat_n_before or ph.lat_n_during or ph.lat_n_after:
        rates += (f"; latency p50 {_ms(ph.lat_p50_before)} → {_ms(ph.lat_p50_during)} → {_ms(ph.lat_p50_after)} ms, "
                  f"p99 {_ms(ph.lat_p99_before)} → {_ms(ph.lat_p99_during)} → {_ms(ph.lat_p99_after)} ms")
    if ph.engine_late_ms_before is not None:
        late = " → ".join("-" if x is None else f"{x:,.1f}" for x in
                          (ph.engine_late_ms_before, ph.engine_late_ms_during, ph.engine_late_ms_after))
        rates += f"; engine loop clock late ≤ {late} ms"
    if ph.run_wait_ms:
        rates += "; longest run-queue wait in a loop (summed over its threads) " + ", ".join(
            f"{label} " + " → ".join("-" if x is None else f"{x:,.1f}" for x in w.values())
            for label, w in ph.run_wait_ms.items()) + " ms"
    if ph.ctl_cpu_before is not None:
        rates += f"; controller CPU {_r(ph.ctl_cpu_before)}% → {_r(ph.ctl_cpu_during)}% → {_r(ph.ctl_cpu_after)}%"
    if listen_queue:
        rates += "; " + syn_defence(listen_queue)
    return rates


# The root namespace's TcpExt counters over a SYN flood (netns.NETSTAT_KEYS): what the
# controller's listen queue dropped, and what the kernel answered with SYN cookies instead.
QUEUE_DROPS = ("ListenOverflows", "ListenDrops", "TCPReqQFullDrop")
COOKIES = ("SyncookiesSent", "TCPReqQFullDoCookies")


def syn_defence(listen_queue: dict) -> str:
    """The listen-queue drops and the kernel's SYN cookies side by side, and which one decided
    what the flood did to the controller: cookies sent mean the kernel answered the SYNs the
    controller's queue had no room for, so an unchanged service is the kernel's doing."""
    drops = sum(listen_queue.get(k, 0) for k in QUEUE_DROPS)
    cookies = listen_queue.get("SyncookiesSent", 0)
    side = lambda keys: ", ".join(f"{k} +{listen_queue.get(k, 0):,}" for k in keys)  # noqa: E731
    who = ("decided by the kernel's SYN cookies (the controller's listen queue was full; cookies answered the rest)"
           if cookies else "decided by the controller's listen queue (it dropped SYNs; no cookies)" if drops
           else "decided by the controller's listen queue (no drop, no cookie: it kept up)")
    return f"listen queue drops: {side(QUEUE_DROPS)}; kernel SYN cookies: {side(COOKIES)}; {who}"


def _r(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:,.0f}"


def _ms(us: Optional[float]) -> str:
    """µs as ms, to 0.01 ms."""
    return "-" if us is None else f"{us / 1000.0:,.2f}"


def idle_growth(idle: Idle, span_s: float = 0.0) -> str:
    """What stopped a connection flood's growth (engine ``robustness.idle``), in words; "" for a
    single idle connection or an engine that did not grow it. ``span_s``: the case's window."""
    why = idle.stopped_by
    if not why or idle.limit <= 1:
        return ""
    rate = f": {idle.opened / span_s:,.0f}/s taken, none refused" if span_s > 0 else ""
    return " (" + {"refused": f"grown until the controller took no more: {idle.refusal}",
                   "files": f"stopped by the engine's open files: {idle.files_room:,} free",
                   "window": f"stopped by the end of the case's {span_s:.1f} s window{rate}",
                   "count": f"the cap of {idle.limit:,} reached"}.get(why, why) + ")"


def _seen(obs: Observation) -> str:
    """What the attacker saw, in a few words."""
    bits = []
    if obs.connect_error:
        bits.append(f"connect failed: {obs.connect_error}")
    errs = obs.errors
    if errs:
        names = sorted({e.name for e in errs})
        bits.append(f"error {', '.join(names)}" + (f" ×{len(errs)}" if len(errs) > 1 else ""))
    closed = obs.closed_by_controller
    if closed:
        bits.append(f"session {'closed' if closed[0] == 'eof' else 'reset'} after "
                    f"{(closed[1] - obs.started_s) * 1000:.0f} ms")
    span = obs.ended_s - obs.started_s
    idle = obs.idle
    if idle:
        bits.append(f"idle conns {idle.opened:,} opened{idle_growth(idle, span)}, "
                    f"{idle.closed_by_controller:,} closed by controller")
    if obs.flood_sent:
        bits.append(f"flood {obs.flood_sent:,} packet-ins" + (f" ({obs.flood_sent / span:,.0f}/s over {span:.1f} s)"
                                                            if span > 0 else ""))
    if obs.syn_sent or obs.syn_refused:
        bits.append(f"{obs.syn_sent:,} SYNs sent" + (f" ({obs.syn_refused:,} refused)" if obs.syn_refused else "")
                    + (f"; new switch's handshake {obs.handshake_ms:.1f} ms" if obs.handshake_ms is not None else ""))
    # the names of the message types it got (the map's keys), not fields of the document
    back = {k: n for k, n in obs.received.items()
            if k not in ("hello", "features_request", "echo_reply", "echo_request", "error")}
    if back:
        bits.append("got " + ", ".join(f"{k} {n:,}" for k, n in sorted(back.items(), key=lambda x: -x[1])[:3]))
    if obs.probe_answered is not None:
        bits.append("probe echo answered" if obs.probe_answered else "probe echo unanswered")
    return "; ".join(bits) or "nothing back"
