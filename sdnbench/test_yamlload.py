"""The limits of ``yamlload`` on the inputs that broke the plain safe loader (issue 40)."""

import time

import pytest

from sdnbench.yamlload import MAX_NODES, YamlError, compose, expanded_size, load

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))


def test_an_alias_bomb_is_refused_in_one_line_quickly_and_small():
    t0 = time.monotonic()
    with pytest.raises(YamlError) as e:
        load(BOMB, "bomb.yaml")
    assert time.monotonic() - t0 < 2
    assert str(e.value) == f"bomb.yaml: its aliases expand to more than {MAX_NODES:,} nodes; " \
                           "write the values out or use fewer nested aliases"


def test_aliases_within_the_limit_load_and_count_each_use():
    data = load("base: &b {switches: 4, loops: 3}\nx: *b\ny: *b\n", "s.yaml")
    assert data["x"] == data["y"] == {"switches": 4, "loops": 3}
    # the mapping, key a, [1, 2] (3 nodes), key b, [*a, *a] (1 + 3 + 3)
    assert expanded_size(compose("a: &a [1, 2]\nb: [*a, *a]\n", "s")) == 1 + 1 + 3 + 1 + 7


def test_a_duplicate_key_is_refused_with_both_lines():
    with pytest.raises(YamlError) as e:
        load("name: a\nbenchmarks: []\nname: b\n", "dup.yaml")
    assert str(e.value) == "dup.yaml:3: duplicate key 'name' (first on line 1)"


def test_a_merge_key_is_not_a_duplicate():
    assert load("base: &b {a: 1}\nx:\n  <<: *b\n  c: 2\n", "m")["x"] == {"a": 1, "c": 2}


def test_a_recursive_alias_and_a_huge_file_are_refused():
    with pytest.raises(YamlError):
        load("a: &a [*a]\n", "r")
    with pytest.raises(YamlError, match="larger than 1 MiB"):
        load("x: " + "y" * (1 << 20) + "\n", "big.yaml")


def test_not_yaml_names_the_line():
    with pytest.raises(YamlError, match=r"^bad.yaml:3: not valid YAML: expected the node content"):
        load("a: 1\nb: [\n", "bad.yaml")
