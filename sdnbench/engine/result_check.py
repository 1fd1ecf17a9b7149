"""What the generated views of the engine's document (``result_types.py``) are built of: one
check per JSON type, each ``(value, path) -> value``, raising ``EngineDocumentError`` with the
path of the first field that breaks the schema (``loops.answered[3]``). Pure.

A check returns the value as the document has it (a number stays the ``int`` or ``float`` JSON
gave, so a Result built from a view equals one built from the document); only ``prefixItems``
arrays become tuples, and ``as_json`` turns a view back into the document.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Optional

from ..errors import EngineDocumentError

Check = Callable[[Any, str], Any]


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _wrong(path: str, want: str, value: Any) -> EngineDocumentError:
    return EngineDocumentError(path, f"want {want}, got {_show(value)}")


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def want_int(value: Any, path: str) -> int:
    if type(value) is not int:        # bool is an int to Python, never to JSON
        raise _wrong(path, "an integer", value)
    return value


def want_uint(value: Any, path: str) -> int:
    if type(value) is not int or value < 0:
        raise _wrong(path, "an integer, 0 or more", value)
    return value


def want_number(value: Any, path: str) -> Any:
    if type(value) not in (int, float):
        raise _wrong(path, "a number", value)
    return value


def want_str(value: Any, path: str) -> str:
    if type(value) is not str:
        raise _wrong(path, "a string", value)
    return value


def want_bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise _wrong(path, "true or false", value)
    return value


def want_any(value: Any, path: str) -> Any:
    return value


# the scalar checks as plain predicates: a long array of numbers is checked in one pass, and
# the path is built only for the element that fails
_FAST = {
    want_int: lambda v: type(v) is int,
    want_uint: lambda v: type(v) is int and v >= 0,
    want_number: lambda v: type(v) in (int, float),
    want_str: lambda v: type(v) is str,
    want_bool: lambda v: type(v) is bool,
}


def obj(value: Any, path: str) -> dict:
    if type(value) is not dict:
        raise _wrong(path or "the document", "an object", value)
    return value


def req(o: dict, path: str, key: str, check: Check) -> Any:
    """The required field ``key`` of the object ``o`` (at ``path``), checked."""
    if key not in o:
        raise EngineDocumentError(join(path, key), "missing (required by the schema)")
    return check(o[key], join(path, key))


def opt(o: dict, path: str, key: str, check: Check, default: Any = None) -> Any:
    """A field the schema does not require: ``default`` when absent."""
    return check(o[key], join(path, key)) if key in o else default


def no_extra(o: dict, path: str, known: frozenset) -> None:
    """An object the schema closes (``additionalProperties: false``) has no other field."""
    extra = sorted(set(o) - known)
    if extra:
        raise EngineDocumentError(join(path, extra[0]), "not a field of the schema")


def nullable(check: Check) -> Check:
    return lambda value, path: None if value is None else check(value, path)


def one_of(*allowed: Any) -> Check:
    def check(value: Any, path: str) -> Any:
        if type(value) is not str or value not in allowed:
            raise _wrong(path, " or ".join(repr(a) for a in allowed), value)
        return value
    return check


def list_of(item: Check, length: Optional[int] = None) -> Check:
    def check(value: Any, path: str) -> list:
        if type(value) is not list or (length is not None and len(value) != length):
            raise _wrong(path, "an array" if length is None else f"an array of {length}", value)
        fast = _FAST.get(item)
        if fast is not None:
            for i, v in enumerate(value):
                if not fast(v):
                    item(v, f"{path}[{i}]")
            return list(value)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return check


def tuple_of(*items: Check) -> Check:
    def check(value: Any, path: str) -> tuple:
        if type(value) is not list or len(value) != len(items):
            raise _wrong(path, f"an array of {len(items)}", value)
        return tuple(c(v, f"{path}[{i}]") for i, (c, v) in enumerate(zip(items, value)))
    return check


def map_of(item: Check) -> Check:
    def check(value: Any, path: str) -> dict:
        return {k: item(v, join(path, k)) for k, v in obj(value, path).items()}
    return check


def as_json(value: Any) -> Any:
    """A view (or anything in one) as the document had it: objects as dicts in the schema's key
    order (the engine writes keys sorted), tuples as arrays, an absent optional field left out."""
    if dataclasses.is_dataclass(value):
        out = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if not (v is None and f.metadata.get("omit_none")):
                out[f.name] = as_json(v)
        return out
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value
