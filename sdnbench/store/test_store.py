import math
import sqlite3

import pytest

from sdnbench.errors import UserError
from sdnbench.result import Result
from sdnbench.store import CellSpec, Store, codec, schema
from sdnbench.store.export import export


def _result(**kw) -> Result:
    r = Result(kind="controller", benchmark="throughput", params={"switches": 4})
    r.add("throughput", "flows/s", [1, 2.5, 3e9, -7], t=[0.0, 1.0, 2.0, 3.0], switch=1)
    r.add("rtt", "ms", [None, 1.25], host="h1")
    r.resources.append(__import__("sdnbench.result", fromlist=["Series"]).Series(
        "cpu_percent", "%", [12.5, 99.0], {"pid": 7}, [0.5, 1.0]))
    r.versions = {"engine": "0.1.0"}
    r.controller = {"name": "osken", "version": "4.0"}
    for k, v in kw.items():
        setattr(r, k, v)
    return r.finish()


@pytest.mark.parametrize("values", [
    [], [1, 2, -(1 << 63), (1 << 63) - 1], [1.5, -0.0, math.inf], [1, 2.5], [None, 1.0, "x", True],
    [1 << 70, 2],
])
def test_codec_round_trips_values_and_types(values):
    got = codec.decode(*codec.encode(values), len(values))
    assert got == values
    assert [type(v) for v in got] == [type(v) for v in values]


def test_codec_is_compact_for_numbers():
    assert len(codec.encode([0.1] * 1000)[1]) == 8000


def test_save_and_load_result_is_lossless(tmp_path):
    with Store(tmp_path) as st:
        r = _result()
        rid = st.save_result(r)
        back = st.load_result(rid)
    assert back.to_dict() == r.to_dict()


def test_single_result_becomes_a_run_with_one_cell_and_versions(tmp_path):
    with Store(tmp_path) as st:
        st.save_result(_result())
        (run,) = st.runs()
        assert run.kind == "single" and run.name == "controller:throughput"
        assert run.counts == {"ok": 1}
        assert run.versions == {"engine": "0.1.0", "controller:osken": "4.0"}
        assert run.machine["cores"] >= 1
        (cell,) = st.cells(run.id)
        assert cell.params == {"switches": 4}


def test_failed_result_marks_cell_failed_with_reason(tmp_path):
    with Store(tmp_path) as st:
        run = st.create_run("campaign", "c", scenario_text="name: c\n", seed=7)
        st.add_cells(run, [CellSpec("k1", "b", "controller", {"a": 1}, 0),
                           CellSpec("k2", "b", "controller", {"a": 2}, 0)])
        c1, c2 = st.cells(run)
        st.mark_running(c1.id)
        st.finish_cell(c1.id, Result("controller", "b", {"a": 1}).finish("failed", "controller died"))
        assert [c.status for c in st.cells(run)] == ["failed", "pending"]
        assert st.cells(run)[0].error == "controller died"
        with pytest.raises(RuntimeError):
            st.finish_cell(c1.id, _result())
        assert st.run(run).seed == 7 and st.run(run).scenario_text == "name: c\n"


def test_add_cells_keeps_existing_keys(tmp_path):
    with Store(tmp_path) as st:
        run = st.create_run("campaign", "c")
        spec = CellSpec("k1", "b", "controller", {}, 0)
        st.add_cells(run, [spec])
        st.add_cells(run, [spec])
        assert len(st.cells(run)) == 1


def test_wal_mode_and_schema_version(tmp_path):
    with Store(tmp_path) as st:
        assert st.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert schema.version(st.conn) == schema.VERSION


def test_old_database_is_migrated_and_keeps_its_data(tmp_path):
    path = tmp_path / "results.sqlite"
    conn = sqlite3.connect(str(path), isolation_level=None)
    schema.migrate(conn, upto=1)
    conn.execute("INSERT INTO runs (kind, name, sdnbench_version, machine, created)"
                 " VALUES ('single', 'old', '0.0.1', '{}', 1.0)")
    conn.close()
    with Store(tmp_path) as st:
        assert schema.version(st.conn) == schema.VERSION == 2
        (run,) = st.runs()
        assert (run.name, run.status, run.sdnbench_version) == ("old", "done", "0.0.1")


def test_newer_database_is_refused(tmp_path):
    conn = sqlite3.connect(str(tmp_path / "results.sqlite"))
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(UserError, match="newer"):
        Store(tmp_path)


def test_missing_run_and_store_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="no results store"):
        Store(tmp_path / "nothing", create=False)
    with Store(tmp_path) as st:
        with pytest.raises(UserError, match="no runs"):
            st.run("latest")
        with pytest.raises(UserError, match="not a run id"):
            st.run("abc")
        with pytest.raises(UserError, match="no run 4"):
            st.run(4)


def test_csv_and_json_exports_carry_every_sample(tmp_path):
    with Store(tmp_path) as st:
        st.save_result(_result())
        text = export(st, 1, "csv", None)
        lines = text.strip().splitlines()
        assert lines[0].startswith("run,cell,benchmark")
        assert len(lines) == 1 + 4 + 2 + 2          # header, throughput, rtt, cpu
        assert "3000000000.0" in text
        data = __import__("json").loads(export(st, 1, "json", None))
        assert data["cells"][0]["result"]["series"][0]["values"] == [1, 2.5, 3e9, -7]
        export(st, 1, "json", tmp_path / "out.json")
        assert (tmp_path / "out.json").exists()


def test_parquet_without_pandas_is_a_user_error(tmp_path):
    try:
        import pandas  # noqa: F401
    except ImportError:
        with Store(tmp_path) as st:
            st.save_result(_result())
            with pytest.raises(UserError, match="pandas"):
                export(st, 1, "parquet", tmp_path / "x.parquet")
    else:
        with Store(tmp_path) as st:
            st.save_result(_result())
            export(st, 1, "parquet", tmp_path / "x.parquet")
            assert (tmp_path / "x.parquet").stat().st_size > 0


def test_save_result_is_all_or_nothing(tmp_path):
    with Store(tmp_path) as st:
        bad = _result()
        bad.series[0].values = [object()]          # cannot be encoded: fails mid-transaction
        with pytest.raises(TypeError):
            st.save_result(bad)
        assert st.runs() == []
        assert st.conn.execute("SELECT count(*) FROM cells").fetchone()[0] == 0
        assert not st.conn.in_transaction
        st.save_result(_result())
        assert len(st.runs()) == 1


def test_a_writer_holds_a_reserve_and_removes_one_a_killed_process_left(tmp_path):
    import subprocess
    from sdnbench.store.reserve import SIZE
    p = subprocess.Popen(["true"])
    p.wait()
    (tmp_path / f".reserve-{p.pid}-0").write_bytes(b"\0" * 10)      # its process is gone
    with Store(tmp_path) as st:
        assert [x.name for x in tmp_path.glob(".reserve-*")] == [st.reserve.path.name]
        assert st.reserve.path.stat().st_size == SIZE
    assert list(tmp_path.glob(".reserve-*")) == []
    with Store(tmp_path, read_only=True):
        assert list(tmp_path.glob(".reserve-*")) == []                # a reader keeps none
