"""Known answers for the RFC 8456 §5.1.3 rate search: the responder (crates/responder) throttled
to a known service rate R (a token bucket of depth 1: at most R answers/s, the rest queued) must
be read within 5%: the maximum from the closed-loop trials, the loss-free rate from open-loop
trials that are stable (``search.py``). And the case that fooled the old search: open loop 20%
above R, where the drain after the trial collects every queued answer (nothing lost), is not
stable, because the answers fell behind during the trial."""

import json
import subprocess
import sys

import pytest

from sdnbench.testing.engine_fixtures import responder, run_doc
from sdnbench.engine.convert import to_result
from sdnbench.engine.search import trial_from
from sdnbench.engine.stored import EngineCounters

pytestmark = pytest.mark.integration

RATE = 5000


def test_search_reads_a_known_service_rate_within_5_percent():
    with responder("1.0", extra=("--rate", str(RATE))) as addr:
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "search", "--controller", f"tcp:{addr}",
                             "--switches", "2", "--macs", "4", "--loops", "2", "--loop-ms", "500", "--step", "5%",
                             "--json"], capture_output=True, text=True, timeout=120)
    assert cp.returncode == 0, cp.stderr[-500:]
    c = json.loads(cp.stdout)[0]["counters"]
    assert abs(c["max_rate"] - RATE) <= 0.05 * RATE, c
    assert 0.95 * RATE <= c["loss_free_rate"] <= 1.01 * RATE, c
    stable = [m for m, why in zip(c["markers"], c["unstable"]) if not why]
    assert "loss-free" in stable, c


def test_open_loop_above_the_service_rate_is_not_stable_though_nothing_is_lost():
    offered = 1.2 * RATE
    with responder("1.0", extra=("--rate", str(RATE))) as addr:
        p = dict(mode="fixed-rate", rate=offered, switches=2, macs=4, learn=False, loops=2, loop_ms=500,
                 warmup=1, timeout_ms=10_000, adaptive_timeout=False)
        doc = run_doc(addr, **p)
    r = to_result(doc, dict(p, controller=f"tcp:{addr}"))
    t = trial_from(offered, EngineCounters.of(r), r.find("sent_rate")[0].values, r.find("throughput")[0].values)
    assert abs(t.sent - offered) <= 0.01 * offered, t
    assert abs(t.apr - RATE) <= 0.05 * RATE, t
    assert t.lost == 0, t
    assert not t.stable and "fell behind" in t.unstable, t
