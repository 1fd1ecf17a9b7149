"""The per-switch records in a columnar file beside the engine's result (``switches_file.py``):
a result written that way reads as the one with its records inside, and ``sdnbench report`` and
``compare`` say the same of both. The Rust side (``export/columnar.rs``) tests its own round trip
on the same goldens; the last test here reads what the real engine wrote."""

import gzip
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sdnbench.cli import main
from sdnbench.engine import convert, driver, params
from sdnbench.engine.switches_file import SCHEMA, rows
from sdnbench.errors import EngineDocumentError
from sdnbench.testing.engine_fixtures import responder

GOLDEN = Path(__file__).resolve().parents[2] / "crates/engine/tests/golden"


def _columnar(recs: list, block: int) -> dict:
    """The format of ``export/columnar.rs`` (its writer is tested against the same goldens)."""
    blocks = []
    for i in range(0, len(recs), block):
        part = recs[i:i + block]
        keys = sorted({k for r in part for k in r})
        absent = [k for k in keys if any(k not in r for r in part)]
        blocks.append({"rows": len(part), "absent": absent,
                       "columns": {k: [r.get(k) for r in part] for k in keys}})
    return {"schema": SCHEMA, "rows": len(recs), "blocks": blocks}


def _write_columnar(doc: dict, d: Path, block: int = 2) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    with gzip.open(d / "r.switches.json.gz", "wt") as f:
        json.dump(_columnar(doc["switches"], block), f)
    summary = dict(doc, switches=[], switches_file={"name": "r.switches.json.gz", "format": SCHEMA,
                                                    "rows": len(doc["switches"])})
    (d / "r.json").write_text(json.dumps(summary))
    return d / "r.json"


def _goldens() -> list:
    return [p for p in sorted(GOLDEN.glob("*.json")) if len(json.loads(p.read_text())["switches"]) > 1]


def test_a_columnar_result_reads_as_the_embedded_one():
    assert len(_goldens()) >= 3
    for p in _goldens():
        old = driver.read_document(p)
        for block in (1, 2, 1000):
            d = Path(f"/tmp/sdnbench-sf-{p.stem}-{block}")
            try:
                new = driver.read_document(_write_columnar(old, d, block))
            finally:
                shutil.rmtree(d, ignore_errors=True)
            assert new == old, p.name
    # a null the record had stays (of_version of a switch that never came up); an absent key stays absent
    failed = json.loads((GOLDEN / "failed.json").read_text())["switches"]
    assert rows(_columnar(failed, 2)) == failed and any(s["of_version"] is None for s in failed)


def test_a_file_of_several_gzip_members_reads_as_one(tmp_path):
    # the engine writes each worker's blocks as a gzip member of its own, with the head, the
    # separators and the tail as members between them (RFC 1952 section 2.2: a series of members)
    doc = json.loads((GOLDEN / "throughput.json").read_text())
    text = json.dumps(_columnar(doc["switches"], 1))
    cut = [text.index('{"rows"', text.index('"blocks"'))]
    cut.append(text.index('{"rows"', cut[0] + 1))
    pieces = [text[:cut[0]], text[cut[0]:cut[1]], text[cut[1]:]]
    summary = _write_columnar(doc, tmp_path)
    (tmp_path / "r.switches.json.gz").write_bytes(b"".join(gzip.compress(p.encode()) for p in pieces))
    assert driver.read_document(summary) == driver.read_document(GOLDEN / "throughput.json")


def _say(argv: list, capsys, *dirs) -> str:
    assert main(argv) == 0
    out = capsys.readouterr().out
    for d in dirs:
        out = out.replace(str(d), "<dir>")
    return re.sub(r"\d\d:\d\d:\d\d UTC by", "<when the report was made> by", out)


def test_report_and_compare_say_the_same_of_old_and_new_results(tmp_path, capsys):
    files = {}
    for kind in ("old", "new"):
        for name in ("throughput", "latency"):
            doc = json.loads((GOLDEN / f"{name}.json").read_text())
            src = GOLDEN / f"{name}.json" if kind == "old" else _write_columnar(doc, tmp_path / kind / name)
            res = convert.to_result(driver.read_document(src), {"switches": doc["params"]["switches"]})
            res.started, res.finished = doc["started_unix"], doc["finished_unix"]   # not "now"
            out = tmp_path / kind / f"{name}.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            res.write_json(out)
            files[kind, name] = out
    assert any(s.metric == "switch_throughput" for s in
               convert.to_result(json.loads((GOLDEN / "throughput.json").read_text()), {}).series)
    for name in ("throughput", "latency"):
        a = _say(["report", str(files["old", name])], capsys, tmp_path / "old")
        b = _say(["report", str(files["new", name])], capsys, tmp_path / "new")
        assert a == b and a.strip()
    # compare: a result against itself, old and new alike
    old, new = files["old", "throughput"], files["new", "throughput"]
    dirs = (tmp_path / "old", tmp_path / "new")
    a = _say(["compare", str(old), str(old), "--ignore", "repetition"], capsys, *dirs)
    b = _say(["compare", str(new), str(new), "--ignore", "repetition"], capsys, *dirs)
    assert a == b and "switch_throughput" in a


def test_a_missing_or_broken_columnar_file_is_named(tmp_path):
    doc = json.loads((GOLDEN / "throughput.json").read_text())
    summary = _write_columnar(doc, tmp_path)
    (tmp_path / "r.switches.json.gz").unlink()
    with pytest.raises(EngineDocumentError, match="r.switches.json.gz: not there"):
        driver.read_document(summary)
    (tmp_path / "r.switches.json.gz").write_bytes(b"not gzip")
    with pytest.raises(EngineDocumentError, match="not gzip'd JSON"):
        driver.read_document(summary)
    bad = _columnar(doc["switches"], 2)
    bad["blocks"][0]["columns"]["dpid"].pop()
    with pytest.raises(EngineDocumentError, match="columns.dpid: not 2 values"):
        rows(bad)


@pytest.mark.parametrize("workers", [1, 3])
def test_the_engine_writes_the_records_beside_and_the_driver_reads_them_back(tmp_path, workers):
    # one worker (a thread), or three processes whose records come as each reports
    with responder() as address:
        p = params.check({"switches": 5, "loops": 2, "loop_ms": 200, "warmup": 0, "macs": 2})
        (tmp_path / "c.json").write_text(json.dumps(dict(params.config(p, address), workers=workers)))
        cp = subprocess.run([str(driver.binary()), "--config", str(tmp_path / "c.json"), "--switches-file-from", "0",
                             "--json", str(tmp_path / "r.json"), "--quiet"], capture_output=True, text=True)
        assert cp.returncode == 0, cp.stderr
        inside = driver.run([], config=params.config(p, address))
    summary = json.loads((tmp_path / "r.json").read_text())
    assert summary["switches"] == [] and summary["switches_file"] == {
        "name": "r.switches.json.gz", "format": SCHEMA, "rows": 5}
    assert sorted(f.name for f in tmp_path.iterdir()) == ["c.json", "r.json", "r.switches.json.gz"]
    beside = driver.read_document(tmp_path / "r.json")
    assert "switches_file" not in inside and "switches_file" not in beside
    for doc in (beside, inside):
        assert doc["status"] == "ok", doc["error"]
        assert [s["index"] for s in doc["switches"]] == list(range(5))
        assert sum(s["answered"] for s in doc["switches"]) == doc["totals"]["requests_answered"] > 0
    assert sorted(beside["switches"][0]) == sorted(inside["switches"][0])
