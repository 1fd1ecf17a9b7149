"""Synthetic results for the report's unit tests (pure report logic only: real runs are tested
by the scenario integration tests). Seeded, so every test sees the same numbers."""

from __future__ import annotations

import random

import pytest

from sdnbench.report.model import RunData
from sdnbench.result import Result, Series

SIZES = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
CONTROLLER = {"spec": "osken:learning", "name": "os-ken", "version": "4.0.0", "app": "learning",
              "of_version": "1.3"}


def campus_run(label: str = "mininet", switches: int = 4, reps: int = 3, base: float = 2.0,
               seed: int = 1) -> RunData:
    """Ping RTTs per switch and packet size, one result per repetition (campus study)."""
    rng = random.Random(seed)
    results = []
    for rep in range(reps):
        r = Result(kind="net", benchmark="ping", params={"rep": rep, "count": 5},
                   controller=dict(CONTROLLER),
                   topology={"spec": f"star,{switches},2", "switches": switches,
                             "hosts": 2 * switches, "links": 3 * switches - 1})
        for sw in range(1, switches + 1):
            for size in SIZES:
                mean = base + size / 2000 + sw * 0.05
                r.add("rtt", "ms", [rng.gauss(mean, 0.1) for _ in range(5)], size=size,
                      switch=f"s{sw}", src=f"h{sw}x1", dst="h1x1")
        r.add("tcp_throughput", "Mbit/s", [rng.gauss(900, 20) for _ in range(3)], switch="s1")
        results.append(r.finish())
    return RunData(id=f"run-{label}", label=label, results=results, meta={"scenario": "campus"})


def controller_run(label: str = "engine", controllers=("osken:learning", "ryu:simple_switch"),
                   switch_counts=(1, 2, 4, 8), reps: int = 5, seed: int = 2) -> RunData:
    """Engine throughput, latency and session capacity per controller (controller study)."""
    rng = random.Random(seed)
    results = []
    for ci, spec in enumerate(controllers):
        ctl = dict(CONTROLLER, spec=spec, name=spec.split(":")[0])
        for n in switch_counts:
            for rep in range(reps):
                r = Result(kind="controller", benchmark="throughput", controller=ctl,
                           params={"mode": "throughput", "switches": n, "macs": 1000, "rep": rep})
                peak = 40000 * (1 + ci) * (1 - abs(n - 4) / 16)
                r.add("throughput", "flows/s", [rng.gauss(peak, 800) for _ in range(4)])
                t = [i * 0.5 for i in range(8)]
                r.resources.append(Series("cpu_percent", "%", [rng.uniform(50, 100) for _ in t], {}, t))
                r.resources.append(Series("rss_bytes", "B", [6e7 + i * 1e5 for i in range(8)], {}, t))
                results.append(r.finish())
                lat = Result(kind="controller", benchmark="latency", controller=ctl,
                             params={"mode": "latency", "switches": n, "macs": 1000, "rep": rep})
                lat.add("latency", "us", [rng.lognormvariate(3 + ci, 0.3) for _ in range(50)])
                results.append(lat.finish())
        for rep in range(reps):
            cap = Result(kind="controller", benchmark="capacity", controller=ctl,
                         params={"mode": "capacity", "rep": rep})
            cap.add("sessions", "switches", [1000 + 17 * ci + rng.choice([0, 0, 1])])
            results.append(cap.finish())
    return RunData(id=f"run-{label}", label=label, results=results,
                   meta={"scenario": "controller-benchmark"})


@pytest.fixture
def campus():
    return campus_run()


@pytest.fixture
def campus_pair():
    return [campus_run("mininet", seed=1), campus_run("prototype", base=3.0, seed=3)]


@pytest.fixture
def controllers():
    return controller_run()
