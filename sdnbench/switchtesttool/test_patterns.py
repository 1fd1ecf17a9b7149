"""Patterns found, selected and staged as the tool will read them (on files made here)."""

import json

from .patterns import discover, matches, stage


def _tree(tmp_path):
    base = tmp_path / "switch" / "of10"
    for name, desc, n in (("action/00_OUTPUT", "action: 00_OUTPUT", 3), ("match/10_TP_SRC_IPv4_TCP", "match: 10_TP_SRC (IPv4/TCP)", 6),
                          ("match/10_TP_SRC_IPv6_TCP", "match: 10_TP_SRC (IPv4/TCP)", 2)):
        f = base / f"{name}.json"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps([desc] + [{"description": f"t{i}"} for i in range(n)]))
    return tmp_path / "switch"


def test_names_categories_and_test_counts(tmp_path):
    ps = discover(_tree(tmp_path), "1.0")
    assert [(p.name, p.category, p.tests) for p in ps] == [("action/00_OUTPUT", "action", 3),
                                                           ("match/10_TP_SRC_IPv4_TCP", "match", 6),
                                                           ("match/10_TP_SRC_IPv6_TCP", "match", 2)]


def test_only_takes_globs_and_words():
    assert matches("match/03_ETH_DST", "match/*eth*") and matches("match/03_ETH_DST", "eth_dst")
    assert not matches("action/00_OUTPUT", "match,group") and matches("action/00_OUTPUT", None)


def test_a_file_sharing_another_files_description_is_not_run_and_said(tmp_path):
    ps = discover(_tree(tmp_path), "1.0")
    directory, run, shadowed = stage(ps, tmp_path / "staged")
    assert (directory / "action" / "00_OUTPUT.json").resolve() == ps[0].path.resolve()
    assert len(run) == 2 and len(shadowed) == 1
    assert {p.description for p in run} == {"action: 00_OUTPUT", "match: 10_TP_SRC (IPv4/TCP)"}


def test_skip_leaves_out_what_it_names():
    from .patterns import Pattern, select
    ps = [Pattern.__new__(Pattern) for _ in range(3)]
    for p, n in zip(ps, ["action/00_OUTPUT", "action/25_SET_FIELD/10_IP_PROTO", "action/25_SET_FIELD/10_IP_PROTO_IPv6"]):
        object.__setattr__(p, "name", n)
    assert [p.name for p in select(ps, None, "action/25_SET_FIELD/10_IP_PROTO*")] == ["action/00_OUTPUT"]
    assert [p.name for p in select(ps, "action", "ip_proto_ipv6")] == ["action/00_OUTPUT", "action/25_SET_FIELD/10_IP_PROTO"]


def test_a_target_runs_the_versions_it_speaks():
    from .params import speaks
    assert speaks({"kind": "cpqd"}) == ("1.3",)
    assert set(speaks({"kind": "ovs"})) == {"1.0", "1.3"} == set(speaks({"kind": "emulated"}))
