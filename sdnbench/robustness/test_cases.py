"""Case selection: the engine's list is the one list; unknown names list the known ones."""

import pytest

from sdnbench.errors import UserError
from sdnbench.robustness import cases

KNOWN = [{"name": "a", "of13_only": False}, {"name": "b", "of13_only": True}]


def test_engine_lists_at_least_twenty_cases_with_sources():
    cat = cases.catalogue()
    assert len(cat) >= 20
    assert all(c["source"] and c["expect"] and c["what"] for c in cat)
    assert {"duplicate-dpid", "fabricated-lldp", "host-hijack", "packet-in-flood"} <= set(cases.names())


def test_select():
    assert cases.select(None, "1.3", KNOWN) == ["a", "b"]
    assert cases.select("all", "1.0", KNOWN) == ["a"]
    assert cases.select("b,a", "1.3", KNOWN) == ["b", "a"]
    with pytest.raises(UserError, match="unknown case zz; known: a, b"):
        cases.select("a,zz", "1.3", KNOWN)
    with pytest.raises(UserError, match="need OpenFlow 1.3"):
        cases.select("b", "1.0", KNOWN)


def test_docs_describe_every_case():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "robustness.md").read_text()
    missing = [n for n in cases.names() if f"`{n}`" not in doc]
    assert not missing, f"docs/robustness.md lacks {missing}"


def test_campaign_cell_parameters():
    from sdnbench.robustness.cell import validate_param
    assert validate_param("case", "length-zero") is None
    assert "known: bad-version" in validate_param("case", "nope")
    assert "unknown robustness parameter 'loops'" in validate_param("loops", 3)
    assert validate_param("rate", 500) is None
