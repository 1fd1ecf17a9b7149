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

import dataclasses
from dataclasses import dataclass, field
from typing import Optional

from ..controllers.spec import display_name
from .roles import for_role, of_version, traffic

PROFILES = ("quick", "default", "full")
TRIALS = {"quick": 3, "default": 5, "full": 10}
DOS_TRIALS = {"quick": 1, "default": 5, "full": 10}    # a quick DoS trial is one flood against one launch


@dataclass(frozen=True)
class Test:
    slug: str                  # the benchmark name in the scenario (prefixed by the controller)
    sections: str              # "5.1.1", "5.1.4/5.1.6"
    title: str
    kind: str                  # campaign kind
    role: str                  # roles.ROLES
    params: dict               # the same in every profile
    profile: dict = field(default_factory=dict)    # profile -> params over ``params``
    trials: Optional[dict] = None                  # profile -> trials (default TRIALS)
    of: bool = True            # pass the controller's OpenFlow version
    quick_s: float = 10.0      # seconds a quick trial takes (QUICK_S), for the estimate printed first

    def params_for(self, profile: str) -> dict:
        return {**self.params, **self.profile.get(profile, {})}

    def trials_for(self, profile: str) -> int:
        return (self.trials or TRIALS)[profile]


TESTS = (
    Test("discovery", "5.1.1", "Topology Discovery Time", "discovery", "topology",
         {"test": "discovery", "topo": "ring,10", "poll_s": 1.0, "deadline_s": 60.0},
         {"quick": {"topo": "ring,6", "poll_s": 0.5, "deadline_s": 30.0}, "full": {"poll_s": 3.0}}),
    Test("async-time", "5.1.2", "Asynchronous Message Processing Time", "controller", "forwarding",
         {"mode": "latency", "switches": 16, "macs": 1000, "loops": 10, "loop_ms": 1000, "warmup": 1},
         {"quick": {"switches": 4, "loops": 2, "loop_ms": 500, "warmup": 0}}),
    Test("async-rate", "5.1.3", "Asynchronous Message Processing Rate", "controller", "forwarding",
         {"mode": "throughput", "switches": 16, "macs": 1000, "loops": 10, "loop_ms": 1000, "warmup": 1},
         {"quick": {"switches": 4, "loops": 2, "loop_ms": 500, "warmup": 0}}),
    Test("reactive", "5.1.4/5.1.6", "Reactive Path Provisioning Time and Rate", "provisioning", "forwarding",
         {"test": "reactive", "topo": "linear,4", "flows": 100},
         {"quick": {"topo": "linear,2", "flows": 20, "timeout_ms": 500}, "full": {"flows": 200}}),
    Test("proactive", "5.1.5/5.1.7", "Proactive Path Provisioning Time and Rate", "provisioning", "proactive",
         {"test": "proactive", "topo": "linear,4", "flows": 100},
         {"quick": {"topo": "linear,2", "flows": 10, "announce_ms": 300}}),
    Test("topology-change", "5.1.8", "Topology Change Detection Time", "discovery", "topology",
         {"test": "topology-change", "topo": "ring,10", "poll_s": 0.25, "down_at_s": 5.0, "up_after_s": 5.0},
         {"quick": {"topo": "ring,6", "down_at_s": 3.0, "up_after_s": 3.0}}),
    Test("sessions", "5.2.1", "Control Sessions Capacity", "controller", "forwarding",
         {"mode": "capacity", "switches": 1000, "hold_ms": 2000, "loops": 1},
         {"quick": {"switches": 200, "hold_ms": 300}, "full": {"switches": 4000}}),
    Test("discovery-size", "5.2.2", "Network Discovery Size", "rfc8456", "topology",
         {"test": "discovery-size", "topo": "linear,8", "max_switches": 256, "poll_s": 1.0, "deadline_s": 60.0},
         {"quick": {"topo": "linear,4", "max_switches": 16, "poll_s": 0.5, "deadline_s": 20.0},
          "full": {"max_switches": 2000, "poll_s": 3.0}},
         {"quick": 1, "default": 1, "full": 3}),
    Test("table-capacity", "5.2.3", "Forwarding Table Capacity", "provisioning", "forwarding",
         {"test": "table-capacity", "topo": "linear,2", "flows": 2000, "concurrency": 8, "table_size": 1000},
         {"quick": {"flows": 50, "table_size": 20}}),
    Test("exceptions", "5.3.1", "Exception Handling", "rfc8456", "forwarding",
         {"test": "exceptions", "switches": 4, "loops": 5, "loop_ms": 1000, "warmup": 1},
         {"quick": {"loops": 2, "loop_ms": 500, "warmup": 0}}),
    Test("dos-connection-flood", "5.3.2", "DoS Handling: connection flood", "robustness", "forwarding",
         {"case": "connection-flood", "switches": 4}, {"quick": {"reps": 1}}, DOS_TRIALS),
    Test("dos-packet-in-flood", "5.3.2", "DoS Handling: packet-in flood", "robustness", "forwarding",
         {"case": "packet-in-flood", "switches": 4}, {"quick": {"reps": 1}}, DOS_TRIALS),
    Test("dos-syn-flood", "5.3.2", "DoS Handling: TCP SYN flood", "robustness", "forwarding",
         {"case": "syn-flood", "switches": 4}, {"quick": {"reps": 1}}, DOS_TRIALS),
    Test("failover", "5.4.1", "Controller Failover Time", "resilience", "takeover",
         {"test": "failover", "topo": "linear,3"},
         {"quick": {"warmup_ms": 1500, "fail_after_ms": 500, "after_ms": 1200}}, of=False),
    Test("reprovisioning", "5.4.2", "Network Re-provisioning Time", "resilience", "reroute",
         {"test": "reprovisioning", "topo": "ring,6"},
         {"quick": {"warmup_ms": 1500, "fail_after_ms": 500, "after_ms": 500}}),
)
# Seconds one quick trial took per test, the slower of os-ken's learning switch and
# ovs-testcontroller (`sdnbench rfc8456 --controller osken:learning --controller ovs-testcontroller
# --quick`, 2 cores shared with compiles, 2026-11-27: 24 trials in 2 min 43 s), rounded up.
QUICK_S = {"discovery": 3, "async-time": 3, "async-rate": 3, "reactive": 3, "proactive": 3, "topology-change": 9,
           "sessions": 11, "discovery-size": 7, "table-capacity": 2, "exceptions": 6, "dos-connection-flood": 36,
           "dos-packet-in-flood": 8, "dos-syn-flood": 8, "failover": 5, "reprovisioning": 4}
