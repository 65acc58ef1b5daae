"""The SQLite driver (the embedded default): one file in WAL mode, one connection owned by one
worker thread, so blocking calls never run on the event loop.

Before the file is opened it is checked without writing to it: a directory, an unreadable or
read-only file, a file that is not SQLite, one shorter than its header says (truncated), or an
empty file where a marker says schedules were kept — each is a `StoreError` naming the file and
what to do, and the file is left exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from . import sql as q
from .driver import Params, Rows, StoreUnavailable
from .location import Location
from .migrations import MIGRATIONS, Step
from .values import Claimed, Shards, StoreError

__all__ = ["BUSY_TIMEOUT", "STATEMENT_TIMEOUT", "SqliteDriver", "check_file", "connect", "marker_path", "migrate",
           "unavailable"]

T = TypeVar("T")

HEADER = b"SQLite format 3\x00"
RESTORE = "restore it from a backup (see docs/admin.md) or point LIUREN_DB at another file"

# issue 22: a locked or slow database answers within seconds, not never. A write waits up to
# BUSY_TIMEOUT for another process's lock; a statement running longer than STATEMENT_TIMEOUT is
# interrupted (the bot has acknowledged the interaction by then and says the database is busy).
BUSY_TIMEOUT = 5.0
STATEMENT_TIMEOUT = 10.0
LOW_SPACE = 4 * 1024 * 1024  # bytes free under which a disk I/O error is read as a full disk
# Every commit waits for the WAL to be on the disk, except the casebook's batched writes of casts
# (``fetch_batch(flushed=False)``, issue 21: the fsync was most of a /cast's wait for its case).
SYNCHRONOUS = "FULL"

# SQLite's primary result codes (the low byte of sqlite_errorcode) that say "not now" rather than "damaged".
_BUSY, _LOCKED, _INTERRUPT, _IOERR, _FULL, _CANTOPEN = 5, 6, 9, 10, 13, 14


def unavailable(error: sqlite3.Error, path: Path | str) -> StoreUnavailable | None:
    """The error as a StoreUnavailable when it means "not now" (locked, interrupted, disk full or
    a disk I/O error), with what to do; None when it may mean damage (corrupt, not a database)."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code in (_BUSY, _LOCKED):
        return StoreUnavailable(f"{path} is locked by another process for more than {BUSY_TIMEOUT:.0f} s ({error})")
    if code == _INTERRUPT:
        return StoreUnavailable(f"{path}: a statement took longer than {STATEMENT_TIMEOUT:.0f} s and was stopped")
    if code in (_FULL, _IOERR, _CANTOPEN):
        folder = Path(path).parent
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = None
        if code == _FULL or (free is not None and free < LOW_SPACE):
            shown = "" if free is None else f", {free // 1024} KiB free"
            return StoreUnavailable(
                f"the disk holding {path} is full ({error}{shown}): free space on it; the file is not "
                "damaged and nothing was lost (do not restore a backup)"
            )
        return StoreUnavailable(
            f"disk I/O error on {path} ({error}): check the disk (kernel log, mount, permissions); "
            "this is not known damage to the file, so do not restore a backup before checking"
        )
    return None


def marker_path(path: Path) -> Path:
    """The file that says `path` has held schedules (so an emptied database is noticed)."""
    return path.with_name(path.name + ".has-schedules")


def check_file(path: Path) -> None:
    """Refuse, without writing anything, a database file the bot must not open (see module doc)."""
    marker = marker_path(path)
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file; point LIUREN_DB at a file")
    if not path.exists():
        if marker.exists():
            raise StoreError(
                f"{path} is missing but held schedules before ({marker} says so); {RESTORE}, "
                f"or delete {marker.name} to start with an empty database"
            )
        folder = _existing_parent(path)
        if not os.access(folder, os.W_OK):
            raise StoreError(f"cannot create {path}: {folder} is read-only; make it writable or set LIUREN_DB")
        return
    if not os.access(path, os.R_OK):
        raise StoreError(f"{path} cannot be read (permission denied); give the bot's user access (chown/chmod)")
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        raise StoreError(
            f"{path} is read-only (the file or its folder); the bot writes to it: make both writable "
            "by the bot's user"
        )
    size = path.stat().st_size
    if size == 0:
        if marker.exists():
            raise StoreError(
                f"{path} is empty (0 bytes) but held schedules before; {RESTORE}, "
                f"or delete {marker.name} to start with an empty database"
            )
        return
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise StoreError(f"{path} cannot be read ({error.strerror}); check the disk and permissions") from None
    if len(header) < 100 or not header.startswith(HEADER):
        raise StoreError(f"{path} is not a SQLite database (corrupt, or another kind of file); {RESTORE}")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The in-header page count is valid only while the two change counters agree.
    if header[24:28] == header[92:96] and pages and size < pages * page_size:
        raise StoreError(f"{path} is truncated ({size} of {pages * page_size} bytes); {RESTORE}")


