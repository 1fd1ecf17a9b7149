"""How numbers, units, plurals, values and tables are written for people: the one place of those rules.

- numbers: a whole column shares one number of decimals, chosen so its smallest non-zero value
  keeps ``SIG`` significant digits (``column``); thousands are separated (``12,345``);
- units are scaled (B -> KiB/MiB/GiB, s -> ms/µs/ns) and always named, µs never "us" (``scaled``);
- plurals are right ("1 switch", "2 switches") (``plural``);
- no Python reprs: None is "—", a dict is "key=value, ...", True is "yes" (``show``);
- tables fit the terminal (``table``), cutting the widest column with "…" rather than wrapping.
The same functions serve the terminal, Markdown and HTML tables.
"""

from __future__ import annotations

import math
import shutil
from typing import Iterable, Optional, Sequence

SIG = 3
DASH = "—"
_BYTES = ("B", "KiB", "MiB", "GiB", "TiB")
_TIMES = (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9))
_UNIT_NAMES = {"us": "µs", "usec": "µs", "msec": "ms", "sec": "s", "bytes": "B",
               "us/flow": "µs/flow"}
_IRREGULAR = {"switch": "switches", "match": "matches", "entry": "entries", "is": "are",
              "was": "were", "process": "processes", "repetition": "repetitions"}


def unit_name(unit: Optional[str]) -> str:
    """The unit as people write it: "us" -> "µs"."""
    return _UNIT_NAMES.get(unit or "", unit or "")


def plural(n: float, word: str, many: Optional[str] = None) -> str:
    """``plural(1, "switch")`` -> "1 switch"; ``plural(3, "switch")`` -> "3 switches"."""
    if n == 1:
        return f"1 {word}"
    many = many or _IRREGULAR.get(word) or (word[:-1] + "ies" if word.endswith("y") and
                                            word[-2:-1] not in "aeiou" else
                                            word + "es" if word.endswith(("s", "x", "ch", "sh"))
                                            else word + "s")
    return f"{num(n)} {many}"


