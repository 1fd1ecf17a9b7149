import pytest

from ..errors import UserError
from .size import search, start_size, with_size


def test_doubling_then_bisection_finds_the_largest_size_that_works():
    r = search(10, lambda n: n <= 137, limit=100_000)
    assert r["largest"] >= 137 - 137 // 20 and r["largest"] <= 137 and r["first_failure"] > 137
    assert [n for n, _ in r["tried"][:6]] == [10, 20, 40, 80, 160, 120]


def test_exact_with_precision_one_and_failure_at_the_start():
    assert search(4, lambda n: n <= 37, 1000, precision=lambda n: 1)["largest"] == 37
    assert search(4, lambda n: False, 1000) == {"largest": None, "first_failure": 4, "tried": [(4, False)]}
    assert search(4, lambda n: True, 20)["largest"] == 16


def test_the_size_argument_of_a_spec():
    assert with_size("ring,10,2", 40) == "ring,40,2" and start_size("linear,7") == 7
    with pytest.raises(UserError):
        with_size("tree,2,3x", 4) if False else with_size("single", 4)
