"""The schedule database: one SQLite file (WAL, one transaction per write) mapping a ``StoreKey`` to
the schedule, the annotated TTGIR, the scheduled graph, solver stats and proof status."""
from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator

from twill.errors import InputError, TwillError
from twill.store.keys import StoreKey

FORMAT = "twill.store/1"
APPLICATION_ID = 0x7477696C      # "twil": marks the file as ours (PRAGMA application_id)
SCHEMA_VERSION = 1
_SQLITE_MAGIC = b"SQLite format 3\x00"
_BUSY_TIMEOUT_S = 60.0           # a concurrent writer holds the lock for one short transaction

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS schedules (
    digest TEXT PRIMARY KEY,
    kernel_sha TEXT NOT NULL, ttgir_sha TEXT NOT NULL, arch TEXT NOT NULL, triton_version TEXT NOT NULL,
    machine_sha TEXT NOT NULL, profile_sha TEXT NOT NULL, options_sha TEXT NOT NULL,
    kernel_name TEXT NOT NULL, config_name TEXT NOT NULL, config_json TEXT NOT NULL, source TEXT NOT NULL,
    status TEXT NOT NULL, ii INTEGER NOT NULL, length INTEGER NOT NULL,
    schedule_json TEXT NOT NULL, graph_json TEXT NOT NULL, annotated_ttgir TEXT,
    stats_json TEXT NOT NULL, created REAL NOT NULL, run_id INTEGER
);
CREATE INDEX IF NOT EXISTS by_kernel ON schedules (kernel_sha, kernel_name, arch, triton_version);
CREATE INDEX IF NOT EXISTS by_task ON schedules (source, kernel_name, arch, config_name);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, started REAL NOT NULL, finished REAL, host TEXT NOT NULL,
    pid INTEGER NOT NULL, argv TEXT NOT NULL, summary_json TEXT
);
"""


@dataclass(frozen=True)
class Entry:
    """One stored schedule: the key it was computed from and what the pipeline produced.

    ``schedule`` is the ``twill.schedule/1`` dict, ``graph`` the scheduled (normalised) graph as
    ``twill.graph/1`` (what applying the schedule to IR needs), ``ir_sha`` the location-free hash of
    the pre-pipeline TTGIR that the compile-time hook compares with the kernel being compiled.
    """

    key: StoreKey
    kernel_name: str
    config_name: str
    config: dict[str, Any]
    source: str
    schedule: dict[str, Any]
    graph: dict[str, Any]
    annotated_ttgir: str | None
    stats: dict[str, Any]
    created: float = field(default_factory=time.time)
    run_id: int | None = None

    @property
    def status(self) -> str:
        return str(self.schedule.get("status"))

    @property
    def label(self) -> str:
        """``file::kernel [arch] config`` for reports."""
        cfg = "" if self.config_name == "default" else f" {self.config_name}"
        return f"{Path(self.source).name}::{self.kernel_name} [{self.key.arch}]{cfg}"


class ScheduleDB:
    """A schedule database file. Use ``open_db``; every write is one transaction.

    Examples
    --------
    >>> with open_db("schedules.sqlite") as db:          # doctest: +SKIP
    ...     print(len(db), db.get(key))
    """

    def __init__(self, path: str | Path, conn: sqlite3.Connection) -> None:
        self.path = Path(path)
        self._conn = conn

    # -- reading ---------------------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self._query("SELECT count(*) FROM schedules")[0][0])

    def digests(self) -> set[str]:
        """The primary keys of all entries."""
        return {r[0] for r in self._query("SELECT digest FROM schedules")}

    def get(self, key: StoreKey | str) -> Entry | None:
        digest = key if isinstance(key, str) else key.digest
        rows = self._query("SELECT * FROM schedules WHERE digest = ?", (digest,))
        return self._entry(rows[0]) if rows else None

    def entries(self) -> list[Entry]:
        return [self._entry(r) for r in self._query("SELECT * FROM schedules ORDER BY source, kernel_name, arch, "
                                                    "config_name, created")]

    def for_kernel(self, kernel_sha: str, kernel_name: str) -> list[Entry]:
        """Entries of one kernel (by source hash and name), every arch and Triton version."""
        return [self._entry(r) for r in self._query(
            "SELECT * FROM schedules WHERE kernel_sha = ? AND kernel_name = ? ORDER BY created",
            (kernel_sha, kernel_name))]

    def latest_for(self, source: str, kernel_name: str, arch: str, config_name: str) -> Entry | None:
        """The newest entry of one task (file, kernel, arch, config), whatever its key: what a
        ``--check`` compares with when the key changed."""
        rows = self._query("SELECT * FROM schedules WHERE source = ? AND kernel_name = ? AND arch = ? AND "
                           "config_name = ? ORDER BY created DESC LIMIT 1", (source, kernel_name, arch, config_name))
        return self._entry(rows[0]) if rows else None

    def runs(self) -> list[dict[str, Any]]:
        cols = ("id", "started", "finished", "host", "pid", "argv", "summary")
        out = []
        for r in self._query("SELECT id, started, finished, host, pid, argv, summary_json FROM runs ORDER BY id"):
            d = dict(zip(cols, r))
            d["summary"] = json.loads(d["summary"]) if d["summary"] else None
            out.append(d)
        return out

    # -- writing ---------------------------------------------------------------------------------
    def put(self, entry: Entry) -> None:
        """Insert or replace the entry of ``entry.key``, in one transaction."""
        row = _row(entry)
        with self._write():
            self._conn.execute(f"INSERT OR REPLACE INTO schedules VALUES ({', '.join('?' * len(row))})", row)

    def merge(self, other: str | Path) -> int:
        """Copy every entry of the database at ``other`` into this one (newer entry wins on the same
        key), in one transaction; the number copied."""
        with open_db(other, create=False) as src:
            incoming = src.entries()
        mine = {e.key.digest: e.created for e in self.entries()}
        fresh = [e for e in incoming if e.created > mine.get(e.key.digest, float("-inf"))]
        with self._write():
            for e in fresh:
                self._conn.execute(f"INSERT OR REPLACE INTO schedules VALUES ({', '.join('?' * 21)})", _row(replace(e, run_id=None)))
        return len(fresh)

    def start_run(self, argv: list[str]) -> int:
        with self._write():
            cur = self._conn.execute("INSERT INTO runs (started, host, pid, argv) VALUES (?, ?, ?, ?)",
                                     (time.time(), socket.gethostname(), os.getpid(), json.dumps(argv)))
        return int(cur.lastrowid or 0)

    def finish_run(self, run_id: int, summary: dict[str, Any]) -> None:
        with self._write():
            self._conn.execute("UPDATE runs SET finished = ?, summary_json = ? WHERE id = ?",
                               (time.time(), json.dumps(summary, sort_keys=True), run_id))

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "ScheduleDB":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- internals -------------------------------------------------------------------------------
    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise _db_error(self.path, e) from None

    def _write(self) -> "_Transaction":
        return _Transaction(self)

    def _entry(self, r: tuple) -> Entry:
        (_digest, ks, ts, arch, tv, ms, ps, os_, name, cfg_name, cfg, source, _status, _ii, _len,
         sched, graph, annotated, stats, created, run_id) = r
        try:
            return Entry(key=StoreKey(ks, ts, arch, tv, ms, ps, os_), kernel_name=name, config_name=cfg_name,
                         config=json.loads(cfg), source=source, schedule=json.loads(sched), graph=json.loads(graph),
                         annotated_ttgir=annotated, stats=json.loads(stats), created=created, run_id=run_id)
        except (ValueError, TypeError) as e:
            raise InputError("corrupt schedule entry", where=f"{self.path}: {name} [{arch}]",
                             expected="JSON columns", found=str(e)) from None


def _row(entry: Entry) -> tuple:
    k, s = entry.key, entry.schedule
    return (k.digest, k.kernel_sha, k.ttgir_sha, k.arch, k.triton_version, k.machine_sha, k.profile_sha,
            k.options_sha, entry.kernel_name, entry.config_name, json.dumps(entry.config, sort_keys=True),
            entry.source, entry.status, int(s.get("ii", 0)), int(s.get("length", 0)),
            json.dumps(s, sort_keys=True), json.dumps(entry.graph, sort_keys=True), entry.annotated_ttgir,
            json.dumps(entry.stats, sort_keys=True, default=str), float(entry.created), entry.run_id)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error): a writer takes the lock up front,
    so two writers queue on the busy timeout instead of failing half-way."""

    def __init__(self, db: ScheduleDB) -> None:
        self.db = db

    def __enter__(self) -> None:
        try:
            self.db._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as e:
            raise _db_error(self.db.path, e) from None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        conn = self.db._conn
        if exc_type is None:
            try:
                conn.execute("COMMIT")
                return
            except sqlite3.DatabaseError as e:
                conn.execute("ROLLBACK")
                raise _db_error(self.db.path, e) from None
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.DatabaseError):
            raise _db_error(self.db.path, exc) from None


