"""The store's SQLite schema and its migrations.

The schema version lives in SQLite's ``PRAGMA user_version``. ``MIGRATIONS[i]`` takes a database
from version ``i`` to ``i + 1``; a new database runs all of them, an old one runs the ones it lacks,
each in its own transaction together with the version bump, so a crash mid-migration leaves the
previous version intact. Never edit a released migration: append a new one.

Tables:
- ``runs``: one campaign (``kind='campaign'``) or one single CLI measurement (``kind='single'``),
  with the scenario text, seed, sdnbench version, machine and tool/controller versions (JSON).
- ``cells``: one planned measurement of a run (a benchmark, its parameters, a repetition), with
  ``status`` ``pending`` → ``running`` → ``ok`` | ``failed`` and the failure reason.
- ``results``: the ``Result`` of a cell without its samples (``meta`` is its JSON minus series).
- ``series``: every raw ``Series`` of a result (``role`` ``series`` or ``resource``); values and
  times are stored compactly and losslessly by ``sdnbench.store.codec``.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS = [
    # 0 -> 1: the initial schema.
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        scenario_text TEXT,
        scenario_path TEXT,
        seed INTEGER,
        sdnbench_version TEXT NOT NULL,
        machine TEXT NOT NULL,
        versions TEXT NOT NULL DEFAULT '{}',
        created REAL NOT NULL,
        finished REAL
    );
    CREATE TABLE cells (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id),
        ord INTEGER NOT NULL,
        key TEXT NOT NULL,
        benchmark TEXT NOT NULL,
        kind TEXT NOT NULL,
        params TEXT NOT NULL,
        repetition INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        error TEXT,
        started REAL,
        finished REAL,
        UNIQUE (run_id, key)
    );
    CREATE INDEX cells_run ON cells(run_id, ord);
    CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id),
        cell_id INTEGER UNIQUE REFERENCES cells(id),
        kind TEXT NOT NULL,
        benchmark TEXT NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        meta TEXT NOT NULL
    );
    CREATE TABLE series (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results(id),
        role TEXT NOT NULL,
        ord INTEGER NOT NULL,
        metric TEXT NOT NULL,
        unit TEXT NOT NULL,
        labels TEXT NOT NULL,
        n INTEGER NOT NULL,
        dtype TEXT NOT NULL,
        vals BLOB NOT NULL,
        t_dtype TEXT,
        t BLOB
    );
    CREATE INDEX series_result ON series(result_id, role, ord);
    """,
    # 1 -> 2: a run's overall status (running / done / interrupted) so `results list` can tell a
    # finished campaign from one to resume, the command-line options that changed its schedule
    # (--quick, --repetitions), and an index to find a run's results quickly.
    """
    ALTER TABLE runs ADD COLUMN status TEXT NOT NULL DEFAULT 'done';
    ALTER TABLE runs ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX results_run ON results(run_id);
    """,
]

VERSION = len(MIGRATIONS)


def version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection, upto: int = VERSION) -> int:
    """Bring ``conn`` to schema version ``upto``; returns the version it started at."""
    start = version(conn)
    for v in range(start, upto):
        # executescript would COMMIT on its own; run statement by statement inside one transaction.
        conn.execute("BEGIN IMMEDIATE")
        try:
            if version(conn) != v:   # another process migrated meanwhile
                conn.execute("ROLLBACK")
                continue
            for stmt in _statements(MIGRATIONS[v]):
                conn.execute(stmt)
            conn.execute(f"PRAGMA user_version = {v + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return start


def _statements(script: str) -> list:
    return [s.strip() for s in script.split(";") if s.strip()]


TABLES = ("runs", "cells", "results", "series")


class NotAStore(sqlite3.DatabaseError):
    """An SQLite database, sound, but some other program's."""


def not_foreign(conn: sqlite3.Connection) -> None:
    """A database at version 0 (never migrated) that already has tables is another program's:
    migrating it would write our tables into it."""
    if version(conn) == 0:
        have = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        if have:
            raise NotAStore(f"it has tables of its own: {', '.join(have[:3])}")


def check(conn: sqlite3.Connection) -> None:
    """A database that migrated to ``VERSION`` yet lacks the store's tables is some other
    program's: ``NotAStore`` saying so (the store turns it into one line)."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = [t for t in TABLES if t not in have]
    if missing:
        raise NotAStore(f"it has no table {', '.join(missing)}")
