"""``Store``: the SQLite results store (see the package doc for the API tour).

Invariants:
- One transaction per finished cell: its ``Result``, every raw series and the cell's status are
  committed together, so a crash (even SIGKILL) leaves each cell either finished with all its
  samples or not finished with none.
- WAL mode with a busy timeout, so a campaign and one-off CLI commands can write the same store.
- Nothing is ever deleted or overwritten: a finished cell is never run or stored again.
- A storage fault (``faults``: full, read-only, locked, damaged) is one line naming the file; a
  writer holds a ``reserve`` so that a run the disk fills under can still be marked; a reader
  opens the file read-only (a read-only store is read).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional, Union

from .. import __version__
from ..errors import UserError
from ..machine import machine_info
from ..paths import default_results_dir
from ..result import Result
from . import codec, faults, schema
from .faults import DAMAGED, FULL, LOCKED, StoreFault, fault, kind_of, line
from .reserve import SIZE as RESERVE_SIZE, Reserve

DB_NAME = "results.sqlite"
PENDING, RUNNING, OK, FAILED = "pending", "running", "ok", "failed"


@dataclass
class RunInfo:
    id: int
    kind: str
    name: str
    description: str
    scenario_text: Optional[str]
    scenario_path: Optional[str]
    seed: Optional[int]
    sdnbench_version: str
    machine: dict
    versions: dict
    created: float
    finished: Optional[float]
    status: str                                    # running, interrupted, done or failed (some cells failed)
    options: dict = field(default_factory=dict)    # schedule overrides from the command line
    counts: dict = field(default_factory=dict)     # cell status -> number of cells


@dataclass
class CellInfo:
    id: int
    run_id: int
    ord: int
    key: str
    benchmark: str
    kind: str
    params: dict
    repetition: int
    status: str
    error: Optional[str]
    started: Optional[float]
    finished: Optional[float]
    result_id: Optional[int] = None


@dataclass
class CellSpec:
    """A planned cell: what ``add_cells`` needs. ``key`` identifies it uniquely within a run."""

    key: str
    benchmark: str
    kind: str
    params: dict
    repetition: int


class Store:
    """``read_only``: for commands that only read (``results``, ``report``, ``compare``): the
    file is opened read-only, so a store on a read-only mount, or in a directory or file this
    user cannot write, is read all the same."""

    def __init__(self, directory: Union[str, Path, None] = None, create: bool = True,
                 read_only: bool = False):
        self.dir = Path(directory) if directory is not None else default_results_dir()
        self.path = self.dir / DB_NAME
        self.read_only = read_only
        self.reserve = Reserve(self.dir)
        if not self.path.exists() and (not create or read_only):
            raise UserError(f"no results store at {self.dir} (no {DB_NAME}); run something first "
                            "or pass --store DIR")
        if self.dir.exists() and not self.dir.is_dir():
            raise UserError(f"--store {self.dir}: is a file, not a results store directory; name a directory")
        made = not self.dir.exists()
        try:
            self.conn = self._connect()
            self._open()
        except (OSError, sqlite3.Error) as e:
            self.close()
            if made:
                with contextlib.suppress(OSError):
                    self.dir.rmdir()
            raise self.fault(e) or UserError(
                f"cannot open the results store {self.path}: {getattr(e, 'strerror', None) or e}") from e
        except BaseException:
            self.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        if not self.read_only:
            self.dir.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and not os.access(self.path, os.W_OK):    # SQLite would open it read-only
                raise PermissionError(errno.EACCES, "not writable", str(self.path))
            self.reserve.hold()       # before SQLite writes anything: a full disk is said as such
            return sqlite3.connect(str(self.path), timeout=faults.BUSY_TIMEOUT_S, isolation_level=None)
        uri = self.path.absolute().as_uri()
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=faults.BUSY_TIMEOUT_S, isolation_level=None)
        try:
            conn.execute("PRAGMA schema_version")
            return conn
        except sqlite3.OperationalError as e:
            conn.close()
            # immutable would not see what the log holds, nor what a writer holding the lock writes
            if _wal_bytes(self.path) or kind_of(e, self.path) == LOCKED:
                raise
        # a WAL database whose -shm cannot be made (a read-only directory): read it as it is
        return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None)

    def _open(self) -> None:
        self.conn.row_factory = sqlite3.Row
        if not self.read_only:
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        if schema.version(self.conn) > schema.VERSION:
            raise UserError(f"{self.path} has schema version {schema.version(self.conn)}, newer than "
                            f"this sdnbench understands ({schema.VERSION}); upgrade sdnbench")
        schema.not_foreign(self.conn)
        if self.read_only and schema.version(self.conn) < schema.VERSION:
            self.conn.close()              # an older schema: migrated as a writer would
            self.read_only = False
            self.conn = self._connect()
            return self._open()
        schema.migrate(self.conn)
        schema.check(self.conn)

    def fault(self, e: BaseException, exit_code: int = 1) -> Optional[StoreFault]:
        """``e`` as a one-line ``StoreFault`` naming this store (None: not a storage fault)."""
        if isinstance(e, schema.NotAStore):
            return StoreFault(DAMAGED, f"the results store {self.path} is another program's SQLite database "
                                       f"({e}): name another store with --store DIR", exit_code)
        return fault(e, self.path, exit_code)

    def close(self) -> None:
        if getattr(self, "conn", None) is not None:
            self.conn.close()
        self.reserve.release()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close()
        if isinstance(exc, sqlite3.Error):     # a storage fault met while reading or writing
            f = self.fault(exc)
            if f is not None:
                raise f from exc

    # -- transactions -----------------------------------------------------------------------
    def _tx(self):
        return _Transaction(self.conn)

    # -- runs -------------------------------------------------------------------------------
    def create_run(self, kind: str, name: str, description: str = "",
                   scenario_text: Optional[str] = None, scenario_path: Optional[str] = None,
                   seed: Optional[int] = None, versions: Optional[dict] = None,
                   status: str = "running", options: Optional[dict] = None) -> int:
        with self._tx():
            cur = self.conn.execute(
                "INSERT INTO runs (kind, name, description, scenario_text, scenario_path, seed,"
                " sdnbench_version, machine, versions, created, status, options)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (kind, name, description, scenario_text, scenario_path, seed, __version__,
                 _dumps(machine_info()), _dumps(versions or {}), time.time(), status,
                 _dumps(options or {})))
            return cur.lastrowid

    def transaction(self):
        """Several writes as one: all of them or none."""
        return _Transaction(self.conn)

    def set_run_status(self, run_id: int, status: str, failed_cell: Optional[tuple] = None) -> None:
        """The run's status; ``failed_cell`` ``(cell_id, error)``: a cell the store could not take,
        kept failed with the reason. On a full disk it is written into the room the reserve kept."""
        try:
            self._set_run_status(run_id, status, failed_cell)
        except sqlite3.OperationalError as e:
            if kind_of(e, self.path) != FULL or not self.reserve.release():
                raise
            self._set_run_status(run_id, status, failed_cell)

    def _set_run_status(self, run_id: int, status: str, failed_cell: Optional[tuple]) -> None:
        with self._tx():
            self.conn.execute("UPDATE runs SET status=?, finished=? WHERE id=?",
                              (status, time.time() if status in ("done", FAILED) else None, run_id))
            if failed_cell is not None:
                self.conn.execute("UPDATE cells SET status=?, error=?, finished=? WHERE id=? AND status=?",
                                  (FAILED, failed_cell[1], time.time(), failed_cell[0], RUNNING))

    def runs(self) -> list:
        rows = self.conn.execute("SELECT * FROM runs ORDER BY id").fetchall()
        counts = self._counts()
        return [_run_info(r, counts.get(r["id"], {})) for r in rows]

    def run(self, ref: Union[int, str]) -> RunInfo:
        """A run by id, or ``latest``/``last`` for the newest one."""
        run_id = self.resolve_run(ref)
        r = self.conn.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()
        return _run_info(r, self._counts(run_id).get(run_id, {}))

    def resolve_run(self, ref: Union[int, str]) -> int:
        if isinstance(ref, str) and ref.strip().lower() in ("latest", "last"):
            r = self.conn.execute("SELECT max(id) FROM runs").fetchone()[0]
            if r is None:
                raise UserError(f"the store {self.dir} has no runs yet")
            return r
        try:
            run_id = int(ref)
        except (TypeError, ValueError):
            raise UserError(f"{ref!r} is not a run id (a number, or `latest`); see `sdnbench results list`")
        if not self.conn.execute("SELECT 1 FROM runs WHERE id=?", (run_id,)).fetchone():
            raise UserError(f"no run {run_id} in {self.dir}; see `sdnbench results list --store {self.dir}`")
        return run_id

    def _counts(self, run_id: Optional[int] = None) -> dict:
        sql = "SELECT run_id, status, count(*) FROM cells"
        args: tuple = ()
        if run_id is not None:
            sql += " WHERE run_id=?"
            args = (run_id,)
        out: dict = {}
        for rid, status, n in self.conn.execute(sql + " GROUP BY run_id, status", args):
            out.setdefault(rid, {})[status] = n
        return out

    # -- cells ------------------------------------------------------------------------------
    def add_cells(self, run_id: int, cells: list) -> None:
        """Plan cells (``CellSpec``) in order; all in one transaction. Keys already there are kept."""
        with self._tx():
            base = self.conn.execute("SELECT coalesce(max(ord)+1, 0) FROM cells WHERE run_id=?",
                                     (run_id,)).fetchone()[0]
            for i, c in enumerate(cells):
                self.conn.execute(
                    "INSERT OR IGNORE INTO cells (run_id, ord, key, benchmark, kind, params, repetition)"
                    " VALUES (?,?,?,?,?,?,?)",
                    (run_id, base + i, c.key, c.benchmark, c.kind, _dumps(c.params), c.repetition))

    def cells(self, run_id: int, status: Optional[str] = None) -> list:
        sql = ("SELECT cells.*, results.id AS result_id FROM cells"
               " LEFT JOIN results ON results.cell_id = cells.id WHERE cells.run_id=?")
        args: list = [run_id]
        if status is not None:
            sql += " AND cells.status=?"
            args.append(status)
        return [_cell_info(r) for r in self.conn.execute(sql + " ORDER BY cells.ord", args)]

    def mark_running(self, cell_id: int) -> None:
        with self._tx():
            self.conn.execute("UPDATE cells SET status=?, started=? WHERE id=? AND status IN (?,?)",
                              (RUNNING, time.time(), cell_id, PENDING, RUNNING))

    def finish_cell(self, cell_id: int, result: Result) -> int:
        """Store ``result`` as the outcome of the cell and mark it ok or failed, atomically."""
        with self._tx():
            row = self.conn.execute("SELECT run_id, status FROM cells WHERE id=?", (cell_id,)).fetchone()
            if row is None:
                raise KeyError(f"no cell {cell_id}")
            if row["status"] in (OK, FAILED):
                raise RuntimeError(f"cell {cell_id} is already finished ({row['status']})")
            result_id = self._insert_result(row["run_id"], cell_id, result)
            status = OK if result.status == "ok" else FAILED
            self.conn.execute("UPDATE cells SET status=?, error=?, started=coalesce(started, ?),"
                              " finished=? WHERE id=?",
                              (status, result.error, result.started, result.finished or time.time(),
                               cell_id))
            self._merge_versions(row["run_id"], result)
            return result_id

    # -- results ----------------------------------------------------------------------------
    def save_result(self, result: Result, run: Optional[int] = None,
                    name: Optional[str] = None) -> int:
        """Save a one-off result (``net run``, ``controller bench`` with ``--store``).

        Without ``run``, it becomes a new run of kind ``single``; with ``run``, its cells are
        added to that run. Repetitions are stored as repetitions: a result whose series carry a
        ``rep`` label (``net run --reps N``) becomes N cells, repetition 0..N-1, with the same
        parameters. Returns the id of the first result (for ``load_result``).
        """
        return self.save_results([result], run=run, name=name)[0]

    def save_results(self, results: list, run: Optional[int] = None,
                     name: Optional[str] = None) -> list:
        """Several one-off results as cells of one run, all or nothing. A ``rep`` parameter
        (``controller bench``) or ``rep`` label (``net run``) becomes the cell's repetition."""
        if run is not None:
            run = self.resolve_run(run)
        parts = [p for r in results for p in split_repetitions(r)]
        first = results[0]
        ids = []
        with self._tx():          # all or nothing: never a run or cell without its result
            if run is None:
                run = self.create_run("single", name or f"{first.kind}:{first.benchmark}",
                                      versions=dict(first.versions),
                                      status="done" if all(r.status == OK for r in results) else FAILED)
            for rep, part in parts:
                n = self.conn.execute("SELECT count(*) FROM cells WHERE run_id=?", (run,)).fetchone()[0]
                key = _dumps({"single": n, "benchmark": part.benchmark, "params": part.params, "rep": rep})
                self.add_cells(run, [CellSpec(key, part.benchmark, part.kind, dict(part.params), rep)])
                cell_id = self.conn.execute("SELECT id FROM cells WHERE run_id=? AND key=?",
                                            (run, key)).fetchone()[0]
                ids.append(self.finish_cell(cell_id, part))
        return ids

    def load_result(self, result_id: int) -> Result:
        r = self.conn.execute("SELECT meta FROM results WHERE id=?", (result_id,)).fetchone()
        if r is None:
            raise UserError(f"no result {result_id} in {self.dir}")
        d = json.loads(r["meta"])
        d["series"], d["resources"] = [], []
        for s in self.conn.execute("SELECT * FROM series WHERE result_id=? ORDER BY role, ord",
                                   (result_id,)):
            ser = dict(metric=s["metric"], unit=s["unit"],
                       values=codec.decode(s["dtype"], s["vals"], s["n"]),
                       labels=json.loads(s["labels"]),
                       t=codec.decode(s["t_dtype"], s["t"], s["n"]) if s["t"] is not None else None)
            d["series" if s["role"] == "series" else "resources"].append(ser)
        return Result.from_dict(d)

    def results(self, run: Union[int, str], status: Optional[str] = None) -> Iterator:
        """``(CellInfo, Result)`` for every finished cell of a run, in plan order."""
        run_id = self.resolve_run(run)
        for cell in self.cells(run_id, status):
            if cell.result_id is not None:
                yield cell, self.load_result(cell.result_id)

    def _insert_result(self, run_id: int, cell_id: Optional[int], result: Result) -> int:
        meta = result.to_dict()
        meta.pop("series"), meta.pop("resources")
        cur = self.conn.execute(
            "INSERT INTO results (run_id, cell_id, kind, benchmark, status, error, meta)"
            " VALUES (?,?,?,?,?,?,?)",
            (run_id, cell_id, result.kind, result.benchmark, result.status, result.error,
             _dumps(meta)))
        result_id = cur.lastrowid
        for role, items in (("series", result.series), ("resource", result.resources)):
            for i, s in enumerate(items):
                dtype, blob = codec.encode(s.values)
                t_dtype, t_blob = codec.encode(s.t) if s.t is not None else (None, None)
                self.conn.execute(
                    "INSERT INTO series (result_id, role, ord, metric, unit, labels, n, dtype, vals,"
                    " t_dtype, t) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (result_id, role, i, s.metric, s.unit, _dumps(s.labels), len(s.values), dtype,
                     blob, t_dtype, t_blob))
        return result_id

    def _merge_versions(self, run_id: int, result: Result) -> None:
        r = self.conn.execute("SELECT versions FROM runs WHERE id=?", (run_id,)).fetchone()
        versions = json.loads(r["versions"])
        versions.update({k: v for k, v in (result.versions or {}).items() if v})
        ctl = result.controller or {}
        if ctl.get("name") and ctl.get("version"):
            versions[f"controller:{ctl['name']}"] = ctl["version"]
        self.conn.execute("UPDATE runs SET versions=? WHERE id=?", (_dumps(versions), run_id))


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (or ``ROLLBACK`` on any exception, signals included).
    Nested inside another one it does nothing: the outermost block commits or rolls back all."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self.outer = False

    def __enter__(self) -> None:
        self.outer = not self.conn.in_transaction
        if self.outer:
            self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, *_) -> None:
        if not self.outer:
            return
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:    # SQLite rolls back itself on a full disk or I/O error
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")


