"""The report table in the style of the published comparison: cases as rows, controllers (by
their display names) as columns, the stable verdict over the repetitions per cell; the evidence
behind each verdict, one line per repetition, listed below it."""

from __future__ import annotations

from .. import output
from .stable import score


def verdict_table(by_controller: dict, case_order: list) -> str:
    """``by_controller``: {display name: {case: Stable}} -> the table, then the evidence."""
    ctls = list(by_controller)
    rows = []
    for c in case_order:
        row = [c]
        for k in ctls:
            s = by_controller[k].get(c)
            row.append("-" if s is None else s.cell)
        rows.append(row)
    line = ["passed (rejected or ignored) of applicable"]
    for k in ctls:
        ok, n = score(list(by_controller[k].values()))  # not applicable, unmeasured: no claim
        line.append(f"{ok}/{n}" + (f" ({ok / n:.0%})" if n else ""))
    rows.append(line)
    text = output.table(["case", *ctls], rows, align="l" * (1 + len(ctls)))
    lines = [text, "", "evidence (one line per repetition):"]
    for k in ctls:
        for c in case_order:
            s = by_controller[k].get(c)
            if s is None:
                continue
            lines.append(f"  {k} / {c}: {s.verdict}")
            for i, (v, ev) in enumerate(zip(s.per_rep, s.evidence), 1):
                lines.append(f"    rep {i}: {v}: {ev}")
    return "\n".join(lines)
