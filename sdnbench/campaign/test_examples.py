"""Every example scenario parses, validates and plans (what `sdnbench run --dry-run` does)."""

from pathlib import Path

import pytest

from sdnbench.campaign import scenario
from sdnbench.campaign.plan import plan

EXAMPLES = sorted((Path(__file__).parent / "examples").glob("*.yaml"))


def test_there_are_examples():
    assert EXAMPLES


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_parses_and_plans(path):
    sc = scenario.load(path)
    assert plan(sc, sc.seed or 0)
    quick = scenario.load(path, quick=True)
    assert len(plan(quick, 0)) <= len(plan(sc, 0))


def test_the_two_controller_campaign_has_30_cells():
    sc = scenario.load(Path(__file__).parent / "examples" / "controllers-2x3x5.yaml")
    cells = plan(sc, sc.seed)
    assert len(cells) == 2 * 3 * 5
    assert {c.params["controller"] for c in cells} == {"osken:learning", "ryu:simple_switch_13"}
    assert len(plan(scenario.load(Path(__file__).parent / "examples" / "controllers-2x3x5.yaml",
                                  quick=True), 0)) == 6
