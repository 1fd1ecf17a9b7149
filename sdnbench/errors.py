"""Errors that reach the user as one line.

``UserError`` is for bad input or a missing precondition: ``main`` prints its message and exits 1.
``CheckFailed`` is a measured check that did not pass (``--fail-on`` gates): exit 2.
Anything else is a bug in sdnbench and keeps its traceback (exit 3).
"""


class UserError(Exception):
    """Bad input or a missing precondition; printed as one line, exit code 1."""

    exit_code = 1


class CheckFailed(Exception):
    """A measured check failed (e.g. a regression gate); exit code 2."""

    exit_code = 2


class Interrupted(BaseException):
    """SIGINT, SIGTERM or SIGHUP arrived; raised so that every ``finally`` runs.

    It derives from BaseException, like KeyboardInterrupt, so ``except Exception`` blocks
    inside measurements do not swallow it.
    """

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum
