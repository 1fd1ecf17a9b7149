"""Engine parameters: checking and flag mapping (pure)."""

import pytest

from sdnbench.errors import UserError
from sdnbench.engine.params import check, engine_args


def test_defaults_and_flags():
    p = check({"switches": "4", "loops": 2, "learn": False, "strict": True, "source_addrs": ["127.0.0.2"]})
    assert p["controller"] == "osken:learning" and p["mode"] == "throughput" and p["of_version"] == "1.3"
    a = engine_args(p, "127.0.0.1:6653")
    assert a[:6] == ["--controller", "127.0.0.1:6653", "--mode", "throughput", "--of", "1.3"]
    assert "--no-learn" in a and "--strict" in a
    assert a[a.index("--switches") + 1] == "4"
    assert a[a.index("--source-addrs") + 1] == "127.0.0.2"


def test_campaign_bookkeeping_keys_are_accepted():
    check({"switches": 1, "rep": 2, "name": "x"})


@pytest.mark.parametrize("bad", [
    {"mode": "fast"}, {"of_version": "1.5"}, {"switches": 0}, {"switches": "many"},
    {"mode": "fixed-rate"}, {"mode": "fixed-rate", "rate": -1}, {"learn": "yes"}, {"bogus": 1},
    {"switches": True}, {"source_addrs": "127.0.0.2"}, {"links": "mesh"},
])
def test_bad_params_are_user_errors(bad):
    with pytest.raises(UserError):
        check(bad)


def test_rate_is_passed_for_fixed_rate():
    a = engine_args(check({"mode": "fixed-rate", "rate": 5000}), "h:1")
    assert a[a.index("--rate") + 1] == "5000.0"


def test_links_flag():
    assert engine_args(check({"links": "linear"}), "h:1")[-2:] == ["--links", "linear"]
    assert "--links" not in engine_args(check({}), "h:1")
