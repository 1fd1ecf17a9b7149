"""The rules and the one error type behind every suite's parameter check."""

from sdnbench.paramcheck import ParamError, apply, choice, flag_of, number, url, whole


def test_rules_accept_the_range_and_name_the_bad_value():
    assert number(0, "of seconds", above=True)(0.5) is None
    assert number(0, "of seconds", above=True)(0) == "must be a number of seconds above 0, got 0"
    assert number(0)(float("nan")).startswith("must be a number")
    assert whole(1)(True) and whole(1)(1.5) and whole(1, 3)(4) and whole(1)(2) is None
    assert choice(("a", "b"))("c") == "must be one of a, b, got 'c'"
    assert url("http://127.0.0.1:8080") is None and url("https://h/x") is None
    assert url("127.0.0.1:8080") and url("http://") and url("http://h:99999") and url(3)


def test_an_error_names_the_flag_on_the_command_line_and_the_key_elsewhere():
    found = apply({"poll_s": number(0, above=True), "x": None}, {"poll_s": 0, "x": 1, "api": None})
    assert [k for k, _ in found] == ["poll_s"]
    assert str(ParamError(found, flag_of({}))).startswith("--poll-s: must be")
    assert str(ParamError(found)).startswith("poll_s: must be")
    # a shared parser's message that already starts with the flag is not prefixed twice
    assert str(ParamError([("link", "--link 1-9: no such link")], flag_of({}))) == "--link 1-9: no such link"


def test_a_table_is_one_dataclass_and_build_returns_it_typed_and_frozen():
    import dataclasses
    from typing import Optional

    import pytest

    from sdnbench.paramcheck import Params, param

    @dataclasses.dataclass(frozen=True)
    class T:
        poll_s: float = param(3.0, number(0, "of seconds", above=True))
        of_version: Optional[str] = param(None, choice(("1.0", "1.3")), flag="--of")
        reps: int = param(3, whole(1), cli_only=True)

    t = Params.table("t", T, lambda p: [])
    assert (t.defaults, t.cli_only, t.default("reps")) == ({"poll_s": 3.0, "of_version": None}, {"reps": 3}, 3)
    built = t.build({"poll_s": 0.5, "rep": 2, "name": "x"}, cli=False)    # campaign keys are not parameters
    assert built == T(poll_s=0.5) and isinstance(built, T)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.poll_s = 1.0
    with pytest.raises(ParamError, match=r"^--of: must be one of 1.0, 1.3, got '2'$"):
        t.build({"of_version": "2"})
    assert "unknown t parameter" in t.validate_param("reps", 2), "a campaign cell has no --reps"


def test_a_field_with_help_is_its_flag_written_once():
    """``add_flags``: flag, dest, type, choices, default and help from the table; a field without
    help has no generated flag; ``defaults`` are the command's own."""
    import argparse
    import dataclasses
    from typing import Optional

    from sdnbench.paramcheck import add_flags, param

    @dataclasses.dataclass(frozen=True)
    class T:
        controller: str = param("x")                         # no help: the command writes its flag
        poll_s: float = param(3.0, number(0, above=True), help="poll every (%(default)s)")
        of_version: Optional[str] = param(None, choice(("1.0", "1.3")), flag="--of", help="version")
        max_switches: Optional[int] = param(None, whole(1), help="at most")
        topo: str = param("ring,4", help="topology")

    p = argparse.ArgumentParser()
    add_flags(p, T, {"topo": "linear,2"}, skip=("max_switches",))
    acts = {a.dest: a for a in p._actions if a.dest != "help"}
    assert list(acts) == ["poll_s", "of_version", "topo"]
    assert acts["poll_s"].option_strings == ["--poll-s"] and acts["poll_s"].type is float
    assert acts["of_version"].option_strings == ["--of"] and acts["of_version"].choices == ["1.0", "1.3"]
    assert acts["topo"].type is None and acts["topo"].default == "linear,2"
    assert "poll every (3.0)" in p.format_help()
    assert vars(p.parse_args(["--poll-s", "0.5", "--of", "1.0"])) == {"poll_s": 0.5, "of_version": "1.0", "topo": "linear,2"}
    q = argparse.ArgumentParser()
    add_flags(q, T, only=("max_switches",))
    assert q.parse_args(["--max-switches", "7"]).max_switches == 7
