"""A differing cell counts as explained only when every item is one docs/conformance.md names."""

from .report import explained, verdict


def _cell(stim, ovs=(), eng=(), cat="received"):
    return {"controller": "x", "version": "1.3", "stimulus": stim, "identical": False,
            "only_ovs": {"received": [], "sent": [], "flows": [], **({cat: list(ovs)} if ovs else {})},
            "only_engine": {"received": [], "sent": [], "flows": [], **({cat: list(eng)} if eng else {})}}


def test_link_admin_down_states_are_explained_only_in_the_link_column():
    item = "s1 PORT_STATUS reason=2 port,config,state=(2, 1, 1)"
    assert explained(_cell("link", ovs=[item])) == [7]
    assert explained(_cell("frames", ovs=[item])) == []


def test_one_unexplained_item_makes_the_cell_unexplained():
    c = _cell("link", ovs=["s1 PORT_STATUS reason=2 port,config,state=(2, 1, 1)",
                           "s1 PACKET_IN reason=1 table=0 buffered=True total_len=60 in_port=1 cookie=0 frame=lldp"])
    assert explained(c) == [] and verdict(c).startswith("**unexplained**")
