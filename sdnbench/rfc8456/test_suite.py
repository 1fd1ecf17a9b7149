"""The suite's plan: which app runs which test, why a test cannot apply, the generated scenario."""

import pytest

from sdnbench.campaign import scenario as scenario_mod
from sdnbench.campaign.plan import plan as campaign_plan
from sdnbench.commands.rfc8456 import scenario_text
from sdnbench.engine.params import engine_defaults
from sdnbench.errors import UserError
from sdnbench.rfc8456 import roles, suite
from sdnbench.rfc8456.evaluation import parse_header
from sdnbench.robustness import exceptions_trial

POX = "cmd:python3 pox.py openflow.of_01 --port={port} forwarding.l2_learning;of=1.0;name=pox"


def test_osken_runs_its_sibling_apps_for_the_tests_a_learning_switch_cannot_do():
    got = {p.test.slug: p.spec for p in suite.plan(["osken:learning"])}
    assert got["discovery"] == got["topology-change"] == got["discovery-size"] == "osken:topology"
    assert got["proactive"] == "osken:flowpush"
    assert got["failover"] == "osken:takeover" and got["reprovisioning"] == "osken:reroute"
    assert got["async-rate"] == got["sessions"] == got["exceptions"] == "osken:learning"


def test_a_test_that_cannot_apply_says_why():
    na = {p.test.slug: p.reason for p in suite.not_applicable(["ryu:simple_switch_13", POX])
          if p.controller == "ryu:simple_switch_13"}
    assert set(na) == {"failover", "reprovisioning"}
    assert na["failover"].startswith("single instance only")
    pox = {p.test.slug: p.reason for p in suite.not_applicable([POX])}
    assert set(pox) == {"discovery", "topology-change", "discovery-size", "proactive", "failover", "reprovisioning"}
    assert "no northbound API" in pox["discovery"] and "no proactive" in pox["proactive"]
    assert "known for pox " in pox["discovery"]          # named by its name=, not its command line


def test_the_openflow_version_is_what_the_controller_speaks():
    assert roles.of_version("osken:learning") == "1.3"
    assert roles.of_version("ryu:simple_switch") == "1.0"
    assert roles.of_version(POX) == "1.0"
    assert roles.of_version("tcp:127.0.0.1:6653") == "1.3"


def test_a_cmd_controller_is_labelled_by_its_name():
    assert suite.label(POX) == "pox"
    assert suite.Planned(suite.BY_SLUG["sessions"], POX, POX).benchmark == "sessions@pox"


@pytest.mark.parametrize("profile,trials", [("quick", 3), ("default", 5), ("full", 10)])
def test_the_generated_scenario_validates_and_has_the_profiles_trials(profile, trials):
    text = scenario_text(["osken:learning", "ryu:simple_switch_13"], profile, None)
    sc = scenario_mod.parse(text, "rfc8456")           # every cell parameter checked by its kind
    assert parse_header(sc.text) == {"controllers": ["osken:learning", "ryu:simple_switch_13"],
                                     "profile": profile, "only": None}
    reps = {b.name: b.repetitions for b in sc.benchmarks}
    assert reps["async-rate@osken:learning"] == trials
    assert reps["discovery-size@osken:learning"] == {"quick": 1, "default": 1, "full": 3}[profile]
    assert "failover@ryu:simple_switch_13" not in reps and "failover@osken:learning" in reps
    assert len(campaign_plan(sc, 0)) == sum(reps.values())
    params = {b.name: b.params for b in sc.benchmarks}
    assert params["async-rate@ryu:simple_switch_13"]["of_version"] == "1.3"
    assert params["discovery@ryu:simple_switch_13"]["controller"] == "ryu:rest_topology"


def test_only_picks_tests_by_name_or_section_and_every_test_has_figures():
    got = {p.test.slug for p in suite.plan(["osken:learning"], ["sessions", "5.4.1"])}
    assert got == {"sessions", "failover"}
    assert all(t.figures and t.traffic for t in suite.TESTS)
    with pytest.raises(UserError, match="no test applies"):
        scenario_text([POX], "quick", ["failover"])


def test_quick_is_smaller_than_default_and_full_asks_the_rfcs_poll():
    q, d, f = (suite.BY_SLUG["discovery"].params_for(p) for p in ("quick", "default", "full"))
    assert q["topo"] == "ring,6" and d["topo"] == "ring,10" and f["poll_s"] == 3.0
    assert suite.BY_SLUG["sessions"].params_for("full")["switches"] == 4000


