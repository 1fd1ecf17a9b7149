"""What a run found, as tables (pure): per target and version the tests OK and ERROR by
category, and two targets side by side: per category, and every test the first passes and
the second does not, with the second's reason.

A run here is a ``Result`` of ``runner.run`` (or one read back from ``-o`` or the store): its
``params`` (target, of_version), ``topology["tests"]`` ([file, test, OK|ERROR, reason]).
"""

from __future__ import annotations

from collections import Counter

OK = "OK"


def category(file_desc: str) -> str:
    """A pattern file's category from its description ("action: 00_OUTPUT" -> "action")."""
    return file_desc.split(":", 1)[0].strip() or "?"


def tests(result) -> list:
    return [tuple(t) for t in (result.topology or {}).get("tests", [])]


def by_category(result) -> dict:
    """category -> (ok, error)."""
    ok, err = Counter(), Counter()
    for f, _, res, _ in tests(result):
        (ok if res == OK else err)[category(f)] += 1
    return {c: (ok[c], err[c]) for c in sorted(set(ok) | set(err))}


SUMMARY_HEADERS = ["target", "OpenFlow", "category", "OK", "ERROR", "tests"]


def summary_rows(results: list) -> list:
    rows = []
    for r in results:
        cats = by_category(r)
        for c, (ok, err) in cats.items():
            rows.append([r.params["target"], r.params["of_version"], c, ok, err, ok + err])
        ok = sum(v[0] for v in cats.values())
        err = sum(v[1] for v in cats.values())
        rows.append([r.params["target"], r.params["of_version"], "all", ok, err, ok + err])
    return rows


def pairs_by_version(results: list) -> list:
    """(version, first target's run, second target's run) for every version both ran."""
    targets = list(dict.fromkeys(r.params["target"] for r in results))
    if len(targets) < 2:
        return []
    a, b = targets[:2]
    runs = {(r.params["target"], r.params["of_version"]): r for r in results}
    return [(v, runs[(a, v)], runs[(b, v)]) for v in dict.fromkeys(r.params["of_version"] for r in results)
            if (a, v) in runs and (b, v) in runs]


def side_by_side_rows(ra, rb) -> list:
    """Per category: tests, OK on A, OK on B, OK on both, OK on A only, OK on B only."""
    a = {(f, t): res for f, t, res, _ in tests(ra)}
    b = {(f, t): res for f, t, res, _ in tests(rb)}
    cats: dict = {}
    for k in list(dict.fromkeys(list(a) + list(b))):
        c = cats.setdefault(category(k[0]), Counter())
        ia, ib = a.get(k) == OK, b.get(k) == OK
        c["tests"] += 1
        c["a"] += ia
        c["b"] += ib
        c["both"] += ia and ib
        c["only_a"] += ia and not ib
        c["only_b"] += ib and not ia
    return [[c, n["tests"], n["a"], n["b"], n["both"], n["only_a"], n["only_b"]] for c, n in sorted(cats.items())]


def side_by_side_headers(ra, rb) -> list:
    a, b = ra.params["target"], rb.params["target"]
    return ["category", "tests", f"OK {a}", f"OK {b}", "OK both", f"OK {a} only", f"OK {b} only"]


def regressions(ra, rb) -> list:
    """[(file, test, B's result, B's reason)] for every test A passes and B does not (B missing: not run)."""
    b = {(f, t): (res, why) for f, t, res, why in tests(rb)}
    out = []
    for f, t, res, _ in tests(ra):
        if res != OK:
            continue
        rb_res, why = b.get((f, t), ("not run", ""))
        if rb_res != OK:
            out.append((f, t, rb_res, why))
    return out


def reasons(regs: list) -> list:
    """[(reason's kind, count)]: the text before the first ':' of each reason, most frequent first."""
    c = Counter((why.split(":", 1)[0] if why else res) for _, _, res, why in regs)
    return c.most_common()