def check_store(directory: Path) -> None:
    """Before a command measures: ``--store DIR`` can hold results. An existing store is opened
    (and migrated) as a write will, and its write lock taken and given back; a new one needs a
    directory it can be made in, on a disk with room for the store's reserve. Nothing is created
    here. Raises ``UserError`` (a ``StoreFault`` for a store) naming the place and what to do."""
    if directory.exists() and not directory.is_dir():
        raise UserError(f"--store {directory}: is a file, not a results store directory; name a directory")
    if (directory / DB_NAME).exists():
        with Store(directory, create=False) as s:
            s.conn.execute("BEGIN IMMEDIATE")
            s.conn.execute("ROLLBACK")
        return
    parent = directory
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise UserError(f"--store {directory}: cannot be created ({parent} is not a writable directory)")
    probe = Path(parent) / f".sdnbench-store-probe-{os.getpid()}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError as e:
        raise UserError(f"--store {directory}: cannot be created in {parent}: {e.strerror}")
    st = os.statvfs(parent)
    if st.f_bavail * st.f_frsize < RESERVE_SIZE:
        raise StoreFault(FULL, line(FULL, directory / DB_NAME, OSError()))


def _wal_bytes(db: Path) -> int:
    try:
        return Path(f"{db}-wal").stat().st_size
    except OSError:
        return 0


