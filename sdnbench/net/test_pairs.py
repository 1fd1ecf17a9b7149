"""Unit tests: host pair selection."""

import pytest

from sdnbench.errors import UserError
from sdnbench.net.pairs import select_pairs
from sdnbench.net.topology import parse_topology


def test_first_last():
    assert select_pairs(parse_topology("tree,2,2"), "first-last") == [("h1", "h4", None)]


def test_per_switch_is_the_campus_table():
    pairs = select_pairs(parse_topology("star,10,4"), "per-switch")
    assert len(pairs) == 10
    assert pairs[0] == ("h2", "h1", "s1")          # switch 1: its second host to its first
    assert pairs[1] == ("h5", "h1", "s2")          # switch k: its first host to h1 on s1
    assert pairs[-1] == ("h37", "h1", "s10")


def test_per_switch_needs_a_host_on_switch_1():
    # s1 (the root) has no hosts: per-switch needs one there
    with pytest.raises(UserError, match="need a host on s1"):
        select_pairs(parse_topology("tree,2,2"), "per-switch")


def test_all_and_explicit():
    assert len(select_pairs(parse_topology("single,4"), "all")) == 6
    assert select_pairs(parse_topology("single,4"), "h1-h3,h4-h2") == [("h1", "h3", None), ("h4", "h2", None)]
    for bad, words in (("h1-h9", "no host 'h9'"), ("h1", "bad host pair"), ("h1-h1", "itself")):
        with pytest.raises(UserError, match=words):
            select_pairs(parse_topology("single,4"), bad)


def test_needs_two_hosts():
    with pytest.raises(UserError, match="measurements need two"):
        select_pairs(parse_topology("single,1"), "first-last")


def test_per_switch_on_linear():
    assert select_pairs(parse_topology("linear,3"), "per-switch") == [("h2", "h1", "s2"), ("h3", "h1", "s3")]
