"""The report table in the style of the published comparison: cases as rows, controllers as
columns, a verdict per cell; the evidence behind each verdict listed below it."""

from __future__ import annotations

from .. import output


def verdict_table(by_controller: dict, case_order: list) -> str:
    """``by_controller``: {controller: {case: Verdict}} -> the table, then the evidence."""
    ctls = list(by_controller)
    rows = []
    for c in case_order:
        row = [c]
        for k in ctls:
            v = by_controller[k].get(c)
            row.append("-" if v is None else v.verdict + (" (restarted)" if v.restarted else ""))
        rows.append(row)
    score = ["passed (rejected or ignored) of measured"]
    for k in ctls:
        vs = [v for v in by_controller[k].values() if v.verdict != "unmeasured"]  # no baseline: no claim
        ok = sum(v.verdict in ("rejected", "ignored") for v in vs)  # fooled is a failure
        score.append(f"{ok}/{len(vs)}" + (f" ({ok / len(vs):.0%})" if vs else ""))
    rows.append(score)
    text = output.table(["case", *ctls], rows, align="l" * (1 + len(ctls)))
    lines = [text, "", "evidence:"]
    for k in ctls:
        for c in case_order:
            v = by_controller[k].get(c)
            if v is not None:
                lines.append(f"  {k} / {c}: {v.verdict}: {v.evidence}")
    return "\n".join(lines)
