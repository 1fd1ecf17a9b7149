"""Things built in steps that always come down again: networks, labs, switch targets, veths.

``Built`` is the context manager they share. Entering runs ``build()``; if building fails in any
way (an error, Ctrl-C or SIGTERM as ``Interrupted``), ``close()`` removes what was made before the
error goes on. Leaving the block runs ``close()``. A subclass that must do something before the
guarded build (a check that refuses in one line, claiming a name prefix) does it in its own
``__enter__`` and then returns ``super().__enter__()``.

``left_behind`` is how a ``close()`` reports what it could not remove: raised, unless an
exception is already on its way out (then a warning on stderr, so that it does not mask the
first error).
"""

from __future__ import annotations

import sys


class Built:
    def build(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        try:
            self.build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def left_behind(msg: str, error: type) -> None:
    """Raise ``error(msg)``; while an exception is being handled, warn on stderr instead."""
    if sys.exc_info()[0] is not None:
        print(f"sdnbench: warning: {msg}", file=sys.stderr)
    else:
        raise error(msg)
