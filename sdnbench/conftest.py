"""A fixture shared by the bad-input tests of every suite (``refused``)."""

import subprocess
import sys

import pytest


class _Started(AssertionError):
    pass


@pytest.fixture
def refused(monkeypatch, capsys):
    """``refused([...argv])`` runs ``sdnbench.cli.main`` with no process allowed to start (a
    controller, the engine, a tool: ``subprocess.Popen`` raises, except inside
    ``subprocess.run``, which waits for its end) and returns the one line it
    printed, after checking exit 1, exactly one line on stderr, nothing on stdout and no
    traceback."""
    real = subprocess.Popen

    def boom(*a, **k):
        # a query that runs to its end inside subprocess.run (e.g. the engine's case list) is fine
        if sys._getframe(1).f_code is subprocess.run.__code__:
            return real(*a, **k)
        raise _Started(f"something was started: {a[:1]}")

    def run(argv: list) -> str:
        from sdnbench.cli import main
        monkeypatch.setattr(subprocess, "Popen", boom)
        capsys.readouterr()
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert code == 1, (code, err)
        assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("sdnbench: error: "), err
        assert out == ""
        return err.strip()
    return run


@pytest.fixture(autouse=True)
def synthetic_kind(monkeypatch):
    """The test-only ``synthetic`` benchmark kind, registered for every test in this process (never
    among the real kinds: ``sdnbench.testing.synthetic``)."""
    from sdnbench.campaign.kinds import CAMPAIGN_KINDS
    from sdnbench.testing.synthetic import kind
    monkeypatch.setitem(CAMPAIGN_KINDS, "synthetic", kind())
