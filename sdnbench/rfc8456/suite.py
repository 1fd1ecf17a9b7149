"""The whole RFC 8456 evaluation as data: every test, its campaign cell, its trials per profile.

``sdnbench rfc8456`` turns this table into a scenario (``scenario_for``): one benchmark per test
and controller, each cell one trial, run by the campaign runner into the results store, so the
evaluation is resumable (``sdnbench run --resume RUN``) and every finished trial is kept.

Profiles: ``quick`` (3 trials, small sizes, one trial of one repetition per DoS case: minutes,
for CI), ``default`` (5 trials: under an hour
per controller here) and ``full`` (the RFC's 10 trials per test, §4.7, with the RFC's poll interval
of 3 s for discovery).

Each test states every size it runs at, also where it equals today's default of the per-test
command: the evaluation's parameters are part of its protocol (RFC 8456 §4.8 reports them), so a
changed command default must not silently change a published evaluation. Today the default
profile's load sizes are those defaults, and ``test_suite`` fails when one moves away, so that
either side changes by decision.

A test whose app role (``roles``) the controller does not have is listed with the reason,
never silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..controllers.spec import display_name, parse_spec
from . import discovery_size, exception_handling, failover_trial, reprovisioning_trial
from . import figures as fig
from .roles import RoleSpec, for_role, of_version, traffic

PROFILES = ("quick", "default", "full")
TRIALS = {"quick": 3, "default": 5, "full": 10}
DOS_TRIALS = {"quick": 1, "default": 5, "full": 10}    # a quick DoS trial is one flood against one launch


@dataclass(frozen=True)
class Test:
    """One RFC 8456 test, the one place that says everything about it: the suite plans it from
    this record (``plan``, ``scenario_for``), the campaign runs its ``kind``, the report reads its
    figures, traffic text and trial detail (``evaluation``, ``evaluation_report``)."""
    slug: str                  # the benchmark name in the scenario (prefixed by the controller)
    sections: str              # "5.1.1", "5.1.4/5.1.6"
    title: str
    kind: str                  # campaign kind
    role: str                  # roles.ROLES
    params: dict               # the same in every profile
    profile: dict = field(default_factory=dict)    # profile -> params over ``params``
    trials: Optional[dict] = None                  # profile -> trials (default TRIALS)
    of: bool = True            # pass the controller's OpenFlow version
    packet_ins: bool = False   # the engine sends packet-ins: the controller's traffic profile goes too (roles.traffic)
    figures: tuple = ()        # figures.Figure: what one trial's Result reports, with its direction
    traffic: str = ""          # §4.8 "test traffic": what the emulator sends
    detail_of: Callable = field(default=fig.no_detail, compare=False)   # a trial's own words
    limit_of: Optional[Callable] = field(default=None, compare=False)   # it hit the test's own limit
    # seconds one quick trial took, the slower of os-ken's learning switch and ovs-testcontroller
    # (`sdnbench rfc8456 --controller osken:learning --controller ovs-testcontroller --quick` on 2 cores
    # shared with compiles, 2026-11-27), rounded up: the estimate printed first
    quick_s: float = 10.0
    # what one cell of its kind runs, for the kinds that dispatch by test (the others have one trial):
    # - ``rfc8456`` (``suite_cell``): ``trial(cell params, self.params) -> Result``; ``cell``, the keys
    #   a cell takes with each key's rule (a dataclass of ``paramcheck.param``; an optional
    #   ``problems(params, defaults)`` judges the whole cell);
    # - ``resilience`` (``resilience_cell``): ``trial(cell, rep) -> Result``, ``cell`` its typed parameters.
    trial: Optional[Callable] = field(default=None, compare=False)
    cell: Optional[type] = None

    def params_for(self, profile: str) -> dict:
        return {**self.params, **self.profile.get(profile, {})}

    def trials_for(self, profile: str) -> int:
        return (self.trials or TRIALS)[profile]

    def detail(self, r) -> str:
        """A trial's words beside its figures: why it failed, or its verdict, sizes and losses."""
        if r is None:
            return ""
        return f"failed: {r.error}" if r.status != "ok" else self.detail_of(r)

    def at_limit(self, r) -> bool:
        """The trial reached the test's own limit, not the controller's: its figure is a lower bound."""
        return r is not None and r.status == "ok" and self.limit_of is not None and self.limit_of(r)


