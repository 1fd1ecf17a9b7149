"""A failed build is closed before its error goes on (Ctrl-C included); leaving closes; what a
clean-up left is raised, or only warned about while another exception is on its way."""

import pytest

from sdnbench.errors import Interrupted, UserError
from sdnbench.lifecycle import Built, left_behind


class _Thing(Built):
    def __init__(self, fail=None) -> None:
        self.fail, self.steps = fail, []

    def build(self) -> None:
        self.steps.append("build")
        if self.fail is not None:
            raise self.fail

    def close(self) -> None:
        self.steps.append("close")


def test_entering_builds_and_leaving_closes_once():
    t = _Thing()
    with t as entered:
        assert entered is t and t.steps == ["build"]
    assert t.steps == ["build", "close"]


@pytest.mark.parametrize("error", [RuntimeError("no bridge"), Interrupted(15)])
def test_a_failed_build_is_closed_and_its_error_goes_on(error):
    t = _Thing(fail=error)
    with pytest.raises(type(error)) as caught:
        with t:
            pytest.fail("the block must not run")
    assert caught.value is error and t.steps == ["build", "close"]


def test_what_was_left_is_raised_when_nothing_else_went_wrong(capsys):
    with pytest.raises(UserError, match="^left br0$"):
        left_behind("left br0", UserError)
    assert capsys.readouterr().err == ""


def test_what_was_left_is_a_warning_while_an_error_is_on_its_way(capsys):
    with pytest.raises(ValueError, match="the first error"):
        try:
            raise ValueError("the first error")
        except ValueError:
            left_behind("left br0", RuntimeError)
            raise
    assert capsys.readouterr().err == "sdnbench: warning: left br0\n"
