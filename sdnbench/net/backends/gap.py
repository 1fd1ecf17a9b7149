"""Emulated-vs-real gap tables (pure): the same scenario's results from two backends, in the
seed studies' form — per switch (or host pair) and per size: the emulated average, the real
average, the gap (real − emulated), the ratio (real / emulated), and whether the difference is
significant.

Samples are pooled per condition over repetitions (raw samples first: the averages and the test
are computed from them). A condition is ``(metric, switch or src->dst, size)``; size is the ping
payload (``size`` label) or the UDP datagram length (the result's ``udp.length`` parameter).
Significance: ``stats.significance.auto_test`` (Welch's t when both samples pass Shapiro–Wilk,
else Mann–Whitney U); marks ``*`` p < 0.05, ``**`` p < 0.01, ``***`` p < 0.001, blank otherwise,
``n/a`` when no test is possible (e.g. fewer than two samples; the reason is kept).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Optional

from ...stats.significance import auto_test
from ...stats.summary import clean

# metric -> its label in tables (the campus study's metrics)
METRICS = {"rtt": "ICMP RTT", "tcp_throughput": "TCP throughput", "udp_throughput": "UDP throughput",
           "udp_jitter": "UDP jitter", "udp_loss": "UDP loss", "ditg_delay": "D-ITG delay"}


@dataclass
class GapRow:
    metric: str
    unit: str
    where: str                  # switch label, or "src->dst"
    size: Optional[int]
    emulated: Optional[float]   # mean of the pooled samples
    real: Optional[float]
    gap: Optional[float]        # real - emulated
    ratio: Optional[float]      # real / emulated
    n_emulated: int
    n_real: int
    test: str
    p_value: Optional[float]
    mark: str                   # "", "*", "**", "***" or "n/a"
    note: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def mark(p: Optional[float]) -> str:
    if p is None:
        return "n/a"
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def samples(results: list) -> dict:
    """``{(metric, where, size): (unit, [values])}`` pooled over every result and repetition."""
    out: dict = {}
    for r in results:
        length = ((r.params or {}).get("udp") or {}).get("length")
        for s in r.series:
            if s.metric not in METRICS:
                continue
            lab = s.labels
            where = lab.get("switch") or f"{lab.get('src')}->{lab.get('dst')}"
            size = lab.get("size")
            if size is None and s.metric.startswith("udp_") and length is not None:
                size = int(length)
            key = (s.metric, str(where), size)
            out.setdefault(key, (s.unit, []))[1].extend(s.values)
    return out


def gap_rows(emulated: list, real: list) -> list:
    """One row per condition measured on both backends, in metric, place, size order."""
    a, b = samples(emulated), samples(real)
    order = list(METRICS)
    keys = sorted(set(a) & set(b), key=lambda k: (order.index(k[0]), _natural(k[1]), k[2] or 0))
    rows = []
    for key in keys:
        (unit, xs), (_u, ys) = a[key], b[key]
        x, y = clean(xs)[0], clean(ys)[0]
        em = float(x.mean()) if len(x) else None
        re = float(y.mean()) if len(y) else None
        t = auto_test(xs, ys)
        rows.append(GapRow(
            metric=key[0], unit=unit, where=key[1], size=key[2], emulated=em, real=re,
            gap=None if em is None or re is None else re - em,
            ratio=None if em in (None, 0) or re is None else re / em,
            n_emulated=len(x), n_real=len(y), test=t.test, p_value=t.p_value,
            mark=mark(t.p_value), note=t.note))
    return rows


def _natural(s: str) -> tuple:
    import re
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s))


def markdown(rows: list, emulated_name: str = "emulated", real_name: str = "real") -> str:
    """One table per metric: rows per switch/pair and size, as in the studies' gap tables."""
    out = []
    for metric in dict.fromkeys(r.metric for r in rows):
        mine = [r for r in rows if r.metric == metric]
        unit = mine[0].unit
        out.append(f"### {METRICS[metric]} ({unit}): {emulated_name} vs {real_name}\n")
        out.append(f"| switch/pair | size | {emulated_name} | {real_name} | gap | ratio | p | sig. |")
        out.append("|---|---:|---:|---:|---:|---:|---:|:--:|")
        for r in mine:
            out.append(f"| {r.where} | {'' if r.size is None else r.size} | {_num(r.emulated)} | "
                       f"{_num(r.real)} | {_num(r.gap, signed=True)} | {_num(r.ratio)} | "
                       f"{'' if r.p_value is None else f'{r.p_value:.3g}'} | {r.mark} |")
        out.append("")
    out.append("gap = real − emulated; ratio = real / emulated; sig.: * p<0.05, ** p<0.01, "
               "*** p<0.001 (Welch's t if both samples look normal, else Mann–Whitney U), "
               "n/a: too few samples for a test.")
    return "\n".join(out) + "\n"


def _num(v: Optional[float], signed: bool = False) -> str:
    if v is None:
        return "–"
    text = f"{v:+.4g}" if signed else f"{v:.4g}"
    return text
