"""The logic of ``controller tls-cost`` and ``rfc8456 --tls`` (pure; the measurement itself is
tested against a scripted TLS controller in ``sdnbench/commands/test_tls_cost.py``)."""

import pytest

from sdnbench.errors import UserError
from sdnbench.result import Result
from sdnbench.rfc8456.suite import plan as suite_plan
from sdnbench.tlscost import figures, plan


def test_the_tls_twin_of_a_spec_and_what_has_none():
    assert plan.tls_twin("osken:learning") == "osken:learning;tls"
    assert plan.tls_twin("ovs-testcontroller") == "ovs-testcontroller;tls"
    for bad, said in (("osken:learning;tls", "without ;tls"), ("tcp:127.0.0.1:6653", "tls:HOST:PORT")):
        with pytest.raises(UserError, match=said):
            plan.tls_twin(bad)


def test_abba_each_mode_back_to_back_the_order_alternating():
    assert plan.order(2, ["throughput", "capacity"]) == [
        (0, "throughput", "tcp"), (0, "throughput", "tls"), (0, "capacity", "tcp"), (0, "capacity", "tls"),
        (1, "throughput", "tls"), (1, "throughput", "tcp"), (1, "capacity", "tls"), (1, "capacity", "tcp")]
    assert plan.modes_of("latency,latency") == ["latency"]
    with pytest.raises(UserError, match="--modes: fast"):
        plan.modes_of("fast")


def _r(mode, transport, counters, thr=None, transport_doc=None, status="ok"):
    r = Result("controller", f"tls-cost-{mode}", params={"tls_cost_mode": mode, "tls_cost_transport": transport})
    if transport_doc:
        r.params.update(transport_doc)
    r.counters.update(counters)
    if thr:
        r.add("throughput", "flows/s", thr)
    r.status = status
    return r


def test_the_table_is_means_and_tls_over_tcp():
    rs = [_r("capacity", "tcp", {"capacity_held": 100, "capacity_establish_s": 0.5, "tlscost_engine_cpu_s": 0.01,
                                 "tlscost_controller_cpu_s": 0.05, "tlscost_controller_rss_delta_bytes": 1_000_000,
                                 "tlscost_engine_rss_peak_bytes": 2_000_000}),
          _r("capacity", "tls", {"capacity_held": 100, "capacity_establish_s": 2.0, "tlscost_engine_cpu_s": 0.04,
                                 "tlscost_controller_cpu_s": 0.20, "tlscost_controller_rss_delta_bytes": 3_000_000,
                                 "tlscost_engine_rss_peak_bytes": 2_000_000},
             transport_doc={"transport": "tls", "tls_version": "TLSv1_3", "tls_cipher_suite": "TLS13_AES_256_GCM_SHA384"}),
          _r("throughput", "tcp", {"requests_answered": 1000, "tlscost_engine_cpu_s": 0.1, "tlscost_controller_cpu_s": 1.0},
             thr=[900, 1100]),
          _r("throughput", "tls", {"requests_answered": 500, "tlscost_engine_cpu_s": 0.1, "tlscost_controller_cpu_s": 1.0},
             thr=[500, 500]),
          _r("throughput", "tls", {}, status="failed")]
    t = {(m, f): (a, b, q, n) for m, f, a, b, q, n in figures.table(rs)}
    assert t[("capacity", "setup_per_s")] == (200, 50, 0.25, 1)
    assert t[("capacity", "controller_cpu_us_per_session")] == pytest.approx((500, 2000, 4, 1))
    assert t[("capacity", "controller_bytes_per_session")] == (10_000, 30_000, 3, 1)
    assert t[("throughput", "answered_per_s")] == (1000, 500, 0.5, 1)
    assert t[("throughput", "engine_cpu_us_per_answered")] == pytest.approx((100, 200, 2, 1))
    assert figures.negotiated(rs)["tls"] == [("tls", "TLSv1_3", "TLS13_AES_256_GCM_SHA384")]


def test_rfc8456_over_tls_runs_the_engines_tests_and_says_why_not_the_others():
    p = suite_plan(["osken:learning;tls"])
    runs = sorted(x.test.slug for x in p if x.spec)
    assert runs == ["async-rate", "async-time", "sessions"]
    assert all(x.spec == "osken:learning;tls" for x in p if x.spec)
    assert all("not over TLS" in x.reason for x in p if not x.spec)
    assert len([x for x in suite_plan(["osken:learning"]) if x.spec]) > len(runs)
