"""A benchmark kind's stored counters, declared once and read typed.

A ``Result`` keeps its counters as a JSON object (``Result.counters``), and that is what the store
holds, byte for byte. Each kind that stores counters declares them ONCE, as a frozen dataclass
whose fields are ``counter(unit, meaning)``: the field's name is the stored key, its annotation
the type, and the metadata the unit and meaning. ``View.of(result)`` reads a stored result into
that view:

- a declared counter the result lacks (a result stored before the counter existed) is ``None``:
  every field is ``Optional``, so old stores still load and the reader says what absent means;
- reading a counter that is not declared is an ``AttributeError`` (a misspelt
  ``view.latency_p50`` fails loudly; ``counters.get("latency_p50")`` read ``None``);
- a family of keys (``replies_<type>``) is one field with ``prefix=``: a dict without the prefix.

The writers keep writing the dict; ``undeclared`` and ``problems`` are what their tests check, so
a counter written but not declared (or of another type) fails there, not in a reader.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Optional, TypeVar

V = TypeVar("V", bound="View")
_TYPES = {int: (int,), float: (int, float), str: (str,), bool: (bool,), dict: (dict,), list: (list,)}


def counter(unit: str, meaning: str, prefix: Optional[str] = None, item: type = int) -> Any:
    """One declared counter: ``unit`` ("requests", "us", "s", "" for a count of things named by
    the field) and what it means. ``prefix``: the field (a dict) gathers the keys
    ``<prefix><name>`` as ``{name: value}``, each value an ``item``."""
    return dataclasses.field(default=None, metadata={"unit": unit, "meaning": meaning, "prefix": prefix,
                                                     "item": item})


@dataclasses.dataclass(frozen=True)
class View:
    """Base of each kind's counters view (subclass with ``@dataclass(frozen=True)``)."""

    @classmethod
    def of(cls: type[V], result: Any) -> V:
        """The view of a stored ``Result`` (its ``counters``)."""
        return cls.from_counters(result.counters or {})

    @classmethod
    def from_counters(cls: type[V], counters: dict) -> V:
        names = {f.name for f in dataclasses.fields(cls) if not f.metadata.get("prefix")}
        values: dict = {}
        for f in dataclasses.fields(cls):
            p = f.metadata.get("prefix")
            if p:
                got = {k[len(p):]: v for k, v in counters.items() if k.startswith(p) and k not in names}
                values[f.name] = got if got else None
            else:
                values[f.name] = counters.get(f.name)
        return cls(**values)

    @classmethod
    def declared(cls) -> list:
        """``[(name, type, unit, meaning)]`` in declaration order (a prefix field is ``<prefix>*``)."""
        hints = typing.get_type_hints(cls)
        return [(f"{f.metadata['prefix']}*" if f.metadata.get("prefix") else f.name, _base(hints[f.name]),
                 f.metadata["unit"], f.metadata["meaning"]) for f in dataclasses.fields(cls)]

    @classmethod
    def undeclared(cls, counters: dict) -> list:
        """The keys of ``counters`` that no field of this view declares."""
        fields = dataclasses.fields(cls)
        names = {f.name for f in fields if not f.metadata.get("prefix")}
        prefixes = tuple(f.metadata["prefix"] for f in fields if f.metadata.get("prefix"))
        return sorted(k for k in counters if k not in names and not (prefixes and k.startswith(prefixes)))

    @classmethod
    def problems(cls, counters: dict) -> list:
        """``["key: why"]``: undeclared keys and values not of the declared type (``None`` passes:
        every counter may be absent or null)."""
        out = [f"{k}: not declared in {cls.__name__}" for k in cls.undeclared(counters)]
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            p = f.metadata.get("prefix")
            want = _TYPES[f.metadata["item"] if p else _base(hints[f.name])]
            items = ({k: v for k, v in counters.items() if k.startswith(p) and k not in hints} if p
                     else {f.name: counters[f.name]} if f.name in counters else {})
            for k, v in items.items():
                if v is not None and (not isinstance(v, want) or (isinstance(v, bool) and bool not in want)):
                    out.append(f"{k}: {type(v).__name__}, declared {want[-1].__name__}")
        return out


def _base(hint: Any) -> type:
    """``Optional[int]`` -> ``int``; ``Optional[dict]`` -> ``dict``."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    t = args[0] if args else hint
    return typing.get_origin(t) or t
