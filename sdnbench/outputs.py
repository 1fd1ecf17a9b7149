"""Where a command's results go: one ``Outputs`` value, built once by ``cli.main`` from the parsed
arguments (``Outputs.of``) and passed to the command, which hands it to the executor's sinks
(``commands/_results.run_plan``).

It holds the ``-o`` file and its format (a ``formats.FORMATS`` name: ``--format``, else the one
the file's suffix names among the command's ``formats.Output``), the ``--store`` directory and
whether ``--json`` prints the results. Its one changing part is its ``Rescue``: where ``-o`` was
written instead when the file named could not be (a full disk); ``main`` reads it to end with
exit 2 (``exit_code``), the file sink records it (``Rescue.record``). Nothing is kept on the
argparse ``Namespace``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional


class Rescue:
    """Where ``-o`` went instead of the file named, once it could not be written (``where``)."""

    def __init__(self) -> None:
        self.where: Optional[str] = None

    def record(self, where: str) -> bool:
        """``where`` holds ``-o`` now; True the first time (the command says so once)."""
        first = self.where is None
        self.where = where
        return first


@dataclass(frozen=True)
class Outputs:
    path: Optional[str] = None          # -o (or a command's own name for it), as given
    format: Optional[str] = None        # its formats.FORMATS name, when the command names its Output
    store: Optional[Path] = None        # --store DIR
    json: bool = False                  # --json: the results printed as JSON
    rescue: Rescue = field(default_factory=Rescue, compare=False, repr=False)

    @classmethod
    def of(cls, args) -> "Outputs":
        """The outputs the parsed ``args`` ask for (after ``commands._flags.preflight`` checked
        them: a suffix no format of the command names is refused there, in one line)."""
        path = getattr(args, "out", None) or getattr(args, "output", None)
        out = getattr(args, "_output", None)            # the command's formats.Output, if it names one
        fmt = getattr(args, "format", None)
        if path and path != "-" and out is not None:
            fmt = out.format_for(str(path), fmt, hasattr(args, "format"))
        store = getattr(args, "store", None)
        return cls(str(path) if path else None, fmt if isinstance(fmt, str) else None,
                   Path(store) if store is not None else None, bool(getattr(args, "json", False)))

    @property
    def rescued(self) -> bool:
        """``-o`` is not where it was asked to be: its results are in ``rescue.where``."""
        return self.rescue.where is not None

    def exit_code(self, code: int) -> int:
        """The command's exit code, at least 2 when ``-o`` was rescued elsewhere."""
        return max(code, 2) if self.rescued else code
