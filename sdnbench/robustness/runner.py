"""Run robustness cases against one controller: a managed one (launched, watched by PID,
restarted after a crash or hang) or a ``tcp:`` one (watched by its port). One engine run per
case and repetition; the verdict and everything it rests on go into that run's Result, so
nothing measured is lost when a later case goes wrong.

Repetitions (issue 31): each repetition runs every case against a fresh launch of a managed
controller (the reuse rule: within a repetition the cases share one launch, waiting until it is
idle between cases and restarting it after a crash or hang). A ``tcp:`` controller cannot be
relaunched from here: its repetitions share the one process. The OpenFlow version is negotiated
once per launch (``version.py``)."""

from __future__ import annotations

import contextlib
import os
import time
from typing import Callable, Iterable, Iterator, Optional

from ..controllers import launch
from ..controllers.faucet_config import chain, faucet_config_for
from ..controllers.resources import snapshot, tree_cpu_percent
from ..controllers.spec import display_name
from ..engine import driver
from ..engine.convert import to_result
from ..engine.params import check, config, engine_args, engine_resolved, launch_of_version, launch_spec
from ..engine.result_check import as_json
from ..engine.result_types import EngineResult
from ..errors import EngineDocumentError
from ..result import Result
from . import cases as case_list
from . import faucet_view, netns, version
from .verdicts import DROP, HUNG_MS, VICTIM_HOST_MAC, VIEW_CASES, Verdict, judge

# The background load: a fixed offered rate well below what the controllers sustain here, so
# its answered rate is steady and a drop is the case's doing. Timeline (loops of 250 ms): two
# warm-up loops, 4 loops before the case, the case window (2 s, 8 loops), 8 loops after: the
# samples of the significance tests (change.py).
BACKGROUND = {"mode": "fixed-rate", "rate": 1000.0, "switches": 4, "macs": 100, "loops": 20,
              "loop_ms": 250, "warmup": 2}
AT_MS = 1500
OBSERVE_MS = 2000
# The connection flood's window (issue 31): long enough that the flood grows until the
# controller refuses a connection or the engine's limits stop it (16,384 connections, or its
# open files, 20,000 here), not until the window ends: 16,384 at 700 connections/s, below the
# slowest rate at which a controller here took them all (os-ken, 812/s). The background runs
# that much longer (the loops after the window stay 8), so the case takes about 27 s.
WINDOW_MS = {"connection-flood": 24_000}
# The cases that need a network namespace (``netns.py``), and their default SYN rate (SYNs/s).
SYN_CASES = ("syn-flood",)
SYN_RATE = 5000
# Placeholder namespace for checking a SYN case's parameters before anything is created.
_SYN_CHECK = {"netns": "/run/netns/-", "ifname": "-", "dst_mac": "02:00:00:00:00:00", "src_net": "10.233.1.0/24"}

# Faucet learns a new host per background request (the ``faucet`` traffic profile), and on
# the stacked ``faucet:auto`` of a robustness run each learn costs it about 3 ms of CPU: at
# 200/s it used 50-65% of a core before the case and 75-86% after it, whatever the case (its
# host table grows all run), and 1 ``fabricated-lldp`` in 4 then read its latency median doubled
# by saturation alone. 100/s keeps it at 30-40% before and under 60% after (docs/robustness.md).
FAUCET_RATE = 100.0


def background_rate(spec: str) -> float:
    """The default background rate for ``spec``: ``FAUCET_RATE`` for Faucet, else 1,000/s."""
    return FAUCET_RATE if spec.startswith("faucet:") else BACKGROUND["rate"]


def case_params(spec: str, case: str, of_version: Optional[str], background: dict, seed: int = 1,
                syn_rate: int = SYN_RATE) -> dict:
    p = dict(BACKGROUND, rate=background_rate(spec))
    p.update({k: v for k, v in background.items() if v is not None}, controller=spec, of_version=of_version)
    window = WINDOW_MS.get(case, OBSERVE_MS)
    if window != OBSERVE_MS and "loops" not in background:
        p["loops"] = BACKGROUND["loops"] + (window - OBSERVE_MS) // BACKGROUND["loop_ms"]
    p["robustness"] = {"case": case, "at_ms": AT_MS, "observe_ms": window, "seed": seed}
    if case in SYN_CASES:
        p["robustness"]["syn"] = dict(_SYN_CHECK, rate=int(syn_rate))
    return p