def test_the_default_profile_states_todays_command_defaults():
    """The suite states its sizes (they are its protocol); a command default that moves away from
    them fails here, so either side changes by decision."""
    engine = engine_defaults()
    for slug in ("async-time", "async-rate"):
        p = suite.BY_SLUG[slug].params_for("default")
        stated = {k: v for k, v in p.items() if k in engine and k != "mode"}
        assert stated and stated == {k: engine[k] for k in stated}, slug
    p = suite.BY_SLUG["exceptions"].params_for("default")
    assert {k: p[k] for k in p if k in exceptions_trial.DEFAULTS} == \
        {k: v for k, v in exceptions_trial.DEFAULTS.items() if k in p}


def test_api_gives_a_controller_without_a_topology_app_its_discovery_tests():
    tcp, api = "tcp:127.0.0.1:6653", ["floodlight", "http://127.0.0.1:8080"]
    assert {p.test.slug for p in suite.not_applicable([tcp])} >= {"discovery", "topology-change", "discovery-size"}
    na = {p.test.slug for p in suite.not_applicable([tcp], api=api)}
    assert na == {"failover", "reprovisioning"}       # floodlight: its flow pusher runs the proactive tests
    text = scenario_text([tcp], "quick", ["discovery", "discovery-size"], api)
    sc = scenario_mod.parse(text, "rfc8456")
    assert parse_header(sc.text)["api"] == api
    for b in sc.benchmarks:
        assert (b.params["controller"], b.params["api"], b.params["api_url"]) == (tcp, *api)
    osken = scenario_mod.parse(scenario_text(["osken:learning"], "quick", ["discovery"], api), "x")
    assert "api" not in osken.benchmarks[0].params       # its own topology app, its own API


def test_the_quick_estimate_sums_each_planned_trials_measured_time_and_skips_what_cannot_run():
    planned = suite.plan(["osken:learning", "ovs-testcontroller"])
    runs = [p for p in planned if p.spec is not None]
    assert len(runs) < len(planned)          # ovs-testcontroller has no topology view: not counted
    assert suite.estimate_s(planned, "quick") == sum(p.test.quick_s * p.test.trials_for("quick")
                                                    for p in runs)
    assert suite.estimate_s(planned, "default") is None
    assert all(t.quick_s > 0 for t in suite.TESTS)


def test_a_controller_reached_by_address_with_a_flow_push_api_runs_the_proactive_tests_through_it():
    """Issue 41: Floodlight's static flow pusher (and ONOS's flow API) is one registry entry
    (``flow_push.FLOW_APIS``) that provisioning and the suite read: `rfc8456 --api floodlight`
    used to say "no proactive API is known"."""
    tcp = "tcp:127.0.0.1:6653"
    for api, applies in ((["floodlight", "http://127.0.0.1:8080"], True), (["onos", "http://127.0.0.1:8181"], True),
                         (["odl", "http://127.0.0.1:8181"], False)):
        planned = {p.test.slug: p for p in suite.plan([tcp], ["proactive"], api)}
        assert (planned["proactive"].spec == tcp) is applies, (api, planned["proactive"])
        doc = suite.scenario_for([tcp], "quick", ["proactive"], api=api)
        params = [b["params"] for b in doc["benchmarks"]]
        assert params == ([{**suite.BY_SLUG["proactive"].params_for("quick"), "controller": tcp, "api": api[0],
                            "api_url": api[1], "of_version": "1.3"}] if applies else [])


def test_the_packet_in_tests_carry_the_controller_s_traffic_profile(tmp_path):
    """Faucet takes only the packet-ins its pipeline raises: every test whose record says it
    sends packet-ins carries ``traffic: faucet``, no other does."""
    cfg = tmp_path / "faucet.yaml"
    cfg.write_text("dps: {}\n")
    benches = suite.scenario_for([f"faucet:{cfg}"], "quick")["benchmarks"]
    with_traffic = {b["name"].split("@")[0] for b in benches if b["params"].get("traffic") == "faucet"}
    assert with_traffic == {t.slug for t in suite.TESTS if t.packet_ins} == {
        "async-time", "async-rate", "sessions", "exceptions"}
