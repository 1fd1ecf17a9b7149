"""The listener matrix in ``make test`` (issue 47): a controller that listens is never refused.
The whole matrix (every command × every listener, docs/listeners.md) is ``bench/cli/listeners.py``;
here: the engine against every form of listener, the commands that take seconds against a JVM's
form (``[::ffff:127.0.0.1]``, the one that was refused; the slower ones pass the same pre-flight,
and ``test_bad_input`` refuses a dead address in every command), and a ``cmd:`` controller that
starts listening only after 10 s."""

from __future__ import annotations

from sdnbench.testing.listener_matrix import COMMANDS, ENGINE, LISTENERS, matrix

JVM = next(li for li in LISTENERS if "JVM" in li.name)
SLOW = {"controller topology-change", "controller reprovisioning", "controller robustness", "controller exceptions",
        "controller dos", "rfc8456", "conformance"}
LATE = next(li for li in LISTENERS if li.form is None)


def _cells(commands, listeners) -> list:
    return list(matrix(commands, listeners))


def test_the_engine_measures_every_reachable_listener_and_refuses_the_others_for_that():
    cells = _cells([c for c in COMMANDS if c.name == ENGINE], [li for li in LISTENERS if li.form is not None])
    assert [c.verdict for c in cells] == ["measured" if li.reaches else "refused"
                                          for li in LISTENERS if li.form is not None], cells
    assert all(c.true for c in cells), [c for c in cells if not c.true]
    for c in cells:
        if c.verdict == "refused":
            assert "nothing listens there (connection refused)" in c.line, c


def test_the_quicker_commands_take_a_jvm_listener():
    quick = [c for c in COMMANDS if c.name not in SLOW]
    cells = _cells(quick, [JVM])
    assert len(cells) == len(quick) == len(COMMANDS) - len(SLOW)
    wrong = [c for c in cells if not c.true or "nothing listens" in c.line]
    assert not wrong, "\n".join(c.row() for c in wrong)


def test_a_cmd_controller_listening_only_after_10_s_is_measured_without_a_flag():
    [cell] = _cells([next(c for c in COMMANDS if c.name == "controller bench")], [LATE])
    assert cell.verdict == "measured" and cell.seconds >= 10, cell