def _dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def _run_info(r: sqlite3.Row, counts: dict) -> RunInfo:
    return RunInfo(id=r["id"], kind=r["kind"], name=r["name"], description=r["description"],
                   scenario_text=r["scenario_text"], scenario_path=r["scenario_path"], seed=r["seed"],
                   sdnbench_version=r["sdnbench_version"], machine=json.loads(r["machine"]),
                   versions=json.loads(r["versions"]), created=r["created"], finished=r["finished"],
                   status=r["status"], options=json.loads(r["options"]), counts=counts)


def _cell_info(r: sqlite3.Row) -> CellInfo:
    return CellInfo(id=r["id"], run_id=r["run_id"], ord=r["ord"], key=r["key"],
                    benchmark=r["benchmark"], kind=r["kind"], params=json.loads(r["params"]),
                    repetition=r["repetition"], status=r["status"], error=r["error"],
                    started=r["started"], finished=r["finished"], result_id=r["result_id"])


def split_repetitions(result: Result) -> list:
    """``[(repetition, Result)]``: one part per repetition of ``result``, params without the
    repetition itself (so all repetitions of a condition share one parameter set). Resources
    (sampled over the whole call) stay with the first part."""
    import copy

    params = {k: v for k, v in result.params.items() if k not in ("rep", "reps")}
    reps = sorted({s.labels["rep"] for s in result.series if "rep" in s.labels},
                  key=lambda x: (str(type(x)), x))
    if len(reps) <= 1:
        part = copy.copy(result)
        part.params = params
        rep = result.params.get("rep", reps[0] if reps else 0)
        return [(int(rep) if isinstance(rep, int) else 0, part)]
    out = []
    for i, rep in enumerate(reps):
        part = copy.copy(result)
        part.params = params
        part.series = [s for s in result.series if s.labels.get("rep") == rep]
        part.resources = result.resources if i == 0 else []
        part.notes = list(result.notes)
        out.append((int(rep), part))
    return out
