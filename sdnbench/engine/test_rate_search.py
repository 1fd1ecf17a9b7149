"""``controller search``'s Result, assembled beside the search (``rate_search.py``): every trial a
row of the series in trial order, the two rates and the markers as counters, and a trial's params
as the resolved ones with only the mode and rate changed."""

from sdnbench.engine.rate_search import search_result, trial_params
from sdnbench.engine.search import SearchResult, Trial
from sdnbench.engine.stored import RateSearchCounters


def test_the_search_is_one_result_of_its_trials():
    trials = [Trial(offered=900, apr=900, loss=0.0, sent=900, marker="max", unstable="maximum load (closed loop)"),
              Trial(offered=900, apr=880, loss=0.01, sent=900, lost=9),
              Trial(offered=800, apr=800, loss=0.0, sent=800, marker="loss-free")]
    res = SearchResult(trials=trials, max_rate=900, loss_free_rate=800, stopped="")
    r = search_result(res, {"switches": 2, "window": 9, "step": "10%"}, {"name": "ctl"}, "0.1.0")
    assert (r.kind, r.benchmark, r.status, r.controller) == ("controller", "rate-search", "ok", {"name": "ctl"})
    assert r.params == {"switches": 2, "window": 9, "step": "10%"}
    assert r.find("search_offered")[0].values == [900, 900, 800]
    assert r.find("search_lost")[0].values == [0, 9, 0]
    assert (r.counters["max_rate"], r.counters["loss_free_rate"], r.counters["trials"]) == (900, 800, 3)
    assert r.counters["markers"] == ["max", "", "loss-free"] and r.versions["sdnbench-engine"] == "0.1.0"
    assert RateSearchCounters.problems(r.counters) == [] and RateSearchCounters.of(r).loss_free_rate == 800
    r = search_result(SearchResult(trials=trials[:1], stopped="trial budget (1) used up"), {}, {}, "x")
    assert r.notes == ["trial budget (1) used up"] and r.counters["max_rate"] is None


def test_a_trial_changes_only_the_mode_and_the_rate():
    p = {"switches": 2, "window": 9, "mode": "throughput", "rate": 10000.0}
    assert trial_params(p, None) == p
    assert trial_params(p, 500.0) == dict(p, mode="fixed-rate", rate=500.0)
    assert p["mode"] == "throughput", "the resolved params are left as they are"
