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
