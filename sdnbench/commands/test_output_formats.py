"""Every command that writes ``-o`` reads the format registry: its ``--format`` choices are its
output's formats, its ``-o`` help names every suffix, and an unknown suffix stops the command with
one line and exit 1 before anything runs."""

import argparse

import pytest

from sdnbench.cli import build_parser, main
from sdnbench.formats import FORMATS


def _parsers(parser, path=()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


def _writers():
    """(path, parser, its Output) for every subcommand with -o/--output."""
    out = []
    for path, p in _parsers(build_parser()):
        flags = {s: a for a in p._actions for s in a.option_strings}
        if "--output" in flags:
            out.append((path, p, p.get_default("_output")))
    return out


def test_every_output_flag_reads_the_registry():
    found = _writers()
    assert len(found) >= 14
    for path, p, out in found:
        where = " ".join(path)
        assert out is not None, f"{where}: -o without an Output (set_defaults(_output=...))"
        flags = {s: a for a in p._actions for s in a.option_strings}
        if "--format" in flags:
            assert list(flags["--format"].choices) == list(out.formats), where
        help_text = flags["--output"].help
        for fmt in out.formats:
            assert all(s in help_text for s in FORMATS[fmt].suffixes), (where, fmt, help_text)


def _argv(path, p) -> list:
    """The subcommand with a placeholder for each positional and required flag."""
    argv = list(path)
    for a in p._actions:
        if not a.option_strings and not isinstance(a, argparse._SubParsersAction) and a.dest != "help":
            argv.append("x")
        elif a.required and a.option_strings:
            argv += [a.option_strings[0], "x"]
    return argv


@pytest.mark.parametrize("path", [" ".join(w[0]) for w in _writers()])
def test_an_unknown_suffix_is_one_line_and_exit_1(path, tmp_path, capsys):
    p = next(p for w, p, _ in _writers() if " ".join(w) == path)
    target = tmp_path / "out.nosuch"
    assert main(_argv(path.split(), p) + ["-o", str(target)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert f"-o {target}: cannot tell the format from the extension; name a file ending in ." in err, err
    assert not target.exists()