def decimals_for(values: Iterable, sig: int = SIG) -> int:
    """Decimals that give a column's typical (median) non-zero magnitude ``sig`` significant
    digits (0..6): a stray tiny value does not give the whole column six decimals."""
    mags = sorted(abs(float(v)) for v in values if _is_number(v) and v and math.isfinite(float(v)))
    if not mags:
        return 0
    typical = mags[(len(mags) - 1) // 2]
    return max(0, min(6, sig - 1 - math.floor(math.log10(typical))))


def num(v, decimals: Optional[int] = None, sig: int = SIG) -> str:
    """One number: thousands separated, ``decimals`` given or chosen for ``sig`` digits."""
    if not _is_number(v):
        return show(v)
    x = float(v)
    if not math.isfinite(x):
        return "∞" if x > 0 else "-∞" if x < 0 else DASH
    if decimals is None:
        decimals = 0 if float(x).is_integer() and abs(x) >= 1 else decimals_for([x], sig)
    return f"{x:,.{decimals}f}"


def plus_minus(value: float, half: float) -> str:
    """``value ± half`` as a measurement is written: the uncertainty to two significant digits,
    the value to the same decimal place (20.7 ± 0.632 -> "20.70 ± 0.63"; 71,783 ± 5,099 ->
    "71,800 ± 5,100"). A zero or missing half shows the value alone."""
    if not half or not math.isfinite(half):
        return num(value)
    place = 1 - math.floor(math.log10(abs(half)))          # decimals for 2 significant digits
    if place >= 0:
        return f"{num(round(value, place), place)} ± {num(round(half, place), place)}"
    step = 10 ** -place
    return f"{num(round(value / step) * step, 0)} ± {num(round(half / step) * step, 0)}"


def column(values: Sequence, sig: int = SIG) -> list:
    """A column of numbers with one shared number of decimals (non-numbers via ``show``)."""
    nums = [float(v) for v in values if _is_number(v) and math.isfinite(float(v))]
    d = 0 if all(x.is_integer() for x in nums) else decimals_for(values, sig)
    return [num(v, d) if _is_number(v) else show(v) for v in values]


def scaled(value, unit: Optional[str]) -> tuple:
    """``(value, unit)`` in the unit that reads best: 1536 B -> 1.5 KiB, 0.00042 s -> 420 µs."""
    values, u = scale_all([value], unit)
    return values[0], u


def scale_all(values: Sequence, unit: Optional[str]) -> tuple:
    """Scale a whole column by one factor, chosen for its largest magnitude."""
    factor, name = scale_factor(values, unit)
    return [float(v) / factor if _is_number(v) else v for v in values], name


def scale_factor(values: Sequence, unit: Optional[str]) -> tuple:
    """``(divide by, unit name)`` for a column: its largest magnitude decides."""
    u = unit_name(unit)
    nums = [abs(float(v)) for v in values if _is_number(v) and math.isfinite(float(v))]
    top = max(nums) if nums else 0.0
    factor, name = 1.0, u
    if u == "B":
        i = 0
        while i + 1 < len(_BYTES) and top >= 1024 ** (i + 1):
            i += 1
        factor, name = 1024.0 ** i, _BYTES[i]
    elif u in ("s", "ms", "µs", "ns"):
        base = dict(_TIMES)[u]
        for name_, f in _TIMES:
            if top * base >= f or name_ == "ns":
                factor, name = f / base, name_
                break
    return factor, name


def show(v) -> str:
    """Any value, without Python reprs."""
    if v is None:
        return DASH
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return num(v)
    if isinstance(v, dict):
        return ", ".join(f"{k}={show(x)}" for k, x in v.items()) or DASH
    if isinstance(v, (list, tuple, set)):
        return ", ".join(show(x) for x in v) or DASH
    return str(v)


def table(headers: Sequence[str], rows: Sequence[Sequence], width: Optional[int] = None,
          right: Optional[Sequence[bool]] = None, shrink: Sequence[int] = ()) -> str:
    """A plain-text table that fits ``width`` (default: the terminal's). Cells are strings
    (format numbers with ``column`` first); numbers are right-aligned, text left-aligned.
    Too wide, the ``shrink`` columns are cut first (e.g. free-text notes), then the widest."""
    width = width or shutil.get_terminal_size((100, 24)).columns
    cells = [[str(h) for h in headers]] + [[show(c) if not isinstance(c, str) else c for c in r]
                                          for r in rows]
    n = len(headers)
    if right is None:
        right = [all(_looks_numeric(r[i]) for r in cells[1:]) and len(cells) > 1 for i in range(n)]
    widths = [max(len(r[i]) for r in cells) for i in range(n)]
    while sum(widths) + 2 * (n - 1) > width:
        first = [k for k in shrink if widths[k] > 12]
        i = first[0] if first else max(range(n), key=lambda k: widths[k])
        if widths[i] <= 6:
            break
        widths[i] -= 1
    lines = []
    for k, r in enumerate(cells):
        parts = [_fit(r[i], widths[i], right[i]) for i in range(n)]
        lines.append("  ".join(parts).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fit(text: str, w: int, right: bool) -> str:
    if len(text) > w:
        text = text[:w - 1] + "…"
    return text.rjust(w) if right else text.ljust(w)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _looks_numeric(s: str) -> bool:
    t = s.replace(",", "").replace("%", "").replace("±", "").rstrip(" ▲▼*").strip()
    if t in ("", DASH):
        return True
    try:
        float(t.split()[0] if t.split() else t)
        return True
    except ValueError:
        return False


def summary_line(label: str, what: str, values: Sequence, unit: str = "") -> str:
    """One hyperfine-style summary line naming what it summarises:
    ``4 switches  throughput mode, answered requests/s: 33,661 ± 1,204 (mean ± σ over 3 runs),
    range 32,100 … 34,900``; one value is shown alone, without a "± 0"."""
    vals = [float(v) for v in values if _is_number(v)]
    if not vals:
        return f"{label}  {what}: no values"
    factor, u = scale_factor(vals, unit)
    vals = [v / factor for v in vals]
    u = f" {u}" if u else ""
    mean = sum(vals) / len(vals)
    if len(vals) == 1:
        return f"{label}  {what}: {num(mean)}{u} (1 run)"
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1))
    m, s, lo, hi = column([mean, sd, min(vals), max(vals)])
    return (f"{label}  {what}: {m} ± {s}{u} (mean ± σ over {plural(len(vals), 'run')}), "
            f"range {lo} … {hi}")
