"""A campaign benchmark kind: the name a scenario gives, the runner behind it
(``module.function(params) -> Result``, imported only when a campaign uses it), the ``doctor``
checks it needs, and its parameter checks. Each suite declares its own ``KIND`` beside its
parameters; ``sdnbench.campaign.kinds`` collects them.

Contract for runners: raise ``UserError`` (or return a Result with ``status="failed"``) for a
failed measurement — the cell is recorded as failed with that reason and the campaign goes on;
never swallow ``Interrupted``."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .errors import UserError


@dataclass(frozen=True)
class Kind:
    name: str
    module: str
    function: str
    requires: tuple = ()                         # doctor checks
    description: str = ""
    validate: Optional[Callable[[str, Any], Optional[str]]] = field(default=None, compare=False)
    # whole-cell check (all parameters of one cell): [(field, message)], empty when fine
    check_cell: Optional[Callable[[dict], list]] = field(default=None, compare=False)

    def load(self) -> Callable:
        try:
            mod = importlib.import_module(self.module)
        except ModuleNotFoundError as e:
            if e.name and self.module.startswith(e.name):
                raise UserError(f"benchmark kind {self.name!r} needs {self.module}.{self.function}, "
                                "which this sdnbench install does not have yet")
            raise
        fn = getattr(mod, self.function, None)
        if fn is None:
            raise UserError(f"benchmark kind {self.name!r}: {self.module} has no {self.function}()")
        return fn
