"""The one CLI convention, checked on every subcommand's parser (sdnbench.output):

- ``--json`` is a switch: JSON on stdout, never a file;
- ``-o`` is always ``-o/--output FILE`` (one value); ``--format`` only beside ``-o/--output``;
- no visible ``--out``, ``--protocols`` or ``--of-version``: old spellings are hidden and refuse
  with a line naming the new flag; OpenFlow versions are ``--of``;
- ``--store`` is ``--store DIR`` (one definition);
and that the old spellings really do say what replaced them.
"""

import argparse

import pytest

from sdnbench.cli import build_parser, main

OLD = ("--out", "--protocols", "--of-version", "--json-file")


def _parsers(parser, path=("sdnbench",)):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


def _visible(action) -> bool:
    return action.help is not argparse.SUPPRESS


def _problems(path, parser) -> list:
    where = " ".join(path)
    out = []
    flags = {s: a for a in parser._actions for s in a.option_strings}
    for s, a in flags.items():
        if s == "--json" and a.nargs != 0:
            out.append(f"{where}: --json must be a switch (JSON on stdout), not take a value")
        if s == "-o" and ("--output" not in a.option_strings or a.nargs not in (None, 1)):
            out.append(f"{where}: -o must be -o/--output FILE")
        if s == "--output" and "-o" not in a.option_strings:
            out.append(f"{where}: --output must also be -o")
        if s in OLD and _visible(a):
            out.append(f"{where}: {s} breaks the convention (see sdnbench.output)")
        if s == "--store" and (a.metavar != "DIR" or a.required):
            out.append(f"{where}: --store must be the shared `--store DIR`")
    if "--format" in flags and "--output" not in flags:
        out.append(f"{where}: --format only makes sense beside -o/--output")
    return out


def test_every_subcommand_follows_the_cli_convention():
    problems = [p for path, parser in _parsers(build_parser()) for p in _problems(path, parser)]
    assert problems == []


def test_the_convention_test_catches_a_breaking_flag():
    p = argparse.ArgumentParser()
    p.add_argument("--json", metavar="FILE")
    p.add_argument("--out")
    p.add_argument("--store")
    assert len(_problems(("x",), p)) == 3


@pytest.mark.parametrize("argv, new", [
    (["net", "run", "--topo", "single,2", "--protocols", "OpenFlow13"], "--of"),
    (["net", "run", "--topo", "single,2", "--out", "x.json"], "-o/--output"),
    (["net", "run", "--topo", "single,2", "--json", "x.json"], "-o x.json"),
    (["controller", "bench", "--out", "x.json"], "-o/--output"),
])
def test_old_flags_name_the_new_one(argv, new, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert new in err and err.count("\n") == 1


def test_completion_offers_the_new_flags_only():
    from sdnbench.commands.completion import bash_script
    line = [l for l in bash_script(build_parser()).splitlines() if l.strip().startswith('"net run")')][0]
    assert " --of " in line and " --output " in line and " --json " in line
    assert "--protocols" not in line and "--out " not in line
