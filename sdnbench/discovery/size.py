"""Network discovery size (RFC 8456 §5.2.2): grow the topology's size argument (the first number
of the spec: ring,N / linear,N / mesh,N / fattree,K ...) by doubling until a trial fails (not
complete, or slower than the deadline), then bisect between the last success and the first
failure until they are ``precision`` apart (at most 5% of the size, at least 1). Pure: ``ok(n)``
runs the trial."""

from __future__ import annotations

from typing import Callable, Optional

from ..errors import UserError


def with_size(spec: str, n: int) -> str:
    head, *args = spec.split(",")
    if not args or not args[0].isdigit():
        raise UserError(f"--size-search: {spec} has no size to grow (use e.g. ring,10 or linear,10)")
    return ",".join([head, str(n), *args[1:]])


def start_size(spec: str) -> int:
    with_size(spec, 1)
    return int(spec.split(",")[1])


def search(start: int, ok: Callable[[int], bool], limit: int, precision: Optional[Callable[[int], int]] = None) -> dict:
    """{"largest": N or None, "first_failure": N or None, "tried": [(n, ok), ...]}."""
    precision = precision or (lambda n: max(1, n // 20))
    tried: list = []

    def run(n: int) -> bool:
        good = ok(n)
        tried.append((n, good))
        return good

    lo, hi, n = None, None, start
    while n <= limit:
        if run(n):
            lo, n = n, n * 2
        else:
            hi = n
            break
    if lo is None:
        return {"largest": None, "first_failure": hi, "tried": tried}
    if hi is None:
        return {"largest": lo, "first_failure": None, "tried": tried, "stopped": f"reached the limit {limit}"}
    while hi - lo > precision(lo):
        mid = (lo + hi) // 2
        if run(mid):
            lo = mid
        else:
            hi = mid
    return {"largest": lo, "first_failure": hi, "tried": tried}
