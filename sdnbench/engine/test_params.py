"""Engine parameters: the driver's keys, the config the engine gets, and the engine's own check
(``sdnbench-engine check``) refusing bad values with the field named, one line."""

import pytest

from sdnbench.errors import UserError
from sdnbench.engine.params import check, config, engine_args, launch_of_version


def test_config_is_the_params_with_the_address():
    p = check({"switches": 4, "loops": 2, "learn": False, "strict": True, "source_addrs": ["127.0.0.2"]})
    assert p["controller"] == "osken:learning" and p["mode"] == "throughput"
    c = config(p, "127.0.0.1:6653")
    assert c["controllers"] == ["127.0.0.1:6653"] and "controller" not in c
    assert c["switches"] == 4 and c["learn"] is False and c["source_addrs"] == ["127.0.0.2"]


def test_versions_are_negotiated_unless_forced():
    p = check({})
    assert "versions" not in config(p, "h:1"), "the engine's default offers 1.0 and 1.3"
    assert launch_of_version(p) == "1.3"
    p = check({"of_version": "1.0"})
    assert config(p, "h:1")["versions"] == 2 and launch_of_version(p) == "1.0"


def test_campaign_bookkeeping_keys_are_accepted():
    assert "rep" not in config(check({"switches": 1, "rep": 2, "name": "x"}), "h:1")


@pytest.mark.parametrize("bad, named", [
    ({"mode": "fast"}, "mode"), ({"of_version": "1.5"}, "of_version"), ({"switches": 0}, "switches: 0"),
    ({"switches": "many"}, "switches"), ({"mode": "fixed-rate"}, "rate"),
    ({"mode": "fixed-rate", "rate": -1}, "rate"), ({"learn": "yes"}, "learn"), ({"bogus": 1}, "bogus"),
    ({"switches": True}, "switches"), ({"source_addrs": "127.0.0.2"}, "source_addrs"),
    ({"links": "mesh"}, "links"), ({"workers": 0}, "workers: 0"), ({"traffic": "x"}, "unique-pairs"),
])
def test_bad_params_are_one_line_user_errors_naming_the_field(bad, named):
    with pytest.raises(UserError) as e:
        check(bad)
    assert named in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_links_flag():
    assert engine_args(check({"links": "linear"})) == ["--links", "linear"]
    assert engine_args(check({})) == []
