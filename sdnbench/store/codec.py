"""Compact, lossless encoding of a series' samples for the store.

- all ``int`` (not bool) within int64: ``i8``, little-endian signed 64-bit;
- all ``float`` or a mix of ints and floats: ``f8``, little-endian IEEE 754 double, with the
  positions of the ints kept so they come back as ints (``f8i``: a JSON list of those positions
  is appended after the doubles, so ``[1, 2.5]`` round-trips exactly, not as ``[1.0, 2.5]``);
- anything else (``None`` for a lost probe, strings, bools): ``json``.

Invariant: ``decode(*encode(v)) == v`` with the same element types, for every list ``v`` that
JSON can hold (NaN and infinities included in the binary forms).
"""

from __future__ import annotations

import json
import struct
from typing import Tuple

_I64 = (-(1 << 63), (1 << 63) - 1)


def encode(values: list) -> Tuple[str, bytes]:
    vals = list(values)
    if all(type(v) is int for v in vals) and all(_I64[0] <= v <= _I64[1] for v in vals):
        return "i8", struct.pack(f"<{len(vals)}q", *vals)
    if all(type(v) in (int, float) for v in vals) and all(
            type(v) is float or abs(v) < (1 << 53) for v in vals):
        ints = [i for i, v in enumerate(vals) if type(v) is int]
        body = struct.pack(f"<{len(vals)}d", *vals)
        if not ints:
            return "f8", body
        return "f8i", body + json.dumps(ints, separators=(",", ":")).encode()
    return "json", json.dumps(vals, separators=(",", ":"), allow_nan=True).encode()


def decode(dtype: str, blob: bytes, n: int) -> list:
    if dtype == "i8":
        return list(struct.unpack(f"<{n}q", blob))
    if dtype in ("f8", "f8i"):
        vals = list(struct.unpack(f"<{n}d", blob[:8 * n]))
        if dtype == "f8i":
            for i in json.loads(blob[8 * n:]):
                vals[i] = int(vals[i])
        return vals
    if dtype == "json":
        return json.loads(blob)
    raise ValueError(f"unknown sample encoding {dtype!r}")
