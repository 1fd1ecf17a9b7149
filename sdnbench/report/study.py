""""The study and this run": a seed scenario's published figures beside this run's.

Each study scenario ``scenarios/NAME.yaml`` may have ``scenarios/NAME.study.yaml`` beside it,
checked in: the paper's figures and findings, each with where it is printed (table or figure
number), the seed file it comes from, a verbatim quote of the seed text holding the number
(``test_study.py`` fails when the quote or a number in it no longer matches the seed), and why
a difference is expected here. Row kinds:

- ``value``: a published number; this run's is a statistic (``stat``: mean, median, max, min)
  of one metric's samples in the cells matching ``where``; the ratio run / paper.
- ``best``: the paper's best scenario (``x`` value and its figure); this run's, chosen by
  ``sdnbench.stats.best_scenario`` (the paper's own procedure) over ``x``; holds when equal.
- ``order``: a finding that ``metric`` ranks ``expect`` = [first, second, ...] (best first):
  controllers, with ``by: benchmark`` benchmarks, with ``by: LABEL, by_label: true`` the values
  of a series label (a ping's size). ``where`` values may be patterns
  (``faucet:*``).
- ``trend``: a finding that ``metric`` rises or falls (``direction``) as ``x`` grows.
- ``not-here``: a system of the study that cannot run on this machine; ``spec`` names the
  ``cmd:``/``ssh:``/``tcp:`` spec that would run it.

Pure apart from reading the study file: Results in, a ``Section`` out.
"""

from __future__ import annotations

import fnmatch
import os
import re
import statistics
from pathlib import Path
from typing import Any, Optional

import yaml

from ..controllers.spec import display_name
from ..errors import UserError
from ..stats import best_scenario, higher_is_better
from ..fmt import num as fmt_number
from .model import Section, Table

STUDY_KINDS = ("value", "best", "order", "trend", "not-here")
STATS = {"mean": statistics.fmean, "median": statistics.median, "max": max, "min": min}
# per_flow_us: cbench's latency mode reports responses/s; the controller study prints it as
# µs per flow, 10^6 / (responses/s) (Ryu: 47,631 flows/s <-> 21.0 µs/flow, its Table 4)
TRANSFORMS = {"none": lambda v: v, "per_flow_us": lambda v: 1e6 / v if v else float("inf")}
SUFFIX = ".study.yaml"


def study_path(scenario_path: Optional[str], scenario_name: Optional[str], scenarios_dir: Path) -> Optional[Path]:
    """The study file beside the run's scenario file, else ``scenarios/NAME.study.yaml``."""
    cands = []
    if scenario_path:
        p = Path(scenario_path)
        cands.append(p.with_name(p.name.rsplit(".", 1)[0] + SUFFIX))
    if scenario_name:
        cands.append(scenarios_dir / f"{scenario_name}{SUFFIX}")
    return next((c for c in cands if c.is_file()), None)