TESTS = (
    Test("discovery", "5.1.1", "Topology Discovery Time", "discovery", "topology",
         {"test": "discovery", "topo": "ring,10", "poll_s": 1.0, "deadline_s": 60.0},
         {"quick": {"topo": "ring,6", "poll_s": 0.5, "deadline_s": 30.0}, "full": {"poll_s": 3.0}},
         figures=fig.DISCOVERY, quick_s=3,
         traffic="LLDP probes of the controller, answered by the emulated switches"),
    Test("async-time", "5.1.2", "Asynchronous Message Processing Time", "controller", "forwarding",
         {"mode": "latency", "switches": 16, "macs": 1000, "loops": 10, "loop_ms": 1000, "warmup": 1},
         {"quick": {"switches": 4, "loops": 2, "loop_ms": 500, "warmup": 0}},
         figures=fig.APT, quick_s=3, packet_ins=True,
         traffic="packet-ins in series, one outstanding per switch (cbench latency mode), 1000 MACs per switch",
         detail_of=fig.async_detail),
    Test("async-rate", "5.1.3", "Asynchronous Message Processing Rate", "controller", "forwarding",
         {"mode": "throughput", "switches": 16, "macs": 1000, "loops": 10, "loop_ms": 1000, "warmup": 1},
         {"quick": {"switches": 4, "loops": 2, "loop_ms": 500, "warmup": 0}},
         figures=fig.APR, quick_s=3, packet_ins=True,
         traffic="packet-ins at the maximum rate from all switches (cbench throughput mode), 1000 MACs per switch",
         detail_of=fig.async_detail),
    Test("reactive", "5.1.4/5.1.6", "Reactive Path Provisioning Time and Rate", "provisioning", "forwarding",
         {"test": "reactive", "topo": "linear,4", "flows": 100},
         {"quick": {"topo": "linear,2", "flows": 20, "timeout_ms": 500}, "full": {"flows": 200}},
         figures=fig.TIME_RATE, quick_s=3,
         traffic="new flows between the farthest hosts (one frame each, announced by ARP first)",
         detail_of=fig.provisioning_detail),
    Test("proactive", "5.1.5/5.1.7", "Proactive Path Provisioning Time and Rate", "provisioning", "proactive",
         {"test": "proactive", "topo": "linear,4", "flows": 100},
         {"quick": {"topo": "linear,2", "flows": 10, "announce_ms": 300}},
         figures=fig.TIME_RATE, quick_s=3,
         traffic="new flows between the farthest hosts, paths pushed through the northbound API",
         detail_of=fig.provisioning_detail),
    Test("topology-change", "5.1.8", "Topology Change Detection Time", "discovery", "topology",
         {"test": "topology-change", "topo": "ring,10", "poll_s": 0.25, "down_at_s": 5.0, "up_after_s": 5.0},
         {"quick": {"topo": "ring,6", "down_at_s": 3.0, "up_after_s": 3.0}},
         figures=fig.CHANGE, quick_s=9,
         traffic="LLDP probes; one link taken down, then up"),
    Test("sessions", "5.2.1", "Control Sessions Capacity", "controller", "forwarding",
         {"mode": "capacity", "switches": 1000, "hold_ms": 2000, "loops": 1},
         {"quick": {"switches": 200, "hold_ms": 300}, "full": {"switches": 4000}},
         figures=fig.SESSIONS, quick_s=11, packet_ins=True,
         traffic="HELLO + FEATURES handshakes, then echo keep-alives, until the controller stops accepting",
         detail_of=fig.sessions_detail, limit_of=fig.sessions_at_limit),
    Test("discovery-size", "5.2.2", "Network Discovery Size", "rfc8456", "topology",
         {"test": "discovery-size", "topo": "linear,8", "max_switches": 256, "poll_s": 1.0, "deadline_s": 60.0},
         {"quick": {"topo": "linear,4", "max_switches": 16, "poll_s": 0.5, "deadline_s": 20.0},
          "full": {"max_switches": 2000, "poll_s": 3.0}},
         {"quick": 1, "default": 1, "full": 3},
         figures=fig.SIZE, quick_s=7,
         traffic="LLDP probes; the topology doubled until discovery fails, then bisected",
         detail_of=fig.size_detail, limit_of=fig.size_at_limit,
         trial=discovery_size.trial, cell=discovery_size.Params),
    Test("table-capacity", "5.2.3", "Forwarding Table Capacity", "provisioning", "forwarding",
         {"test": "table-capacity", "topo": "linear,2", "flows": 2000, "concurrency": 8, "table_size": 1000},
         {"quick": {"flows": 50, "table_size": 20}},
         figures=fig.ENTRIES, quick_s=2,
         traffic="unique source/destination pairs until the emulated table is full",
         detail_of=fig.provisioning_detail),
    Test("exceptions", "5.3.1", "Exception Handling", "rfc8456", "forwarding",
         {"test": "exceptions", "switches": 4, "loops": 5, "loop_ms": 1000, "warmup": 1},
         {"quick": {"loops": 2, "loop_ms": 500, "warmup": 0}},
         figures=fig.EXCEPTIONS, quick_s=6, packet_ins=True,
         traffic="throughput-mode packet-ins, clean, then 1 % and 2 % with a wrong OpenFlow version",
         detail_of=fig.exceptions_detail, trial=exception_handling.trial, cell=exception_handling.Params),
    Test("dos-connection-flood", "5.3.2", "DoS Handling: connection flood", "robustness", "forwarding",
         {"case": "connection-flood", "switches": 4}, {"quick": {"reps": 1}}, DOS_TRIALS,
         figures=fig.DOS, quick_s=36,
         traffic="legitimate packet-ins at a fixed rate while idle TCP connections flood the port",
         detail_of=fig.dos_detail),
    Test("dos-packet-in-flood", "5.3.2", "DoS Handling: packet-in flood", "robustness", "forwarding",
         {"case": "packet-in-flood", "switches": 4}, {"quick": {"reps": 1}}, DOS_TRIALS,
         figures=fig.DOS, quick_s=8,
         traffic="legitimate packet-ins at a fixed rate while one switch floods packet-ins",
         detail_of=fig.dos_detail),
    Test("dos-syn-flood", "5.3.2", "DoS Handling: TCP SYN flood", "robustness", "forwarding",
         {"case": "syn-flood", "switches": 4}, {"quick": {"reps": 1}}, DOS_TRIALS,
         figures=fig.DOS, quick_s=8,
         traffic="legitimate packet-ins at a fixed rate while a TCP SYN flood hits the southbound port",
         detail_of=fig.dos_detail),
    Test("failover", "5.4.1", "Controller Failover Time", "resilience", "takeover",
         {"test": "failover", "topo": "linear,3"},
         {"quick": {"warmup_ms": 1500, "fail_after_ms": 500, "after_ms": 1200}}, of=False,
         figures=fig.FAILOVER, quick_s=5,
         traffic="sequenced frames and new flows between the farthest hosts while the master is killed",
         detail_of=fig.stream_detail, trial=failover_trial.trial, cell=failover_trial.Failover),
    Test("reprovisioning", "5.4.2", "Network Re-provisioning Time", "resilience", "reroute",
         {"test": "reprovisioning", "topo": "ring,6"},
         {"quick": {"warmup_ms": 1500, "fail_after_ms": 500, "after_ms": 500}},
         figures=fig.REPROVISIONING, quick_s=4,
         traffic="sequenced frames both ways over a ring while a link on the path fails",
         detail_of=fig.stream_detail, trial=reprovisioning_trial.reprovisioning_trial,
         cell=reprovisioning_trial.Reprovisioning),
)