def faucet_stack(p: dict) -> tuple:
    """The stack ``faucet:auto`` gets in a robustness run: (datapath ids, ports 1..n of each,
    stack links). The background switches and the attacker are one Faucet stack, chained in
    datapath order (``faucet_config.chain``: each one's port n+2 to the next one's port n+1),
    the first datapath (the victim) its root. The engine's switches send their packet-ins from
    ports 1..n in turn, so the stack ports are two more, which no load traffic comes from."""
    c = engine_resolved(config(p, "127.0.0.1:6653"))
    first, n, ports = int(c["first_dpid"]), int(c["switches"]), int(c["ports"])
    dpids = list(range(first, first + n + 1))
    return dpids, ports, chain(dpids, ports + 1, ports + 2)


def faucet_stacked_spec(p: dict) -> str:
    """``faucet:auto`` for a robustness run: Faucet configured for the background switches and
    the attacker (as ``engine.params.launch_spec``: ports 1..n, one VLAN, no host limit) and
    stacked (``faucet_stack``), so that the two view cases are judged on Faucet's stack."""
    dpids, ports, links = faucet_stack(p)
    return "faucet:" + str(faucet_config_for(dpids, ports=range(1, ports + 3), max_hosts=0, stack=links))


def stack_cabling(p: dict) -> tuple:
    """The engine's side of ``faucet:auto``'s stack: (links, cabled ports). Every stack link is
    an emulated link (``links`` in the engine's config: Faucet's LLDP beacon, sent out of one
    end, arrives at the other and runs that switch's flow table, whose stack LLDP flow raises
    it to Faucet as Open vSwitch would: its cookie, reason ACTION), and the switches keep
    Faucet's flows (``keep_flows``). The attacker is no background switch: no session receives
    what is sent towards it, and its own stack port is reached by nothing but what it forges,
    so the cabled ports are the ends of the links between background switches."""
    dpids, _, links = faucet_stack(p)
    attacker = dpids[-1]
    cabled = sorted({(d, q) for a, pa, b, pb in links if attacker not in (a, b) for d, q in ((a, pa), (b, pb))})
    return [list(ln) for ln in links], cabled


class _Managed:
    """The controller under test, (re)launched on demand."""

    def __init__(self, p: dict):
        """``p``: a case's checked params (``faucet:auto`` is configured for its switches and
        attacker, stacked: ``faucet_stacked_spec``)."""
        self.spec = faucet_stacked_spec(p) if p["controller"] == "faucet:auto" else launch_spec(p)
        self.of_version = launch_of_version(p)
        self.stack: Optional[contextlib.ExitStack] = None
        self.ctl = None
        self.restarts = 0

    def start(self):
        self.stack = contextlib.ExitStack()
        self.ctl = self.stack.enter_context(launch(self.spec, of_version=self.of_version))
        return self.ctl

    def stop(self, dead: bool = False) -> str:
        """Stop it; for a dead one, return its last log lines (the crash evidence)."""
        tail = ""
        if dead and self.ctl is not None:
            err = self.ctl.died_error("died during the case")   # marks the death as reported
            tail = getattr(err, "tail", "")
        if self.stack is not None:
            self.stack.close()
        self.stack, self.ctl = None, None
        return tail

    def restart(self, dead: bool) -> str:
        tail = self.stop(dead)
        self.restarts += 1
        self.start()
        return tail


# Before each case a managed controller must be idle again: a case that queued work in it (a
# flood's packet-ins still being processed) would otherwise be charged to the next case (seen:
# Faucet at 100% CPU for seconds after a packet-in flood, so the next case had no baseline).
QUIET_CPU = 25.0        # % of one core, over QUIET_SAMPLE_S, twice in a row
QUIET_SAMPLE_S = 0.25
QUIET_TIMEOUT_S = 60.0


