from .record import describe, mean_var, rfc_fields, to_result
from .stored import DiscoveryCounters


def _t(state, d=None, **kw):
    return {"state": state, "discovery_s": d, "verification": "northbound", "southbound": {"rfc_dt_s": d and d / 2}, **kw}


def test_mean_and_variance_over_successful_trials_only():
    assert mean_var([1.0, 2.0, 3.0]) == (2.0, 1.0)          # variance with n-1 (RFC 8456 §4.7)
    trials = [_t("complete", 1.0), _t("complete", 3.0), _t("incomplete", seen=3, want=4, missing=["1:2-2:1"])]
    f = rfc_fields({"name": "os-ken", "version": "4.2.2", "app": "topology"}, "ring,2", 2, 2, "northbound", "osken", None)
    r = to_result("topology-discovery", {}, trials, {}, f)
    assert r.status == "ok" and r.find("discovery_time")[0].values == [1.0, 3.0]
    c = DiscoveryCounters.of(r)
    assert (c.discovery_mean_s, c.discovery_variance_s2, c.trials_complete, c.trials_total) == (2.0, 2.0, 2, 3)
    assert DiscoveryCounters.problems(r.counters) == []
    assert r.notes == ["incomplete: 3 of 4 link directions (northbound); missing 1:2-2:1"]
    assert f["controller"] == "os-ken 4.2.2" and f["northbound"] == "osken" and f["nodes"] == 2


def test_no_successful_trial_fails_with_the_reason():
    r = to_result("topology-discovery", {}, [_t("timeout", seen=0, want=4, missing=[f"{i}:1-{i + 1}:2" for i in range(10)])], {},
                  rfc_fields({}, "ring,2", 2, 2, "northbound", None, "1.0"))
    assert r.status == "failed" and r.error.endswith("missing 0:1-1:2, 1:1-2:2, 2:1-3:2, 3:1-4:2, 4:1-5:2, 5:1-6:2, 6:1-7:2, 7:1-8:2 and 2 more")
    assert describe({"state": "failed", "note": "no switch connected to the controller"}) == "failed: no switch connected to the controller"
