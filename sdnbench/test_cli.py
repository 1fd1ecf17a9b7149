"""The CLI's contract: one-line user errors with exit 1, --version, --help, completion."""

import subprocess
import sys

import pytest

from sdnbench import __version__
from sdnbench.cli import EXIT_INTERNAL, main


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sdnbench", *args], capture_output=True, text=True)


def test_version():
    cp = run_cli("--version")
    assert cp.returncode == 0
    assert cp.stdout.strip() == f"sdnbench {__version__}"


@pytest.mark.parametrize("argv", [["--no-such-option"], ["no-such-command"], ["doctor", "--bogus"]])
def test_bad_usage_is_one_line_exit_1(argv):
    cp = run_cli(*argv)
    assert cp.returncode == 1
    assert cp.stderr.count("\n") == 1, cp.stderr
    assert cp.stderr.startswith("sdnbench: error: ")
    assert "Traceback" not in cp.stderr


def test_unknown_doctor_check_is_user_error(capsys):
    assert main(["doctor", "no-such-check"]) == 1
    err = capsys.readouterr().err
    assert "unknown doctor check" in err and "Traceback" not in err


def test_every_subcommand_has_help(capsys):
    # in-process (a process per subcommand cost 13 s of the suite); the process path is the
    # same `main`, checked once through a real process
    from sdnbench.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert {"doctor", "completion"} <= set(sub.choices)
    for name in sub.choices:
        try:
            rc = main([name, "--help"])
        except SystemExit as e:
            rc = e.code
        out = capsys.readouterr()
        assert rc in (0, None), (name, out.err)
        assert "usage: sdnbench" in out.out, name
    cp = run_cli("net", "--help")
    assert cp.returncode == 0 and "usage: sdnbench net" in cp.stdout, cp.stderr


def test_internal_error_keeps_traceback(monkeypatch, capsys):
    from sdnbench.commands import doctor as doctor_cmd

    def boom(args, outputs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(doctor_cmd, "run", boom)
    assert main(["doctor"]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: a bug" in err


def test_bash_completion_is_valid_bash_and_knows_commands():
    cp = run_cli("completion", "bash")
    assert cp.returncode == 0
    assert "doctor" in cp.stdout and "complete -F _sdnbench sdnbench" in cp.stdout
    check = subprocess.run(["bash", "-n"], input=cp.stdout, text=True, capture_output=True)
    assert check.returncode == 0, check.stderr
    # Ask the generated function for completions of "sdnbench doc".
    probe = cp.stdout + '\nCOMP_WORDS=(sdnbench doc); COMP_CWORD=1; _sdnbench; echo "${COMPREPLY[@]}"\n'
    out = subprocess.run(["bash", "-c", probe], text=True, capture_output=True)
    assert out.stdout.split() == ["doctor"]


def test_a_full_disk_or_a_closed_pipe_on_stdout_is_one_line_or_silence_never_a_traceback():
    import subprocess
    import sys
    with open("/dev/full", "w") as full:
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "controllers", "list"], stdout=full,
                            stderr=subprocess.PIPE, text=True, timeout=60)
    assert cp.returncode == 1 and cp.stderr == (
        "sdnbench: error: cannot write the output: No space left on device; free some space or write elsewhere\n")
    p = subprocess.Popen([sys.executable, "-m", "sdnbench", "controllers", "list", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()                        # the reader is gone before the first write (`| head -c 0`)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 0 and err == b"", err