def _existing_parent(path: Path) -> Path:
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def migrate(conn: sqlite3.Connection, steps: tuple[Step, ...] = MIGRATIONS, *, name: str = "database") -> int:
    """Apply the steps the database has not seen, each in its own transaction; returns the version.

    The version is re-read inside a write transaction, so two processes starting together
    never apply a step twice.
    """
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) == len(steps):
        return len(steps)  # up to date (every start but the first): no write lock taken eight times
    for number, step in enumerate(steps, start=1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > len(steps):
                raise StoreError(
                    f"{name} has schema version {version}, newer than this liuren knows ({len(steps)}); "
                    "upgrade liuren, or point LIUREN_DB at another file"
                )
            if version >= number:
                conn.execute("COMMIT")
                continue
            for statement in step.sqlite:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


# -- issue 22 item 13: the data file holds birth years and questions --
def create_private(path: Path) -> None:
    """Make the folder (0700) and the file (0600) when missing, so only the bot's user can read
    them; SQLite gives its -wal and -shm files the database file's mode. Existing ones keep theirs."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(FileExistsError):  # an existing file is check_file's and SQLite's to judge
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
# -- end of issue 22 item 13 --


def connect(path: Path) -> sqlite3.Connection:
    """Open the file in WAL mode, autocommit (we write our own transactions), with a busy timeout.

    ":memory:" gives a private in-memory database (tests), which has no WAL.
    """
    memory = str(path) == ":memory:"
    if not memory:
        check_file(path)
        create_private(path)
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        # Read the schema first: on a damaged file this fails before anything is written.
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{path} has schema version {version}, newer than this liuren knows ({len(MIGRATIONS)}); "
                "upgrade liuren, or point LIUREN_DB at another file"
            )
        # WAL lets readers and one writer (possibly another process) work at once.
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if not memory and str(mode).lower() != "wal":
            raise StoreError(f"{path}: cannot use WAL journal mode (got {mode!r}); is the folder on a network disk?")
        conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")  # whatever SQLite was built with
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
    except sqlite3.DatabaseError as error:
        conn.close()
        raise unavailable(error, path) or StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
    except BaseException:
        conn.close()
        raise
    return conn


class SqliteDriver:
    """The store's driver on one SQLite file. Every call runs on a dedicated single worker thread."""

    def __init__(self, conn: sqlite3.Connection, executor: ThreadPoolExecutor, location: Location) -> None:
        self._conn = conn
        self._executor = executor
        self._closed = False
        self._location = location
        self._marked = False

    @property
    def location(self) -> Location:
        return self._location

    @property
    def path(self) -> Path:
        assert self._location.path is not None
        return self._location.path

    @classmethod
    async def open(cls, location: Location) -> SqliteDriver:
        assert location.path is not None
        path = location.path
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="liuren-db")
        loop = asyncio.get_running_loop()

        def opening() -> sqlite3.Connection:
            conn = connect(path)
            try:
                migrate(conn, name=str(path))
            except sqlite3.DatabaseError as error:
                conn.close()
                raise unavailable(error, path) or StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
            except BaseException:
                conn.close()
                raise
            return conn

        try:
            conn = await loop.run_in_executor(executor, opening)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        driver = cls(conn, executor, location)
        await driver.note_used()
        return driver

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the worker thread, stopped after STATEMENT_TIMEOUT; a locked,
        interrupted or full database raises StoreUnavailable."""
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._timed, work)

    def _timed(self, work: Callable[[sqlite3.Connection], T]) -> T:
        deadline = time.monotonic() + STATEMENT_TIMEOUT
        # SQLite calls the handler every N virtual-machine steps; a true result interrupts the statement.
        self._conn.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
        try:
            return work(self._conn)
        except sqlite3.OperationalError as error:
            found = unavailable(error, self._location.path or ":memory:")
            if found is None:
                raise
            raise found from error
        finally:
            with contextlib.suppress(sqlite3.ProgrammingError):  # the work was closing the connection
                self._conn.set_progress_handler(None, 0)

    async def note_used(self) -> None:
        """Leave the marker once the database holds a schedule or a case (so an emptied file is noticed)."""
        if self._marked or self._location.is_memory:
            return

        def work(conn: sqlite3.Connection) -> bool:
            return conn.execute(q.HOLDS_ROWS).fetchone() is not None

        if await self.run(work):
            marker_path(self.path).touch()
            self._marked = True

    async def fetch(self, statement: str, params: Params = ()) -> Rows:
        values = tuple(params)
        return await self.run(lambda conn: list(conn.execute(statement, values).fetchall()))

    async def execute(self, statement: str, params: Params = ()) -> int:
        values = tuple(params)
        return await self.run(lambda conn: int(conn.execute(statement, values).rowcount))

    async def transaction(self, steps: Sequence[tuple[str, Params]]) -> list[int]:
        work = list(steps)
        return await self.run(lambda conn: _in_transaction(conn, lambda: [
            int(conn.execute(statement, tuple(params)).rowcount) for statement, params in work
        ]))

    async def execute_many(self, statement: str, rows: Sequence[Params]) -> None:
        values = [tuple(r) for r in rows]
        await self.run(lambda conn: _in_transaction(conn, lambda: conn.executemany(statement, values)))

    async def fetch_batch(self, steps: Sequence[tuple[str, Params]], *, atomic: bool = True,
                          flushed: bool = True) -> list[Rows]:
        work = [(statement, tuple(params)) for statement, params in steps]

        def each(conn: sqlite3.Connection) -> list[Rows]:
            return [list(conn.execute(statement, params).fetchall()) for statement, params in work]

        def together(conn: sqlite3.Connection) -> list[Rows]:
            if len(work) == 1 or not atomic:  # each statement a transaction of its own (autocommit)
                return each(conn)
            return _in_transaction(conn, lambda: each(conn))

        if flushed:
            return await self.run(together)
        return await self.run(lambda conn: _unflushed(conn, together))

    async def claim(self, now: int, until: int, token: str, shards: Shards | None,
                    limit: int) -> tuple[Claimed, ...]:
        where, params = q.shard_filter(shards)
        select = q.DUE.format(where=where)

        def work(conn: sqlite3.Connection) -> tuple[Claimed, ...]:
            def take() -> tuple[Claimed, ...]:
                rows = [q.row_of(r) for r in conn.execute(select, (now, *params, limit)).fetchall()]
                conn.executemany(
                    "UPDATE schedules SET due_at = ?, lease_token = ?, unsure = 1 WHERE id = ?",
                    [(until, token, row.id) for row in rows],
                )
                return tuple(Claimed(row, token, row.unsure) for row in rows)

            # The write lock is taken before the read, so no other process can claim in between.
            return _in_transaction(conn, take)

        return await self.run(work)

    async def close(self) -> None:
        if self._closed:
            return
        try:
            await self.run(lambda conn: conn.close())
        finally:
            self._closed = True
            self._executor.shutdown(wait=True)


def _unflushed(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(conn)`` with its commits not waiting for the disk (``Driver.fetch_batch``): WAL mode's
    ``synchronous = NORMAL`` (each commit a write to the WAL file, no fsync), then ``FULL`` again
    for every other write."""
    conn.execute("PRAGMA synchronous = NORMAL")
    try:
        return work(conn)
    finally:
        conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")


def _in_transaction(conn: sqlite3.Connection, work: Callable[[], T]) -> T:
    """``work()`` inside BEGIN IMMEDIATE … COMMIT (rolled back if it raises)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work()
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise
    return result


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already: on a full disk or an I/O error it
    rolls back by itself, and a ROLLBACK then would hide the real error behind "no transaction is active"."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")