BY_SLUG = {t.slug: t for t in TESTS}


def estimate_s(planned: list, profile: str) -> Optional[float]:
    """Seconds the planned trials should take, from each test's ``quick_s``; None outside the quick profile
    (nothing measured there yet)."""
    if profile != "quick":
        return None
    return sum(p.test.quick_s * p.test.trials_for(profile) for p in planned if p.spec is not None)


@dataclass(frozen=True)
class Planned:
    test: Test
    controller: str            # the spec as given (the report's column)
    spec: Optional[str]        # the app the test runs, None when it cannot apply
    reason: str = ""

    @property
    def benchmark(self) -> str:
        return f"{self.test.slug}@{label(self.controller)}"


def label(spec: str) -> str:
    """A controller's column name: its name= (cmd:) or its spec."""
    return display_name(spec)


# The campaign kinds whose trials carry TLS to their switches (the engine's: ``engine.runner``);
# over TLS (``rfc8456 --tls``, a ``;tls`` spec) the other tests are listed with this reason.
TLS_KINDS = ("controller",)
NOT_OVER_TLS = "not over TLS: its trial ({kind}) does not run over TLS yet (docs/tls.md, which commands do)"


def plan(controllers: list, only: Optional[list] = None, api: Optional[list] = None) -> list:
    """Every (test, controller), with the app it runs or why it cannot apply; ``api``:
    [adapter, base URL] for controllers without a known topology app (``roles.for_role``)."""
    out = []
    for t in TESTS:
        if only and t.slug not in only and t.sections not in only:
            continue
        for c in controllers:
            r = for_role(c, t.role, api)
            if r.spec is not None and parse_spec(c).tls and t.kind not in TLS_KINDS:
                r = RoleSpec(r.role, None, NOT_OVER_TLS.format(kind=t.kind))
            out.append(Planned(t, c, r.spec, r.reason))
    return out


def scenario_for(controllers: list, profile: str = "default", only: Optional[list] = None,
                 seed: int = 8456, api: Optional[list] = None) -> dict:
    """The scenario document (``sdnbench.campaign.scenario`` format) of the evaluation: the
    tests that apply (``not_applicable`` gives the others, from the same inputs)."""
    benches = []
    for p in plan(controllers, only, api):
        if p.spec is None:
            continue
        params = {**p.test.params_for(profile), "controller": p.spec}
        if p.test.role in ("topology", "proactive") and p.spec == p.controller and api:
            params.update(api=api[0], api_url=api[1])       # the view read, or the flows pushed, through --api
        if p.test.of and "of_version" not in params:
            params["of_version"] = of_version(p.spec)
        if p.test.packet_ins:
            params.update(traffic(p.spec))
        benches.append({"name": p.benchmark, "kind": p.test.kind,
                        "description": f"RFC 8456 §{p.test.sections} {p.test.title}: {label(p.controller)}",
                        "params": params, "repetitions": p.test.trials_for(profile)})
    return {"name": f"rfc8456-{profile}", "description": "RFC 8456 evaluation of " +
            ", ".join(label(c) for c in controllers) + f" ({profile} profile)",
            "seed": seed, "order": "sequential", "warmup": 0, "pause": 0, "benchmarks": benches}


def not_applicable(controllers: list, only: Optional[list] = None, api: Optional[list] = None) -> list:
    return [p for p in plan(controllers, only, api) if p.spec is None]
