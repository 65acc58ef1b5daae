"""The SQLite driver (the embedded default): one file in WAL mode, one connection owned by one
worker thread, so calls that may wait (for a lock, for the disk) never run on the event loop.
Before the file is opened it is checked without writing to it (bot.store.sqlite_file); what its
errors mean is read by bot.store.sqlite_errors.

One kind of write runs on the event loop's thread instead, on a connection of its own (``OnLoop``):
the transactions that do not wait for the disk (``fetch_batch(flushed=False)``: the cases /cast
records, issue 21). A case is ~25 µs of SQLite's work in a casebook of thousands (its random id and
its author each change a page of their own), and handing a batch to the worker cost more: under load
the worker took the interpreter lock from the event loop at each of a batch's dozen SQLite calls, and
every /cast waited for its turns. That connection waits for nothing: not for a lock (``busy_timeout =
0``: a transaction finding the database locked, by another process or by the worker, is handed to the
worker, which waits as every other write does), not for the disk (``synchronous = NORMAL``, WAL
mode), not for a checkpoint (``wal_autocheckpoint = 0``: the worker runs a passive one every
``CHECKPOINT_EVERY`` such transactions, beside the writes, and at close).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from . import sql as q
from .driver import Params, Rows
from .location import Location
from .migrations import MIGRATIONS, Step
from .sqlite_errors import BUSY, BUSY_TIMEOUT, LOCKED, STATEMENT_TIMEOUT, code_of, told, unavailable
from .sqlite_file import RESTORE, check_file, create_private, marker_path
from .values import Claimed, Shards, StoreError

__all__ = ["BUSY_TIMEOUT", "CHECKPOINT_EVERY", "STATEMENT_TIMEOUT", "TEMP_STORE", "OnLoop", "SqliteDriver",
           "check_file", "connect", "marker_path", "migrate", "unavailable"]

T = TypeVar("T")
Work = list[tuple[str, tuple[object, ...]]]
log = logging.getLogger("bot")


# Every commit waits for the WAL to be on the disk, except the casebook's batched writes of casts
# (``fetch_batch(flushed=False)``, issue 21: the fsync was most of a /cast's wait for its case).
SYNCHRONOUS = "FULL"
# Transactions written by OnLoop (which never checkpoints) between two passive checkpoints by the
# worker. Measured in a casebook of 4,000 cases: a transaction of one case adds ~5 pages to the WAL,
# one of nine (64 casts in flight) ~21, so the WAL holds ~700-2,700 pages (SQLite's own default: 1,000).
CHECKPOINT_EVERY = 128
# A statement's own undo journal (each of a batch's multi-row INSERTs in its transaction has one) is
# kept in memory. SQLite's default spilled it past 64 KB into a new file in /var/tmp, made and deleted
# for every batch of cases: a third of a case's write (issue 21), and a writable temporary folder needed.
TEMP_STORE = "MEMORY"


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
        conn.execute(f"PRAGMA temp_store = {TEMP_STORE}")
    except sqlite3.DatabaseError as error:
        conn.close()
        raise unavailable(error, path) or StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
    except BaseException:
        conn.close()
        raise
    return conn


class SqliteDriver:
    """The store's driver on one SQLite file. Every call runs on a dedicated single worker thread."""

    def __init__(self, conn: sqlite3.Connection, executor: ThreadPoolExecutor, location: Location,
                 on_loop: OnLoop | None = None) -> None:
        self._conn = conn
        self._executor = executor
        self._closed = False
        self._location = location
        self._marked = False
        self._on_loop = on_loop  # the unflushed transactions' connection (a file's; None in memory)
        self._unchecked = 0  # transactions written by ``_on_loop`` since the worker's last checkpoint
        self._checkpoint: asyncio.Task[None] | None = None

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

        def opening() -> tuple[sqlite3.Connection, OnLoop | None]:
            conn = connect(path)
            try:
                migrate(conn, name=str(path))
                return conn, None if location.is_memory else OnLoop.connect(path)
            except sqlite3.DatabaseError as error:
                conn.close()
                raise unavailable(error, path) or StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
            except BaseException:
                conn.close()
                raise

        try:
            conn, on_loop = await loop.run_in_executor(executor, opening)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        driver = cls(conn, executor, location, on_loop)
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
            with told(self._location.path or ":memory:"):
                return work(self._conn)
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
        work: Work = [(statement, tuple(params)) for statement, params in steps]

        def together(conn: sqlite3.Connection) -> list[Rows]:
            if len(work) == 1 or not atomic:  # each statement a transaction of its own (autocommit)
                return _each(conn, work)
            return _in_transaction(conn, lambda: _each(conn, work))

        if flushed:
            return await self.run(together)
        if self._on_loop is not None and atomic and not self._closed:
            with told(self.path):
                written = self._on_loop.write(work)
            if written is not None:
                self._unchecked += 1
                if self._unchecked >= CHECKPOINT_EVERY and self._checkpoint is None:
                    self._unchecked = 0
                    self._checkpoint = asyncio.get_running_loop().create_task(self._checkpointed())
                return written
        return await self.run(lambda conn: _unflushed(conn, together))  # locked: the worker waits for it

    async def _checkpointed(self) -> None:
        """A passive checkpoint of the WAL by the worker (it waits for the disk, beside the writes)."""
        try:
            await self.run(lambda conn: conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall())
        except (StoreError, sqlite3.Error, RuntimeError) as error:  # the next one will try again
            log.warning("checkpoint of %s not done: %s", self.path, error)
        finally:
            self._checkpoint = None

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
            if self._checkpoint is not None:
                await self._checkpoint
            if self._on_loop is not None:  # first: the worker's, closed last, merges the WAL
                self._on_loop.close()
            await self.run(lambda conn: conn.close())
        finally:
            self._closed = True
            self._executor.shutdown(wait=True)


class OnLoop:
    """The connection that writes unflushed transactions on the event loop's thread (module doc)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    @classmethod
    def connect(cls, path: Path) -> OnLoop:
        """A second connection to the (opened, migrated) file that waits for no lock, no disk and
        no checkpoint."""
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        try:
            for setting in ("busy_timeout = 0", "synchronous = NORMAL", "wal_autocheckpoint = 0",
                            f"temp_store = {TEMP_STORE}"):
                conn.execute(f"PRAGMA {setting}")
        except BaseException:
            conn.close()
            raise
        return cls(conn)

    def write(self, work: Work) -> list[Rows] | None:
        """The rows each statement returned, committed in one transaction; None, nothing written,
        when another connection holds the write lock."""
        conn = self._conn
        try:
            return _in_transaction(conn, lambda: _each(conn, work))
        except sqlite3.OperationalError as error:
            if code_of(error) in (BUSY, LOCKED):
                return None  # rolled back, or never begun
            raise

    def close(self) -> None:
        self._conn.close()


def _each(conn: sqlite3.Connection, work: Work) -> list[Rows]:
    return [list(conn.execute(statement, params).fetchall()) for statement, params in work]


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
