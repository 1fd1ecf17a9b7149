"""Errors that reach the user as one line.

``UserError`` is for bad input or a missing precondition: ``main`` prints its message and exits 1.
``CheckFailed`` is a measured check that did not pass (``--fail-on`` gates): exit 2.
``EngineDocumentError`` is an engine result its schema refuses: one line naming the field, exit 3.
Anything else is a bug in sdnbench and keeps its traceback (exit 3).
"""


class UserError(Exception):
    """Bad input or a missing precondition; printed as one line, exit code 1."""

    exit_code = 1


class CheckFailed(Exception):
    """A measured check failed (e.g. a regression gate); exit code 2."""

    exit_code = 2


class EngineDocumentError(Exception):
    """``sdnbench-engine`` wrote a document that breaks its schema (``sdnbench.engine/1``): a bug,
    or an engine binary older or newer than this sdnbench. One line naming the field, such as
    ``loops.answered[3]: want an integer, got 'x'``; exit code 3, as any internal error, without
    a traceback (the line says where; the engine's document is what to report)."""

    exit_code = 3

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}" if path else problem)
        self.path = path
        self.problem = problem


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