def wait_quiet(pid: Optional[int], sample=None, timeout_s: float = QUIET_TIMEOUT_S) -> Optional[float]:
    """Wait until the controller's process tree uses less than ``QUIET_CPU`` % (two samples in
    a row); return how long that took in s, ``None`` for a controller without a PID (``tcp:``),
    or ``-timeout_s`` when it never went quiet. ``sample(pid) -> cpu %`` is injectable (tests)."""
    if not pid:
        return None
    sample = sample or _cpu_over_sample
    t0, calm = time.monotonic(), 0
    while time.monotonic() - t0 < timeout_s:
        calm = calm + 1 if sample(pid) < QUIET_CPU else 0
        if calm >= 2:
            return round(time.monotonic() - t0, 2)
    return -timeout_s


def _cpu_over_sample(pid: int) -> float:
    a, ta = snapshot(pid), time.monotonic()
    time.sleep(QUIET_SAMPLE_S)
    return tree_cpu_percent(a, ta, snapshot(pid), time.monotonic())


def topology_view(ctl) -> Optional[dict]:
    """The controller's topology/host view, for controllers that serve one (osken:topology)."""
    url = ctl.api_url
    if not url:
        return None
    import json
    import urllib.request
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/v1/topology" if not url.endswith("/topology") else url,
                                    timeout=3) as f:
            return json.loads(f.read())
    except (OSError, ValueError):
        return None


def controller_cpu(res: EngineResult) -> Optional[tuple]:
    """(t_s, cpu_percent) of the controller as the engine sampled it (managed controllers)."""
    for proc in res.resources.processes:
        if proc.label == "controller":
            return res.resources.t_s, proc.cpu_percent
    return None


def run_queue_waits(res: EngineResult) -> dict:
    """{"engine"|"controller": (t_s, run-queue delay ms per loop)}, as the engine sampled them."""
    return {proc.label: (res.resources.t_s, proc.run_delay_ms) for proc in res.resources.processes
            if proc.label in ("engine", "controller")}


def run_one(ctl, p: dict) -> tuple:
    """One engine run of the case in ``p``: (engine document or None, message)."""
    cfg = config(p, ctl.target)
    if p["controller"] == "faucet:auto":
        cfg["links"], cfg["keep_flows"] = stack_cabling(p)[0], True
    if ctl.pid:
        cfg["controller_pid"] = ctl.pid
    try:
        return driver.run(engine_args(p), config=cfg, timeout=120), ""
    except Exception as e:  # noqa: BLE001 - an engine that cannot run is evidence, kept
        if isinstance(e, (driver.EngineInterrupted, EngineDocumentError)):
            raise                   # not the controller's doing: an interruption, or a bug
        return None, str(e).splitlines()[0] if str(e) else type(e).__name__


@contextlib.contextmanager
def syn_source(p: dict) -> Iterator[dict]:
    """For a SYN case: the namespace its SYNs come from, for the engine run in the block; yields
    what it saw (the listen-queue counters' change, anything left behind). Else nothing."""
    seen: dict = {}
    if p["robustness"]["case"] not in SYN_CASES:
        yield seen
        return
    with netns.syn_namespace() as net:
        p["robustness"]["syn"] = net.spec(p["robustness"]["syn"]["rate"])
        before = netns.read_netstat()
        yield seen
        seen["listen_queue"] = netns.delta(before, netns.read_netstat())
    seen["left_behind"] = netns.leftovers(net)


def metrics_view(before: Optional[dict], views: list, cabled: Iterable = ()) -> Optional[dict]:
    """Faucet's view over a case (``faucet_view``, read every 0.25 s while the case ran: it
    forgets a datapath's hosts when the datapath disconnects): every place it put a host, and
    what its stack state did since ``before`` (read just before the case), and where it had the
    victim's host at each read (``host_reads``: a hijack is a move only if Faucet knew the host
    on the victim before it placed it on the attacker, ``verdicts.host_move_check``). ``cabled``:
    the stack ports an emulated link reaches (``stack_cabling``): their coming up is the stack
    working, not the attacker's doing."""
    seen = faucet_view.merged(views)
    if seen is None:
        return None
    dpids = {d for d, _ in seen["stack"]["ports"]} | {d for d, _ in ((before or {}).get("stack") or {}).get("ports", {})}
    return {"source": f"Faucet's Prometheus (learned_l2_port, port_stack_state; {len(views)} reads)",
            "hosts": seen["hosts"], "host_reads": faucet_view.host_reads(views, VICTIM_HOST_MAC),
            "stack_change": dict(faucet_view.stack_change(before, seen, dpids), cabled=sorted(tuple(k) for k in cabled))}


def no_view_reason(spec: str, label: str, metrics: bool = False) -> str:
    """Why the two view cases cannot be judged for a controller that serves no view we read."""
    if metrics or spec.startswith("faucet:"):
        return (f"{label} reads LLDP on stack ports only, and its configuration stacks none of the victim's or "
                "the attacker's ports (faucet:auto stacks them)")
    return (f"{label} serves no topology or host view sdnbench reads: being fooled cannot be observed "
            "(an L2 learning switch re-learns a moved host's port by design; LLDP it does not read)")


def run_cases(spec: str, cases: list, *, of_version: Optional[str] = None, background: Optional[dict] = None,
              drop: float = DROP, hung_ms: float = HUNG_MS, syn_rate: int = SYN_RATE, reps: int = 1,
              on_case: Callable[[Result, Verdict], None] = lambda r, v: None) -> list:
    """Every case against ``spec``, ``reps`` times (a fresh launch per repetition); returns
    [(Result, Verdict)] in run order and calls ``on_case`` after each. ``of_version`` None:
    negotiated per launch (``version.py``); a forced one the controller cannot speak is a
    UserError naming --of."""
    out: list = []
    with CaseRun(spec, cases, of_version=of_version, background=background, drop=drop, hung_ms=hung_ms,
                 syn_rate=syn_rate, reps=reps) as run:
        for rep, case in run.plan():
            out.append(run.one(rep, case))
            on_case(*out[-1])
    return out


class CaseRun:
    """``run_cases`` one case at a time, as ``controller robustness`` keeps each as it ends:
    ``with CaseRun(spec, cases, ...) as run: for rep, case in run.plan(): run.one(rep, case)``.
    Bad input fails at construction, before anything is launched; the block's end stops the
    controller."""

    def __init__(self, spec: str, cases: list, *, of_version: Optional[str] = None,
                 background: Optional[dict] = None, drop: float = DROP, hung_ms: float = HUNG_MS,
                 syn_rate: int = SYN_RATE, reps: int = 1):
        self.spec, self.cases, self.of_version, self.reps = spec, list(cases), of_version, reps
        self.background, self.drop, self.hung_ms, self.syn_rate = background or {}, drop, hung_ms, syn_rate
        for c in cases:  # bad input fails before anything is launched
            check(self._params(c, of_version))
        if any(c in SYN_CASES for c in cases):
            netns.preflight()
        self.m = _Managed(check(self._params(cases[0], of_version))) if cases else None
        self.label, self.gone = display_name(spec), False
        self.catalogue = {c["name"]: c for c in case_list.catalogue()}
        self._rep, self._of = None, None

    def _params(self, case: str, of: Optional[str]) -> dict:
        return case_params(self.spec, case, of, self.background, syn_rate=self.syn_rate)

    def __enter__(self) -> "CaseRun":
        return self

    def __exit__(self, *exc) -> None:
        if self.m is not None:
            self.m.stop()

    def plan(self) -> Iterator[tuple]:
        """(repetition, case) in run order, until a ``tcp:`` controller is gone (it cannot be
        restarted from here)."""
        for rep in range(self.reps):
            for c in self.cases:
                if self.gone:
                    return
                yield rep, c

    def one(self, rep: int, case: str) -> tuple:
        """(Result, Verdict) of ``case`` in repetition ``rep``; a new repetition gets a fresh launch
        of a managed controller (a ``tcp:`` one's process is kept) and negotiates again."""
        m = self.m
        if rep != self._rep:
            if self._rep is not None and m.ctl is not None and m.ctl.pid:
                m.stop()      # the next repetition gets a fresh launch
            ctl = m.ctl or m.start()
            self._rep, self._of = rep, version.session_version(ctl.host, ctl.port, self.of_version, self.label)
        why = version.needs(self.catalogue.get(case, {}), self._of)
        p = self._params(case, self._of) if why else check(self._params(case, self._of))
        p["rep"] = rep
        r, v = _not_applicable(p, case, why, m.ctl) if why else _run_case(m, p, self.drop, self.hung_ms, self.label)
        self.gone = v.verdict == "crashed" and not m.ctl.pid
        return r, v


