"""Storage faults are faults, not corruption (issue 49), each made for real on a small tmpfs: a
full disk, a read-only mount or directory, a write lock another process holds, a damaged file.
Every one is one line naming the store and what to do; nothing measured is lost; no run is left
``running``; no temp file is left."""

import json
import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from sdnbench.cli import main
from sdnbench.result import Result
from sdnbench.store import Store, faults
from sdnbench.testing.tmpfs import BIG, FILLING, damage, fill, read_only, tmpfs, unfill

pytestmark = pytest.mark.integration          # mount needs root

READS = (["results", "list"], ["results", "show", "1"], ["results", "export", "1"], ["report", "1"],
         ["compare", "1", "1"])


@pytest.fixture
def disk():
    with tmpfs("4m") as d:
        yield d


def _scenario(tmp_path, samples: int = 5, reps: int = 1):
    f = tmp_path / "s.yaml"
    f.write_text(f"name: s\nrepetitions: {reps}\nbenchmarks:\n  - kind: synthetic\n"
                 f"    params: {{value: 5, samples: {samples}}}\n")
    return str(f)


def _one_line(capsys, code_wanted: int, code: int) -> str:
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("sdnbench: error: ")]
    assert code == code_wanted and len(lines) == 1 and "Traceback" not in err, (code, err)
    return lines[0]


def _leftovers(d) -> list:
    """Temp files and reserves left in a directory (none may be)."""
    return [p.name for p in d.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".reserve-")]


def _stored_run(d, tmp_path, capsys):
    assert main(["run", _scenario(tmp_path), "--store", str(d)]) == 0
    capsys.readouterr()


def test_a_new_store_on_a_full_disk_is_full_not_corrupt(disk, tmp_path, capsys):
    fill(disk)
    code = main(["run", _scenario(tmp_path), "--store", str(disk / "st")])
    line = _one_line(capsys, 1, code)
    assert f"the disk under the results store {disk}/st is full" in line and "free some space" in line
    assert not (disk / "st").exists()
    with pytest.raises(Exception, match="is full"):
        Store(disk / "new")
    assert not (disk / "new").exists() and _leftovers(disk) == []


def test_a_campaign_that_fills_the_disk_keeps_its_result_and_is_marked_interrupted(disk, tmp_path, capsys,
                                                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)                      # where a rescue file goes when the disk is full
    st = disk / "st"
    _stored_run(st, tmp_path, capsys)
    fill(disk, leave=300_000)                        # room to open, plan and store the small cell
    (tmp_path / "filling.yaml").write_text(FILLING)
    code = main(["run", str(tmp_path / "filling.yaml"), "--store", str(st)])
    line = _one_line(capsys, 2, code)
    assert f"the disk under the results store {st} is full" in line, line
    assert "run 2 keeps the 1 result(s) stored before, marked interrupted" in line, line
    assert f"`sdnbench run --resume 2 --store {st}`" in line, line
    where = line.split("the result is in ")[1].split(" ")[0]
    [rescued] = Result.read_json_list(where)
    assert len(rescued.series[0].values) == BIG
    assert _leftovers(disk) == []
    with Store(st, read_only=True) as s:
        assert [r.status for r in s.runs()] == ["done", "interrupted"]
        assert [c.status for c in s.cells(2)] == ["ok", "running"]      # resume measures it again
    unfill(disk)                                      # with room again, resume measures the rest
    assert main(["run", "--resume", "2", "--store", str(st)]) == 0
    with Store(st, read_only=True) as s:
        assert s.run(2).status == "done" and s.run(2).counts == {"ok": 2}


def test_controller_bench_on_a_disk_that_fills_exits_2_with_the_measurement_rescued(disk, tmp_path):
    from sdnbench.testing.engine_fixtures import responder
    st = disk / "st"
    fill(disk, leave=300_000)                       # the store opens; a repetition's samples do not fit
    with responder() as address:
        p = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "bench", "--controller",
                            f"tcp:{address}", "--switches", "1", "--reps", "3", "--loops", "1",
                            "--loop-ms", "300", "--warmup", "0", "--store", str(st)],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    [line] = [ln for ln in p.stderr.splitlines() if ln.startswith("sdnbench: error:")]
    assert "is full" in line and "run 1 holds no result, marked failed" in line, line
    where = line.split("the result is in ")[1].split(" ")[0]
    [rescued] = Result.read_json_list(where)
    assert rescued.kind == "controller" and rescued.series
    assert _leftovers(disk) == []
    with Store(st, read_only=True) as s:
        [run] = s.runs()
        [cell] = s.cells(run.id)
        assert run.status == "failed" and cell.status == "failed"
        assert cell.error.startswith("not stored (its disk was full); the result is in ")


def test_a_read_only_mount_is_read_and_refused_for_writing(disk, tmp_path, capsys):
    st = disk / "st"
    _stored_run(st, tmp_path, capsys)
    with read_only(disk):
        for argv in READS:
            assert main([*argv, "--store", str(st)]) == 0, argv
            assert capsys.readouterr().out
        code = main(["run", _scenario(tmp_path), "--store", str(st)])
        line = _one_line(capsys, 1, code)
    assert f"the results store {st}/results.sqlite is read-only (its file system is mounted read-only)" in line


@pytest.mark.parametrize("theirs, why", [(False, "its directory is not writable by uid 65534"),
                                         (True, "its file is not writable by uid 65534")])
