"""The typed views of the engine's document (``result_types.py``): the committed module is what
the generator writes from the checked-in schema, a real document reads into them and back
unchanged, and a document that breaks the schema is one ``EngineDocumentError`` naming the field
(and, from the command line, one line and exit 3)."""

import copy
import importlib.util
import json
import os
import subprocess
import sys

import pytest

from sdnbench import paths
from sdnbench.engine import result_types
from sdnbench.engine.convert import to_result
from sdnbench.engine.result_check import as_json
from sdnbench.engine.result_types import EngineResult
from sdnbench.errors import EngineDocumentError
from sdnbench.testing.engine_fixtures import broken_engine, responder, run_doc

GENERATOR = paths.REPO / "scripts/gen_result_types.py"
SCHEMA = paths.REPO / "crates/engine/schema/engine-result.schema.json"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_result_types", GENERATOR)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_committed_module_is_what_the_generator_writes_from_the_schema():
    text = _generator().generate(json.loads(SCHEMA.read_text()))
    assert text == (paths.REPO / "sdnbench/engine/result_types.py").read_text(), \
        "sdnbench/engine/result_types.py is stale: run `python3 scripts/gen_result_types.py`"


def test_a_schema_change_changes_the_module():
    schema = json.loads(SCHEMA.read_text())
    schema["$defs"]["Loops"]["properties"]["answered_twice"] = {"type": "integer", "minimum": 0}
    schema["$defs"]["Loops"]["required"].append("answered_twice")
    text = _generator().generate(schema)
    assert "answered_twice: int" in text and "req(o, path, 'answered_twice', want_uint)" in text


def test_every_object_of_the_schema_has_a_view():
    schema = json.loads(SCHEMA.read_text())
    for name, d in schema["$defs"].items():
        view = getattr(result_types, name)
        if "properties" in d:
            assert list(view.__dataclass_fields__) == list(d["properties"]), name


@pytest.fixture(scope="module")
def doc():
    with responder("1.3") as addr:
        return run_doc(addr, switches=3, loops=2, loop_ms=200, warmup=1, macs=8, window=8)


def test_a_real_document_reads_into_the_views_and_back_unchanged(doc):
    res = EngineResult.from_json(doc)
    assert res.schema == "sdnbench.engine/1" and res.status == "ok"
    assert res.loops.answered == doc["loops"]["answered"] and len(res.switches) == 3
    assert res.switches[2].dpid == 3 and res.params.mode == "throughput"
    assert res.totals.requests_answered == doc["totals"]["requests_answered"] > 0
    assert all(isinstance(b, tuple) and len(b) == 2 for b in res.latency.buckets_us)
    assert json.dumps(as_json(res)) == json.dumps(doc)      # every field, in the document's order
    with pytest.raises(AttributeError):
        res.status = "failed"          # frozen


def test_convert_reads_the_view_as_it_reads_the_document(doc):
    a = to_result(doc, {"mode": "throughput"}).to_dict()
    b = to_result(EngineResult.from_json(doc), {"mode": "throughput"}).to_dict()
    for k in ("started", "finished"):
        a.pop(k), b.pop(k)
    assert a == b


def _broken(doc, edit) -> str:
    bad = copy.deepcopy(doc)
    edit(bad)
    with pytest.raises(EngineDocumentError) as e:
        EngineResult.from_json(bad)
    assert "\n" not in str(e.value)
    return str(e.value)


@pytest.mark.parametrize("edit, path, problem", [
    (lambda d: d["loops"].pop("answered"), "loops.answered", "missing"),
    (lambda d: d["loops"]["answered"].__setitem__(1, "x"), "loops.answered[1]", "want an integer, 0 or more, got 'x'"),
    (lambda d: d["loops"]["answered"].__setitem__(0, -1), "loops.answered[0]", "want an integer, 0 or more"),
    (lambda d: d["loops"]["answered"].__setitem__(0, True), "loops.answered[0]", "got True"),
    (lambda d: d.pop("totals"), "totals", "missing"),
    (lambda d: d["switches"][2].__setitem__("of_version", 4), "switches[2].of_version", "want a string"),
    (lambda d: d["switches"][1]["replies_by_type"].__setitem__("flow_mod", 1.5),
     "switches[1].replies_by_type.flow_mod", "want an integer"),
    (lambda d: d["latency"]["buckets_us"].__setitem__(0, [1.0]), "latency.buckets_us[0]", "want an array of 2"),
    (lambda d: d.__setitem__("status", "fine"), "status", "want 'ok' or 'partial' or 'interrupted' or 'failed'"),
    (lambda d: d.__setitem__("schema", "sdnbench.engine/2"), "schema", "want 'sdnbench.engine/1'"),
    (lambda d: d["params"].__setitem__("bogus", 1), "params.bogus", "not a field of the schema"),
    (lambda d: d.__setitem__("capacity", []), "capacity", "want an object"),
    (lambda d: d["efficiency"].__setitem__("engine_cpu_s", None), "efficiency.engine_cpu_s", "want a number"),
])
def test_a_broken_document_names_the_field(doc, edit, path, problem):
    msg = _broken(doc, edit)
    assert msg.startswith(f"{path}: ") and problem in msg, msg


def test_a_document_that_is_no_object_is_named():
    with pytest.raises(EngineDocumentError, match="^the document: want an object, got"):
        EngineResult.from_json([1, 2])


def test_a_field_the_schema_leaves_open_may_be_absent_and_stays_absent(doc):
    assert "hello_fallbacks" not in doc["handshake"]
    res = EngineResult.from_json(doc)
    assert res.handshake.hello_fallbacks is None and "hello_fallbacks" not in as_json(res.handshake)
    more = copy.deepcopy(doc)
    more["handshake"]["hello_fallbacks"] = 2
    assert EngineResult.from_json(more).handshake.hello_fallbacks == 2


@pytest.mark.integration
def test_the_cli_reports_a_broken_document_in_one_line_exit_3(tmp_path):
    shim = broken_engine(tmp_path, 'doc["loops"]["answered"][0] = "many"')
    with responder("1.3") as addr:
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "bench", "--controller", f"tcp:{addr}",
                             "--switches", "1", "--loops", "1", "--loop-ms", "200", "--warmup", "0", "--macs", "4"],
                            capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, SDNBENCH_ENGINE=str(shim)))
    assert cp.returncode == 3, cp.stderr
    lines = cp.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in cp.stderr, cp.stderr
    assert "loops.answered[0]: want an integer, 0 or more, got 'many'" in lines[0], lines[0]