def _db_error(path: Path, e: sqlite3.DatabaseError) -> TwillError:
    msg = str(e).strip() or type(e).__name__
    if isinstance(e, sqlite3.OperationalError) and "locked" in msg:
        return TwillError("schedule database stayed locked", where=str(path),
                          expected=f"another writer to finish within {_BUSY_TIMEOUT_S:.0f} s", found=msg)
    if isinstance(e, sqlite3.OperationalError) and ("unable to open" in msg or "readonly" in msg):
        return InputError("cannot write the schedule database", where=str(path),
                          expected="a file (and folder) this user may write", found=msg)
    return InputError("corrupt schedule database", where=str(path), expected="a SQLite file written by twill regen",
                      found=msg, hint="delete it and run `twill regen` again")


def open_db(path: str | Path, create: bool = True) -> ScheduleDB:
    """Open (and with ``create``, create) a schedule database; a file that is not one, or is damaged,
    is one ``InputError``.

    Examples
    --------
    >>> db = open_db("/tmp/doctest-schedules.sqlite"); len(db) >= 0   # doctest: +SKIP
    True
    """
    p = Path(path)
    exists = p.exists()
    if exists and not p.is_file():
        raise InputError("not a schedule database", where=str(p), expected="a file", found="a directory")
    if not exists and not create:
        raise InputError("no such schedule database", where=str(p), expected="a file made by `twill regen`")
    if exists and p.stat().st_size > 0:
        with open(p, "rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
        if head != _SQLITE_MAGIC:
            raise InputError("not a schedule database", where=str(p), expected="a SQLite file written by twill regen",
                             found=_describe(head))
    if not exists:
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            if not os.access(p.parent, os.W_OK):
                raise PermissionError(13, "Permission denied")
        except OSError as e:
            raise InputError("cannot create the schedule database", where=str(p), expected="a writable folder",
                             found=e.strerror or type(e).__name__) from None
    try:
        conn = sqlite3.connect(str(p), timeout=_BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
    except sqlite3.DatabaseError as e:
        raise _db_error(p, e) from None
    db = ScheduleDB(p, conn)
    try:
        _prepare(db, p)
    except BaseException:
        conn.close()
        raise
    return db


def _prepare(db: ScheduleDB, p: Path) -> None:
    conn = db._conn
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT_S * 1000)}")
        # One read transaction: both from the same state of the file, not the id from before another
        # process's initialisation committed and the tables from after it.
        conn.execute("BEGIN")
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.execute("COMMIT")
    except sqlite3.DatabaseError as e:
        raise _db_error(p, e) from None
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables - {"sqlite_sequence"}):
        raise InputError("not a schedule database", where=str(p), expected="a SQLite file written by twill regen",
                         found=f"another application's SQLite file (tables: {', '.join(sorted(tables)) or 'none'})")
    try:
        if app_id == 0:
            # A new file: WAL lets readers (the compile-time hook, --check) run beside a writer. Two
            # processes creating one file at once serialise here: switching the journal mode takes an
            # exclusive lock that SQLite may refuse at once, without its busy timeout.
            with _init_lock(p):
                if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                    conn.execute("PRAGMA journal_mode = WAL")
            with db._write():
                # Another process may have initialised it between our look and our lock.
                if conn.execute("PRAGMA application_id").fetchone()[0] == 0:
                    for stmt in filter(None, (s.strip() for s in _SCHEMA.split(";"))):
                        conn.execute(stmt)
                    conn.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (FORMAT,))
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        fmt = conn.execute("SELECT v FROM meta WHERE k = 'format'").fetchone()
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise _db_error(p, e) from None
    if version > SCHEMA_VERSION or not fmt or fmt[0] != FORMAT:
        raise InputError("schedule database of another format", where=str(p), expected=FORMAT,
                         found=f"{fmt[0] if fmt else 'no format'} (schema {version})",
                         hint="use the twill version that wrote it, or regenerate")
    if check != "ok":
        raise InputError("corrupt schedule database", where=str(p), expected="PRAGMA quick_check ok", found=check,
                         hint="delete it and run `twill regen` again")


@contextlib.contextmanager
def _init_lock(p: Path) -> Iterator[None]:
    """An advisory lock on the database's folder (not on the file itself: a second descriptor on it
    would drop SQLite's own POSIX locks when closed; not on a side file, which would be left beside
    the database); a no-op without fcntl."""
    try:
        import fcntl
    except ImportError:          # not POSIX: SQLite's busy timeout alone
        yield
        return
    fd = os.open(p.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _describe(head: bytes) -> str:
    if not head:
        return "an empty file"
    text = head.decode("utf-8", errors="replace")
    if text.lstrip().startswith(("{", "[")):
        return "JSON"
    printable = "".join(c if c.isprintable() else "." for c in text)
    return f"a file starting {printable!r}"


def iter_entries(path: str | Path) -> Iterator[Entry]:
    """Every entry of the database at ``path`` (opened read-only in spirit: nothing is written)."""
    with open_db(path, create=False) as db:
        yield from db.entries()