def test_a_store_another_user_cannot_write_is_read(disk, tmp_path, capsys, theirs, why):
    st = disk / "st"
    _stored_run(st, tmp_path, capsys)
    if theirs:                                   # the directory is theirs, the file is not
        os.chown(st, 65534, 65534)
    as_nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable, "-m"]
    home = disk / "home"                         # nobody's own, for what sdnbench keeps there
    home.mkdir()
    os.chown(home, 65534, 65534)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), HOME=str(home))
    for argv, shown in ((["results", "list"], "campaign  s"), (["results", "export", "1"], "synthetic")):
        p = subprocess.run([*as_nobody, "sdnbench", *argv, "--store", str(st)], capture_output=True,
                           text=True, env=env, cwd="/")
        assert p.returncode == 0 and shown in p.stdout, (argv, p.stderr)
    p = subprocess.run([*as_nobody, "sdnbench.testing.cli", "run", "--resume", "1", "--store", str(st)],
                       capture_output=True, text=True, env=env, cwd="/")
    assert p.returncode == 1 and p.stderr.count("\n") == 1, p.stderr
    assert f"is read-only ({why})" in p.stderr, p.stderr


HOLD = textwrap.dedent("""
    import sqlite3, sys, time
    c = sqlite3.connect(sys.argv[1], isolation_level=None)
    c.execute("BEGIN IMMEDIATE")
    print("held", flush=True)
    time.sleep(60)
""")


def test_a_store_locked_by_another_process_is_named_with_it_and_still_read(disk, tmp_path, capsys, monkeypatch):
    st = disk / "st"
    _stored_run(st, tmp_path, capsys)
    monkeypatch.setattr(faults, "BUSY_TIMEOUT_S", 0.5)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(st / "results.sqlite")], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        code = main(["run", _scenario(tmp_path), "--store", str(st)])
        line = _one_line(capsys, 1, code)
        assert f"the results store {st}/results.sqlite is locked: another process (pid {holder.pid}) has held its write lock for over 0.5 s" in line
        assert main(["results", "list", "--store", str(st)]) == 0
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("how, said", [
    ("page", "has a damaged page"), ("truncated", "is truncated ("), ("garbage", "is not an SQLite database"),
])
def test_a_damaged_store_is_one_line_saying_how_in_every_command(disk, tmp_path, capsys, how, said):
    st = disk / "st"
    _stored_run(st, tmp_path, capsys)
    damage(st / "results.sqlite", how)
    for argv in (*READS, ["run", _scenario(tmp_path)]):
        code = main([*argv, "--store", str(st)])
        line = _one_line(capsys, 1, code)
        assert f"the results store {st}/results.sqlite {said}" in line, (argv, line)


def test_outputs_on_a_full_disk_name_the_file_and_leave_no_temp_file(disk, tmp_path, capsys):
    st = tmp_path / "st"
    _stored_run(st, tmp_path, capsys)
    fill(disk)
    for argv, out in ((["results", "export", "1", "-o"], "x.csv"), (["report", "1", "-o"], "r.html"),
                      (["results", "export", "1", "--format", "json", "-o"], "x.json")):
        code = main([*argv, str(disk / out), "--store", str(st)])
        line = _one_line(capsys, 1, code)
        assert line == f"sdnbench: error: cannot write {disk / out}: No space left on device; free some " \
                       "space or write elsewhere", line
    assert sorted(p.name for p in disk.iterdir()) == [".filler"]


def test_a_measurement_whose_output_cannot_be_written_is_kept_beside_it(disk, tmp_path, capsys, monkeypatch):
    from sdnbench import output
    monkeypatch.chdir(tmp_path)
    fill(disk)
    where = output.write_measured(disk / "out.json", json.dumps([1, 2]).encode())
    assert where.startswith(str(tmp_path)) and json.loads(open(where).read()) == [1, 2]
    assert f"could not write {disk}/out.json; the results are in {where}" in capsys.readouterr().err
    assert sorted(p.name for p in disk.iterdir()) == [".filler"]


def test_a_command_whose_output_file_could_not_be_written_exits_2_naming_the_rescue_file(disk, tmp_path):
    from sdnbench.testing.engine_fixtures import responder
    fill(disk)
    with responder() as address:
        p = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "bench", "--controller",
                            f"tcp:{address}", "--switches", "1", "--reps", "1", "--loops", "1", "--loop-ms", "300",
                            "--warmup", "0", "-o", str(disk / "out.json")],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    [line] = [ln for ln in p.stderr.splitlines() if "could not write" in ln]
    where = line.split("the results are in ")[1]
    [kept] = Result.read_json_list(where)
    assert kept.kind == "controller" and kept.series
    assert sorted(x.name for x in disk.iterdir()) == [".filler"]


def test_a_rolled_back_write_on_a_full_disk_leaves_the_store_usable(disk, tmp_path, capsys):
    st = disk / "st"
    _stored_run(st, tmp_path, capsys)
    fill(disk, leave=100_000)
    with Store(st) as s:
        r = Result("synthetic", "b", {}).finish()
        r.add("x", "u", [0.5] * 100_000)
        with pytest.raises(sqlite3.OperationalError, match="full"):
            s.save_result(r)
        assert not s.conn.in_transaction and [x.id for x in s.runs()] == [1]