TESTS = tuple(dataclasses.replace(t, quick_s=QUICK_S[t.slug]) for t in TESTS)
BY_SLUG = {t.slug: t for t in TESTS}


def estimate_s(planned: list, profile: str) -> Optional[float]:
    """Seconds the planned trials should take, from ``QUICK_S``; None outside the quick profile
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


def plan(controllers: list, only: Optional[list] = None, api: Optional[list] = None) -> list:
    """Every (test, controller), with the app it runs or why it cannot apply; ``api``:
    [adapter, base URL] for controllers without a known topology app (``roles.for_role``)."""
    out = []
    for t in TESTS:
        if only and t.slug not in only and t.sections not in only:
            continue
        for c in controllers:
            r = for_role(c, t.role, api)
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
        if p.test.role == "topology" and p.spec == p.controller and api:
            params.update(api=api[0], api_url=api[1])       # the view read through --api
        if p.test.of and "of_version" not in params:
            params["of_version"] = of_version(p.spec)
        if p.test.kind == "controller" or p.test.slug == "exceptions":
            params.update(traffic(p.spec))
        benches.append({"name": p.benchmark, "kind": p.test.kind,
                        "description": f"RFC 8456 §{p.test.sections} {p.test.title}: {label(p.controller)}",
                        "params": params, "repetitions": p.test.trials_for(profile)})
    return {"name": f"rfc8456-{profile}", "description": "RFC 8456 evaluation of " +
            ", ".join(label(c) for c in controllers) + f" ({profile} profile)",
            "seed": seed, "order": "sequential", "warmup": 0, "pause": 0, "benchmarks": benches}


def not_applicable(controllers: list, only: Optional[list] = None, api: Optional[list] = None) -> list:
    return [p for p in plan(controllers, only, api) if p.spec is None]