def load(path: Path) -> dict:
    try:
        doc = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError) as e:
        raise UserError(f"{path}: cannot read the study's reference data: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise UserError(f"{path}: a study file needs `seed`, `study` and a list of `rows`")
    for i, row in enumerate(doc["rows"]):
        if not isinstance(row, dict) or row.get("kind") not in STUDY_KINDS:
            raise UserError(f"{path}: rows[{i}]: kind must be one of {', '.join(STUDY_KINDS)}")
        for key in ("figure", "source"):
            if not row.get(key):
                raise UserError(f"{path}: rows[{i}]: missing `{key}`")
    return doc


def samples(results: list, benchmark: Optional[str], metric: str, where: dict,
            transform: str = "none", labels: Optional[dict] = None) -> list:
    """(result, value) for each ok result of ``benchmark`` whose params match ``where``: the
    mean of its samples of ``metric`` (series ``labels`` matching), ``transform``ed."""
    labels = labels or {}
    out: list = []
    for r in results:
        if r.status != "ok" or (benchmark and r.benchmark != benchmark):
            continue
        if not all(_matches(_param(r, k), v) for k, v in where.items()):
            continue
        vals = [v for s in r.find(metric, **labels) for v in s.values if isinstance(v, (int, float))]
        if vals:      # one value per cell (a repetition), as the studies report a run's average
            v = statistics.fmean(vals)
            out.append((r, TRANSFORMS[transform](v)))
    return out


def _matches(got: Any, want: Any) -> bool:
    """Equal, or a text pattern (``faucet:*``) that matches."""
    if isinstance(want, str) and isinstance(got, str) and any(c in want for c in "*?["):
        return fnmatch.fnmatchcase(got, want)
    return got == want


def _param(r, key: str) -> Any:
    """A cell's parameter; a controller by its short name (a cmd: spec's name=, e.g. pox)."""
    v = r.params.get(key)
    if key == "controller" and isinstance(v, str):
        return display_name(v)
    return v


def compare(row: dict, results: list) -> dict:
    """{"run": text, "verdict": text} for one row against this run's results."""
    kind = row["kind"]
    if kind == "not-here":
        return {"run": "cannot run here", "verdict": f"not measured; would run as {row.get('spec', '?')}"}
    m = row.get("measure") or {}
    bench, metric, where = m.get("benchmark"), m.get("metric"), dict(m.get("where") or {})
    opts = {"transform": m.get("transform", "none"), "labels": m.get("labels")}
    if kind == "value":
        vals = [v for _, v in samples(results, bench, metric, where, **opts)]
        if not vals:
            return {"run": "not measured in this run", "verdict": "–"}
        got = STATS[m.get("stat", "mean")](vals)
        pub = row["published"]
        return {"run": f"{fmt_number(got)} {row.get('unit', '')}".strip(),
                "verdict": f"ratio {got / pub:.3g}" if pub else "–", "value": got}
    if kind in ("best", "trend"):
        by_x = _by_x(samples(results, bench, metric, where, **opts), m["x"])
        if len(by_x) < 2:
            return {"run": f"{len(by_x)} value(s) of {m['x']} measured", "verdict": "cannot tell (needs 2 or more)"}
        higher = m.get("higher", higher_is_better(metric, row.get("unit", "")))
        if kind == "best":
            b = best_scenario(by_x, higher)
            want = row["published"]["x"]
            return {"run": f"{m['x']}={b.value}: {fmt_number(b.median)} {row.get('unit', '')} "
                           f"({b.decided_by}; tried {', '.join(map(str, sorted(by_x)))})",
                    "verdict": "holds" if b.value == want else
                    (f"differs ({m['x']}={want} in the paper)" if want in by_x else
                     f"{m['x']}={want} not measured here")}
        xs = sorted(by_x)
        meds = [statistics.median(by_x[x]) for x in xs]
        falling = all(b <= a for a, b in zip(meds, meds[1:]))
        rising = all(b >= a for a, b in zip(meds, meds[1:]))
        seen = "falls" if falling else "rises" if rising else "neither rises nor falls throughout"
        return {"run": f"{seen}: " + ", ".join(f"{x}: {fmt_number(v)}" for x, v in zip(xs, meds)),
                "verdict": "holds" if (row["direction"] == "falls" and falling) or
                (row["direction"] == "rises" and rising) else "does not hold"}
    if kind == "order":
        stat = STATS[m.get("stat", "median")]
        key = m.get("by", "controller")
        got = {}
        for name in row["expect"]:
            if key == "benchmark":       # the same metric of two benchmarks (C2S vs C2SP5)
                vals = [v for _, v in samples(results, name, metric, where, **opts)]
            elif m.get("by_label"):      # a series label (a ping's size)
                vals = [v for _, v in samples(results, bench, metric, where, opts["transform"],
                                              {**(opts["labels"] or {}), key: name})]
            else:
                vals = [v for _, v in samples(results, bench, metric, {**where, key: name}, **opts)]
            if vals:
                got[name] = stat(vals)
        if len(got) < len(row["expect"]):
            return {"run": ", ".join(f"{k}: {fmt_number(v)}" for k, v in got.items()) or "not measured",
                    "verdict": "cannot tell (not all measured)"}
        higher = m.get("higher", higher_is_better(metric, row.get("unit", "")))
        ranked = sorted(got, key=got.get, reverse=higher)
        return {"run": " > ".join(f"{k} {fmt_number(got[k])}" for k in ranked) if higher else
                " < ".join(f"{k} {fmt_number(got[k])}" for k in ranked),
                "verdict": "holds" if ranked == list(row["expect"]) else "does not hold"}
    raise UserError(f"unknown study row kind {kind!r}")


def _by_x(pairs: list, x: str) -> dict:
    by: dict = {}
    for r, v in pairs:
        xv = r.params.get(x)
        if xv is not None:
            by.setdefault(xv, []).append(v)
    return by


def section(doc: dict, results: list) -> Section:
    s = Section("The study and this run")
    s.text.append(f"Published: {doc.get('study', '?')} (seed {doc.get('seed', '?')}). Each row: the paper's "
                  "figure or finding with where it is printed, this run's, the ratio (this run / the paper) or "
                  "whether the finding holds, and why a difference is expected.")
    if doc.get("note"):
        s.text.append(doc["note"])
    rows = []
    for row in doc["rows"]:
        got = compare(row, results)
        rows.append([row["figure"], f"{row['source']} ({doc.get('seed', '?')})", _published(row),
                     got["run"], got["verdict"], row.get("why", "")])
    s.tables.append(Table("The study and this run", ["figure or finding", "where", "paper", "this run",
                                                     "ratio / holds?", "why a difference is expected"],
                          rows, kind="study"))
    return s


def _published(row: dict) -> str:
    p = row.get("published")
    unit = row.get("unit", "")
    if isinstance(p, dict):
        return f"{row['measure']['x']}={p['x']}: {fmt_number(p['value'])} {unit}".strip()
    if isinstance(p, (int, float)):
        return f"{fmt_number(p)} {unit}".strip()
    return str(row.get("claim", p or "–"))


def study_section(runs: list, scenarios_dir: Path) -> Optional[Section]:
    """The section for the first run whose scenario has a study file; None when none has."""
    for run in runs:
        meta = run.meta or {}
        path = study_path(meta.get("scenario_path"), meta.get("scenario"), scenarios_dir)
        if path is not None:
            return section(load(path), run.results)
    return None


# --- the reference data against the seed text it cites -------------------------------------

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def seeds_dir() -> Path:
    """Where the seed texts are: ``$SDNBENCH_SEEDS``, else ``shared/seeds`` beside the checkout
    (where the project's CI lays it)."""
    if os.environ.get("SDNBENCH_SEEDS"):
        return Path(os.environ["SDNBENCH_SEEDS"])
    return Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _squash(text: str) -> str:
    return " ".join(text.split())


def published_numbers(row: dict) -> list:
    p = row.get("published")
    nums = list(row.get("published_numbers") or [])
    if isinstance(p, dict):
        nums += [p["x"], p["value"]]
    elif isinstance(p, (int, float)) and not isinstance(p, bool):
        nums.append(p)
    return nums


def check_against_seed(doc: dict, seed_text: str) -> list:
    """Every problem with a study file against its seed: a quote not in the seed text, or a
    published number not in its quote (decimal commas read as points: 850,5 = 850.5)."""
    problems = []
    text = _squash(seed_text)
    for i, row in enumerate(doc["rows"]):
        quotes = row.get("quote") or []
        quotes = [quotes] if isinstance(quotes, str) else list(quotes)
        if not quotes:
            problems.append(f"rows[{i}] ({row.get('figure')}): no quote from the seed")
            continue
        for q in quotes:
            if _squash(q) not in text:
                problems.append(f"rows[{i}] ({row.get('figure')}): quote not in {doc.get('seed')}: {q!r}")
        quote = " … ".join(quotes)
        in_quote = {float(n.replace(",", ".")) for n in _NUMBER.findall(quote)}
        for n in published_numbers(row):
            if float(n) not in in_quote:
                problems.append(f"rows[{i}] ({row.get('figure')}): {n} is not in its quote {quote!r}")
    return problems
