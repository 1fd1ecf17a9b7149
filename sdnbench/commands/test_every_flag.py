"""Bad input checked by construction (issue 40): every subcommand and every flag of ``sdnbench``,
read from the parser's own definitions, is fed the bad values its kind admits: negative, zero,
huge, non-numeric and empty numbers; a missing file, a directory and a binary file where a file
is read; an unwritable place, a directory and a path under a regular file where one is written;
a regular file, an unwritable place and a corrupt store for ``--store``; an unknown choice.

Each case must end with exit 1 and one line on stderr naming the flag and the value, no
traceback, nothing on stdout, and **nothing started**: ``subprocess.Popen`` (every controller,
the engine, Mininet, OVS, tcpdump...) and ``socket.connect`` raise a ``_Started`` that no
``except Exception`` can swallow. A zero or huge number may also be a valid value: then the
command goes on and starts something, and that is counted as accepted, never as a failure.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from sdnbench.commands._parser import build_parser
from sdnbench.commands._flags import number, whole

SKIP = (argparse._SubParsersAction, argparse._HelpAction, argparse._VersionAction)

# A valid value for each required flag or positional (by dest), so that only the flag under test
# is bad. Nothing here is reached: a case that gets as far as starting something is "accepted".
VALID = {"a": "1", "b": "2", "shell": "bash", "args": "-c", "name": "osken", "spec": "osken:learning",
         "checks": "ovs", "ref": "1", "metric": "answered_per_s", "topo": "linear,2", "scenario": "SCENARIO",
         "inventory": "INVENTORY", "runs": "1", "run": "1", "vary": "switches"}

OUTPUT_DESTS = ("out", "output")
INPUT_FILE_DESTS = ("scenario", "inventory")     # read as text files
NUMBER = {int: ("-1", "x", "", "99999999999999999999", "0"), float: ("-1", "x", "", "nan", "inf", "0")}
ZERO_OR_HUGE = ("0", "99999999999999999999", "inf")   # may be valid: accepted, or refused in one line


# Flags whose 0 means something, as their help says: no warm-up, count at once, no rate cap, no
# wait, an unlimited table, flat out, the tool's own default. Any other count or duration must
# refuse 0 in one line (issue 49: ``--hung-ms 0`` judged every controller hung, ``--max-trials 0``
# searched nothing); and these must not refuse it.
ZERO_MEANS = {
    ("controller", "bench", "--warmup"), ("controller", "exceptions", "--warmup"),
    ("controller", "capacity", "--hold-ms"), ("controller", "tls-cost", "--hold-ms"),
    *((("controller", c, f) for c in ("provisioning", "table-capacity")
       for f in ("--rate", "--announce-ms", "--table-size"))),
    ("switch", "bench", "--probe-pps"), ("switch", "conformance", "--interval"),
    ("conformance", "--noise-extra"),          # no further Open vSwitch runs: the default
}


class _Started(BaseException):
    """Something was started: the case got past every check."""


@dataclass(frozen=True)
class Case:
    command: tuple
    flag: str            # the option string, or the positional's dest
    value: str
    kind: str
    spellings: tuple = ()  # every option string of the flag

    @property
    def id(self) -> str:
        return f"{' '.join(self.command)} {self.flag} {self.value or repr('')}"


def _commands(parser, path=()):
    acts = [a for a in parser._actions if not isinstance(a, SKIP)]
    if acts:
        yield path, acts
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from _commands(sub, path + (name,))


def _kind(a) -> str:
    if a.dest in OUTPUT_DESTS:
        return "output"
    if a.dest == "store":
        return "store"
    if a.dest in INPUT_FILE_DESTS:
        return "input"
    base = getattr(a.type, "base", a.type)        # at_least(n), above_zero: a number all the same
    if base in (int, whole):
        return "int"
    if base in (float, number):
        return "float"
    if a.choices:
        return "choice"
    return "text"


def _values(kind: str, tmp: Path) -> tuple:
    binary = tmp / "binary.bin"
    regular = tmp / "regular.txt"
    corrupt = tmp / "corrupt-store"
    return {
        "int": NUMBER[int], "float": NUMBER[float], "choice": ("no-such-choice",), "text": ("",),
        "output": ("/proc/sdnbench-nowhere/out.json", str(tmp), f"{regular}/out.json"),
        "store": (str(regular), "/proc/sdnbench-nowhere/store", str(corrupt)),
        "input": (str(tmp / "missing.yaml"), str(tmp), str(binary)),
    }[kind]


def _fixtures(tmp: Path) -> None:
    (tmp / "binary.bin").write_bytes(bytes(range(256)) * 8)
    (tmp / "regular.txt").write_text("a regular file\n")
    (tmp / "corrupt-store").mkdir(exist_ok=True)
    (tmp / "corrupt-store" / "results.sqlite").write_bytes(b"this is not a database" * 100)
    (tmp / "SCENARIO").write_text("name: s\nbenchmarks:\n  - kind: controller\n    params: {mode: throughput}\n")
    (tmp / "INVENTORY").write_text("hosts: []\n")


def _base(command: tuple, acts: list, skip, tmp: Path) -> list:
    argv = list(command)
    for a in acts:
        if a is skip or not (a.required or not a.option_strings) or a.nargs == 0:
            continue
        v = VALID.get(a.dest, "1")
        v = str(tmp / v) if v in ("SCENARIO", "INVENTORY") else v
        argv += ([a.option_strings[0], v] if a.option_strings else [v])
    return argv


def _cases(tmp: Path) -> list:
    out = []
    for command, acts in _commands(build_parser()):
        for a in acts:
            if a.nargs == 0 or a.help == argparse.SUPPRESS or a.nargs == "*" and not a.option_strings:
                continue
            kind = _kind(a)
            for v in _values(kind, tmp):
                flag = a.option_strings[-1] if a.option_strings else a.dest
                out.append((Case(command, flag, v, kind, tuple(a.option_strings)), a, acts))
    return out


TMP = Path("/tmp/sdnbench-every-flag")       # the same paths at collection and at run time
ALL = _cases(TMP)


def _argv(case: Case, a, acts) -> list:
    argv = _base(case.command, acts, a, TMP)
    return argv + ([a.option_strings[0], case.value] if a.option_strings else [case.value])


# Queries that run to their end and start nothing: the engine checking a configuration or
# listing its cases, a tool's version.
QUERIES = (("sdnbench-engine", "check"), ("sdnbench-engine", "robust-cases"), ("sdnbench-engine", "schema"))


def _is_query(argv) -> bool:
    argv = [str(x) for x in (argv if isinstance(argv, (list, tuple)) else [argv])]
    return (len(argv) >= 2 and (Path(argv[0]).name, argv[1]) in QUERIES) or argv[-1:] == ["--version"]


@pytest.fixture
def no_start(monkeypatch):
    real = subprocess.Popen

    def started(*a, **k):
        if sys._getframe(1).f_code is subprocess.run.__code__ and _is_query(a[0] if a else k.get("args")):
            return real(*a, **k)
        raise _Started(repr(a[:1])[:200])
    monkeypatch.setattr(subprocess, "Popen", started)
    monkeypatch.setattr(socket.socket, "connect", started)
    monkeypatch.setattr(socket.socket, "connect_ex", started)


@pytest.mark.parametrize("case, action, acts", ALL, ids=[c.id for c, _, _ in ALL])
def test_a_bad_value_is_one_line_naming_the_flag_before_anything_starts(case, action, acts, no_start, capsys):
    from sdnbench.cli import main
    TMP.mkdir(exist_ok=True)
    _fixtures(TMP)
    argv = _argv(case, action, acts)
    zero_means = case.value == "0" and (*case.command, case.flag) in ZERO_MEANS
    try:
        code = main(argv)
    except _Started as e:
        out, err = capsys.readouterr()
        assert case.value in ZERO_OR_HUGE, f"{argv}: started {e} (stderr: {err!r})"
        assert case.value != "0" or zero_means, f"{argv}: 0 started {e}; refuse it, or list it in ZERO_MEANS"
        return
    out, err = capsys.readouterr()
    assert not zero_means, f"{argv}: 0 means something here, yet: {err!r}"
    assert "Traceback" not in err, err
    assert code == 1, (argv, code, err)
    assert err.count("\n") == 1 and err.startswith("sdnbench: error: "), err
    assert any(f in err for f in case.spellings) or not case.spellings, err
    assert out == "", out


def test_the_walk_covers_every_command_and_flag():
    commands = {c.command for c, _, _ in ALL}
    flags = {(c.command, c.flag) for c, _, _ in ALL}
    print(f"{len(commands)} commands, {len(flags)} flags, {len(ALL)} cases", file=sys.stderr)
    assert len(commands) >= 30 and len(flags) >= 250


# Every command under a broken environment (issue 49): the state directory a file, out of reach
# or not a path; the engine a missing file, a directory or not executable. A command that needs
# the variable refuses in one line naming it (exit 1); one that does not goes on. Never a traceback.
ENV = (("SDNBENCH_HOME", "regular.txt"), ("SDNBENCH_HOME", "/proc/sdnbench-nowhere/home"),
       ("SDNBENCH_HOME", "bad\x01home"), ("SDNBENCH_ENGINE", "no-such-engine"), ("SDNBENCH_ENGINE", "."),
       ("SDNBENCH_ENGINE", "regular.txt"))


def _leaves(parser, path=()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs and path:
        yield path, [a for a in parser._actions if not isinstance(a, SKIP)]
    for a in subs:
        for name, sub in a.choices.items():
            yield from _leaves(sub, path + (name,))


LEAVES = dict(_leaves(build_parser()))
ENV_CASES = [(command, var, value) for command in sorted(LEAVES) for var, value in ENV]


@pytest.mark.parametrize("command, var, value", ENV_CASES,
                         ids=[f"{' '.join(c)} {v}={x!r}" for c, v, x in ENV_CASES])
def test_a_broken_environment_is_one_line_naming_it_or_unused(command, var, value, no_start, monkeypatch, capsys):
    from sdnbench.cli import main
    TMP.mkdir(exist_ok=True)
    _fixtures(TMP)
    monkeypatch.chdir(TMP)
    monkeypatch.setenv(var, value)
    try:
        code = main(_base(command, LEAVES[command], None, TMP))
    except _Started:
        return                                   # it needed nothing of the variable before this
    out, err = capsys.readouterr()
    assert "Traceback" not in err and code in (0, 1, 2), (code, err)
    if var in err:
        assert code == 1 and err.count("\n") == 1 and err.startswith("sdnbench: error: "), err