def _not_applicable(p: dict, case: str, why: str, ctl) -> tuple:
    """A case that cannot run at the negotiated version: no engine run, the reason kept."""
    v = Verdict(case, "not applicable", why)
    r = Result(kind="controller", benchmark="robustness", params=p, controller=dict(ctl.info))
    r.counters["robustness"] = v.to_dict()
    r.counters["robustness_verdict"] = v.verdict
    r.finish("ok")
    return r, v


def _run_case(m: "_Managed", p: dict, drop: float, hung_ms: float, label: str) -> tuple:
    """One engine run of one case against the running controller ``m.ctl`` (restarted after a
    crash or hang): (Result, Verdict)."""
    ctl, c = m.ctl, p["robustness"]["case"]
    quiet_s = wait_quiet(ctl.pid)
    load0 = os.getloadavg()[0]
    cpu0 = round(_cpu_over_sample(ctl.pid), 1) if ctl.pid else None   # the controller idle, just before
    metrics = ctl.info.get("metrics") if c in VIEW_CASES else None
    before = faucet_view.read(metrics) if metrics else None
    with syn_source(p) as syn_seen, (faucet_view.Watch(metrics) if metrics else contextlib.nullcontext()) as watch:
        doc, why = run_one(ctl, p)
    alive = ctl.alive()
    load = [round(load0, 2), round(os.getloadavg()[0], 2)]
    cabled = stack_cabling(p)[1] if p["controller"] == "faucet:auto" else []
    view = (metrics_view(before, watch.views, cabled) if metrics else topology_view(ctl)) if c in VIEW_CASES and alive else None
    no_view = no_view_reason(p["controller"], label, bool(metrics)) if not (ctl.api_url or metrics) or \
        (metrics and view) else f"{label}'s view at {ctl.api_url or metrics} could not be read after the case"
    res = None if doc is None else EngineResult.from_json(doc)
    if res is None:
        v = Verdict(c, "crashed" if not alive else "hung", f"engine run failed: {why}")
        r = Result(kind="controller", benchmark="robustness", params=p, status="failed", error=why)
    else:
        v = judge(res.robustness, res.loops, alive=alive,
                  disconnects=len(res.disconnects), drop=drop, hung_ms=hung_ms,
                  view=view, victim_dpid=p.get("first_dpid", 1), ctl_cpu=controller_cpu(res),
                  listen_queue=syn_seen.get("listen_queue"), no_view=no_view, waits=run_queue_waits(res))
        r = to_result(res, p)
        r.benchmark = "robustness"
    r.controller = dict(ctl.info)
    if v.verdict in ("crashed", "hung") and ctl.pid:
        tail = m.restart(dead=not alive)
        v.restarted = True
        if tail:
            r.notes.append("controller log before restart:\n" + tail)
    # the machine's 1-minute load average before and after, and the controller's CPU just before:
    # a verdict on a busy shared machine is read with them (docs/robustness.md)
    v.evidence += f"; load average {load[0]:.1f} → {load[1]:.1f} ({os.cpu_count()} CPUs)"
    if cpu0 is not None:
        v.evidence += f"; controller {cpu0:.0f}% of a core just before the case"
    if quiet_s is not None and abs(quiet_s) >= 1.0:
        v.evidence += (f"; controller busy for {quiet_s:.1f} s before the case (the previous one's work)"
                       if quiet_s > 0 else f"; controller never went quiet before the case ({-quiet_s:.0f} s)")
    r.counters["robustness"] = dict(v.to_dict(), observation=as_json(res.robustness) if res else None, loadavg=load,
                                    quiet_wait_s=quiet_s, cpu_before_case=cpu0, **syn_seen)
    if syn_seen.get("left_behind"):
        r.notes.append("syn-flood: could not remove " + ", ".join(syn_seen["left_behind"]))
    r.counters["robustness_verdict"] = v.verdict
    r.finish(r.status, r.error)
    return r, v
