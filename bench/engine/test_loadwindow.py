"""The load window of `bench.py scale`: from the engine's go, not from the sessions being up.

At 1,000,000 sessions the go came about 30 s after 99.5% of the sessions were up (the held run
of 2026-11-29 10:00, docs/million.md), and the window then measured the idle gap."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import bench  # noqa: E402


def test_the_go_is_the_first_loop_line_less_a_loop_not_before_the_handshake():
    lines = [(0.4, "spreading sessions over 107 loopback source addresses\n"),
             (178.0, "handshake: 1000000/1000000 sessions up in 178.0 s (5,614/s)\n"),
             (212.3, "loop   1/20  answered 12,998/s  sent 13,005/s  lost 0  up 1000000/1000000\n"),
             (213.3, "loop   2/20  answered 12,998/s  sent 13,005/s  lost 0  up 1000000/1000000\n")]
    assert bench.engine_go_t(lines) == pytest.approx(211.3)
    assert bench.engine_go_t([(1.0, "handshake: 10/10 sessions up in 0.006 s\n"), (1.5, "loop   1/3 ...\n")]) == 1.0
    assert bench.engine_go_t(lines[:2]) is None
    assert bench.engine_go_t([(5.0, "loop  11/20 ...\n")]) is None


def _samples(up_at: float, go_at: float, end: float) -> list:
    """Every 0.5 s: all sessions up from `up_at`; the engine at 0.2 cores before the go, 1.0
    after; the responder at 0.5 and 0.9; RSS 4 GB, then 6 GB under the load."""
    out, cpu_e, cpu_r, t = [], 0.0, 0.0, 0.0
    while t <= end:
        loaded = t >= go_at
        out.append({"t": t, "up": 1000 if t >= up_at else int(1000 * t / up_at), "engine_cpu_s": cpu_e, "responder_cpu_s": cpu_r,
                    "machine_busy_s": cpu_e + cpu_r, "engine_rss": (6 if loaded else 4) << 30, "responder_rss": 1 << 30})
        cpu_e += 0.5 * (1.0 if loaded else 0.2)
        cpu_r += 0.5 * (0.9 if loaded else 0.5)
        t += 0.5
    return out


def test_the_window_follows_the_go_and_says_so():
    s = _samples(up_at=175.0, go_at=211.0, end=240.0)
    w = bench._load_window_cpu(s, 1000, 20, go_t=211.0)
    assert (w["from"], w["go_t_s"]) == ("go", 211.0)
    assert w["engine_cores"] == pytest.approx(1.0) and w["responder_cores"] == pytest.approx(0.9)
    assert w["engine_rss_mib"] == 6 * 1024
    # without the go, the old rule measures the gap before it, and says which rule it used
    old = bench._load_window_cpu(s, 1000, 20)
    assert old["from"] == "sessions up"
    assert old["engine_cores"] == pytest.approx(0.2) and old["engine_rss_mib"] == 4 * 1024


def test_a_window_the_sampler_missed_says_why():
    """At 1,000,000 the sampler read every ~5 s (the machine saturated), so a 10-loop run's 6 s
    window held one sample (2026-11-29 14:35, docs/million.md): it says so, not an empty {}."""
    s = [x for x in _samples(up_at=175.0, go_at=190.0, end=220.0) if x["t"] % 5 == 0]
    w = bench._load_window_cpu(s, 1000, 10, go_t=190.0)
    assert w["from"] == "go" and "engine_cores" not in w
    assert w["none"].startswith("1 samples from 192.0 to 198.0 s")
