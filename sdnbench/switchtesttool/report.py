"""What a run found, as tables (pure): per target and version the tests OK and ERROR by
category, and two targets side by side: per category, and every test the first passes and
the second does not, with the second's reason. With more targets the last is the subject and
the others its references: what any reference passes is the subject's target, and a test a
reference passes and the subject fails is a finding (``union_rows``, ``findings``).

A run here is a ``Result`` of ``runner.run`` (or one read back from ``-o`` or the store): its
``params`` (target, of_version; ``rep`` on a rerun), ``topology["tests"]`` ([file, test,
OK|ERROR, reason]). The tables are of each target's first run; the reruns of the files holding
findings (``--repeat``) give the noise floor (``noise_floor``): a finding stands only when a
reference passed it every time and the subject never.
"""

from __future__ import annotations

from collections import Counter

OK = "OK"


def category(file_desc: str) -> str:
    """A pattern file's category from its description ("action: 00_OUTPUT" -> "action")."""
    return file_desc.split(":", 1)[0].strip() or "?"


def rep(result) -> int:
    """0 for a first run, k for the k-th rerun of the files holding findings."""
    return int(result.params.get("rep", 0))


def first_runs(results: list) -> list:
    return [r for r in results if rep(r) == 0]


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


def groups_by_version(results: list) -> list:
    """(version, the references' runs, the subject's run) for every version the subject and at
    least one reference ran: the last target named is the subject (``--target ovs,cpqd,emulated``:
    the emulated switch), every earlier one a reference."""
    results = first_runs(results)
    targets = list(dict.fromkeys(r.params["target"] for r in results))
    if len(targets) < 2:
        return []
    *refs, subject = targets
    runs = {(r.params["target"], r.params["of_version"]): r for r in results}
    out = []
    for v in dict.fromkeys(r.params["of_version"] for r in results):
        have = [runs[(t, v)] for t in refs if (t, v) in runs]
        if have and (subject, v) in runs:
            out.append((v, have, runs[(subject, v)]))
    return out


def _ok(run) -> set:
    return {(f, t) for f, t, res, _ in tests(run) if res == OK}


def union_headers(refs: list, subject) -> list:
    s = subject.params["target"]
    return (["category", "tests"] + [f"OK {r.params['target']}" for r in refs]
            + ["OK a reference", f"OK {s}", f"reference only (findings on {s})", f"OK {s} only"])


def union_rows(refs: list, subject) -> list:
    """Per category: tests, OK on each reference, OK on any reference (the subject's target), OK
    on the subject, OK on a reference and not the subject (findings), OK on the subject only."""
    keys = list(dict.fromkeys(k for run in [*refs, subject] for k in ((f, t) for f, t, _, _ in tests(run))))
    oks = [_ok(r) for r in refs]
    union, subj = set().union(*oks), _ok(subject)
    cats: dict = {}
    for k in keys:
        c = cats.setdefault(category(k[0]), [0] * (len(refs) + 5))
        c[0] += 1
        for i, ok in enumerate(oks):
            c[1 + i] += k in ok
        n = len(refs)
        c[n + 1] += k in union
        c[n + 2] += k in subj
        c[n + 3] += k in union and k not in subj
        c[n + 4] += k in subj and k not in union
    return [[c, *n] for c, n in sorted(cats.items())]


def findings(refs: list, subject) -> list:
    """[(file, test, the references that pass it, the subject's result, its reason)] for every
    test a reference passes and the subject does not (missing from its run: "not run")."""
    got = {(f, t): (res, why) for f, t, res, why in tests(subject)}
    passed: dict = {}
    for r in refs:
        for k in _ok(r):
            passed.setdefault(k, []).append(r.params["target"])
    order = list(dict.fromkeys((f, t) for r in refs for f, t, _, _ in tests(r)))
    out = []
    for k in order:
        if k in passed:
            res, why = got.get(k, ("not run", ""))
            if res != OK:
                out.append((k[0], k[1], ",".join(passed[k]), res, why))
    return out


# a finding's verdict once its file ran more than once on every target (``noise_floor``)
FINDING = "finding"          # a reference passed it every run, the subject in none
NOISE = "noise"              # the subject passed it too, and every reference that passed it also failed it
UNSETTLED = "unsettled"      # anything else: the counts say how far apart


def verdict(counts: dict, subject: str) -> str:
    """``counts``: target -> (runs OK, runs with an outcome) for one test."""
    ok_s, _ = counts.get(subject, (0, 0))
    refs = [(ok, n) for t, (ok, n) in counts.items() if t != subject and ok]
    if ok_s == 0 and any(ok == n and n > 1 for ok, n in refs):
        return FINDING
    if ok_s > 0 and all(ok < n for ok, n in refs):
        return NOISE
    return UNSETTLED


def noise_floor(results: list) -> list:
    """[(version, subject, targets, [(file, test, {target: (ok, runs)}, verdict)])] for every
    version whose findings (first runs) were run again (``rep`` > 0): each test counted over
    every run of every target that gave it an outcome."""
    reruns = [r for r in results if rep(r) > 0]
    out = []
    for v, refs, subject in groups_by_version(results):
        mine = [r for r in reruns if r.params["of_version"] == v]
        if not mine:
            continue
        s = subject.params["target"]
        targets = [r.params["target"] for r in refs] + [s]
        every = [(run.params["target"], {(a, b): x for a, b, x, _ in tests(run)}) for run in [*refs, subject, *mine]]
        rows = []
        for f, t, *_ in findings(refs, subject):
            counts: dict = {}
            for target, got in every:
                if (f, t) in got:
                    ok, n = counts.get(target, (0, 0))
                    counts[target] = (ok + (got[(f, t)] == OK), n + 1)
            rows.append((f, t, counts, verdict(counts, s)))
        out.append((v, s, targets, rows))
    return out
