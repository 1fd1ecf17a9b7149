"""The ``controller`` kind's typed parameters: the engine's Config (generated from its schema) and
the driver's keys; a bad scenario parameter is one line naming the key."""

from dataclasses import fields

import pytest

from sdnbench.campaign.scenario import ScenarioError, parse
from sdnbench.engine.controller_params import DRIVER_KEYS, ENGINE_KEYS, build, validate_param
from sdnbench.engine.params import PER_RUN, engine_defaults
from sdnbench.engine.result_types import Config
from sdnbench.errors import UserError

SCENARIO = """name: c
benchmarks:
  - name: a
    kind: controller
    params: {PARAMS}
"""


def test_the_keys_a_scenario_may_set_are_the_engine_s_config_fields():
    # the generated view and the engine agree: the engine's own default config has the same fields
    # (but a field it leaves out of what it writes at its default: `echo_every_ms`)
    left_out = {f.name for f in fields(Config) if f.metadata.get("omit_none")}
    assert set(engine_defaults()) | left_out == {f.name for f in fields(Config)}
    assert ENGINE_KEYS == (set(engine_defaults()) | left_out) - PER_RUN and "switches" in ENGINE_KEYS
    assert not ENGINE_KEYS & set(DRIVER_KEYS) - {"links"}       # `links`: a layout name here, a list there


def test_a_cell_builds_its_typed_value_resolved_by_the_engine():
    c = build({"switches": 4, "of_version": 1.3, "loops": 2, "rep": 0})
    assert (c.driver.of_version, c.driver.links, c.driver.controller) == ("1.3", "none", "osken:learning")
    assert (c.engine.switches, c.engine.loops, c.engine.mode) == (4, 2, "throughput")
    assert c.engine.window == engine_defaults()["window"]               # the engine's default, filled in
    assert c.params["switches"] == 4 and c.params["window"] == c.engine.window


@pytest.mark.parametrize("key, value, said", [
    ("swtiches", 4, "unknown parameter (did you mean switches?)"),
    ("controller_pid", 7, "unknown parameter"),                       # set by sdnbench for each run
    ("switches", "four", 'bad value "four"'),
    ("loops", True, "bad value"),
    ("of_version", 2.0, "must be 1.0 or 1.3, not 2.0"),
    ("links", "ring", "must be linear or none, not 'ring'"),
    ("controller", 5, "a controller spec is text"),
])
def test_a_bad_scenario_parameter_is_one_line_naming_it(key, value, said):
    msg = validate_param(key, value)
    assert msg and said in msg and "\n" not in msg and not msg.startswith(key)
    with pytest.raises(ScenarioError) as e:
        parse(SCENARIO.replace("{PARAMS}", f"{{{key}: {value!r}}}"), "s.yaml")
    assert str(e.value).startswith(f"s.yaml:5: benchmarks[0].params.{key}: ") and "\n" not in str(e.value)
    with pytest.raises(UserError, match=key):
        build({key: value})


def test_good_keys_pass():
    for key, value in [("switches", 16), ("mode", "latency"), ("links", "linear"), ("of_version", "1.0"),
                       ("name", "x"), ("rep", 3)]:
        assert validate_param(key, value) is None, key
