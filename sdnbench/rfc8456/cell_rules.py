"""The per-key rules of the ``rfc8456`` kind's parameter tables (``exception_handling``,
``discovery_size``), each message naming its key as ``run --dry-run`` prints it."""

from __future__ import annotations

from typing import Any, Optional

from ..controllers.spec import validate_controller_param


def controller(v: Any) -> Optional[str]:
    return validate_controller_param("controller", v)


def whole_1(name: str):
    def rule(v: Any) -> Optional[str]:
        return None if isinstance(v, int) and v >= 1 else f"{name} must be a whole number, 1 or more"
    return rule


def seconds(name: str):
    def rule(v: Any) -> Optional[str]:
        return None if isinstance(v, (int, float)) and v > 0 else f"{name} must be a positive number of seconds"
    return rule
