"""The ``net`` kind's typed parameters (``NetParams``, one table of fields, defaults and rules):
the typed value a cell builds, and a bad scenario parameter as one line naming the key."""

import pytest

from sdnbench.campaign.scenario import ScenarioError, parse
from sdnbench.net.params import Ditg, NetParams, NetParamsError, Ping, build, check

SCENARIO = """name: n
benchmarks:
  - name: a
    kind: net
    params: {PARAMS}
"""


def test_a_cell_builds_its_typed_value_with_the_defaults_filled_in():
    t = build({"topo": "single,2", "reps": "3", "ping": {"count": 4}, "measurements": "udp,ping"})
    assert isinstance(t, NetParams) and isinstance(t.ping, Ping) and isinstance(t.ditg, Ditg)
    assert (t.topo, t.reps, t.ping.count, t.ping.interval, t.of) == ("single,2", 3, 4, 0.2, "1.0,1.3")
    assert t.measurements == ["ping", "udp"] and t.protocols == "OpenFlow10,OpenFlow13"
    assert t.ditg.sizes == [512] and t.udp.rate == "50M" and t.tcp.window is None
    # the typed value holds what the dict check returns, no more and no less
    p = check({"topo": "single,2"})
    assert {k: v for k, v in vars(build({"topo": "single,2"})).items() if k in p and k not in
            ("ping", "tcp", "udp", "ditg", "first_packet")} == {k: v for k, v in p.items() if not isinstance(v, dict)}


@pytest.mark.parametrize("params, key, said", [
    ("{topo: 'single,2', pingg: {count: 3}}", "pingg", "unknown parameter; known: topo, controller"),
    ("{topo: 'single,2', reps: many}", "reps", "expected a whole number, got 'many'"),
    ("{topo: 'single,2', ping: 5}", "ping", "expected a mapping of sizes, count, interval"),
    ("{topo: 'single,2', ping: {cnt: 3}}", "ping", "cnt: unknown field; known: sizes, count, interval"),
    ("{topo: 'single,2', datapath: fast}", "datapath", "expected one of auto, kernel, user, got 'fast'"),
])
def test_a_bad_scenario_parameter_is_one_line_naming_it(params, key, said):
    with pytest.raises(ScenarioError) as e:
        parse(SCENARIO.replace("{PARAMS}", params), "s.yaml")
    assert str(e.value).startswith(f"s.yaml:5: benchmarks[0].params.{key}: ") and said in str(e.value)
    assert "\n" not in str(e.value)


def test_an_unknown_field_of_a_section_is_refused_by_the_cell_check_too():
    with pytest.raises(NetParamsError, match=r"ping\.cnt: unknown field; known: sizes, count, interval"):
        build({"topo": "single,2", "ping": {"cnt": 3}})
