"""The SQLite driver (the embedded default): one file in WAL mode. Its writes run on one thread
with its own connection (the writer), its reads on ``READERS`` threads with theirs (the readers;
bot.store.sqlite_lanes), so a read never waits behind a write, and the event loop's thread only
hands calls over: it never touches the file. Every call is answered within ``DEADLINE`` of when its
caller made it, queue time included (bot.store.sqlite_lanes says what happens to a late one).
Before the file is opened it is checked without writing to it (bot.store.sqlite_file); what its
errors mean is read by bot.store.sqlite_errors.

Durable: every commit waits for its WAL frames to be on the disk (``synchronous = FULL``) before
its caller is answered, the cases /cast records too. They stay cheap by going together
(bot.store.batch): the casts made while one transaction is being written go into the next, one
commit and one sync of the WAL for all of them.

Deletion reaches the files: ``secure_delete`` overwrites with zeros what a statement deletes or
replaces, and after a transaction that removed personal data (``erases``: a DELETE, or the birth
data forgotten) the writer checkpoints the WAL with TRUNCATE before the caller is answered, so the
-wal file keeps no copy of the removed rows either. A checkpoint another process's read holds
back longer than ``ERASE_WAIT`` is tried again after a later write, ``ERASE_AGAIN_S`` on, until done.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import bot.store as front  # Claimed, loaded by the first claim (PEP 562)

from . import sql as q
from .calls import ERASING
from .driver import Params, Rows, StoreUnavailable
from .location import Location
from .migrations import MIGRATIONS, Step
from .sqlite_errors import BUSY_TIMEOUT, DEADLINE, damaged, not_answering, unavailable
from .sqlite_file import HELD_KINDS, RESTORE, check_file, create_private, leave_marker, marked, marker_path
from .sqlite_lanes import Call, Lane
from .sqlite_rows import inserted
from .values import Shards, StoreError

if TYPE_CHECKING:
    from .schedule_values import Claimed

__all__ = ["BUSY_TIMEOUT", "DEADLINE", "ERASE_AGAIN_S", "ERASE_WAIT", "READERS", "SYNCHRONOUS", "TEMP_STORE",
           "SqliteDriver", "check_file", "connect", "erases", "marker_path", "migrate", "unavailable"]

T = TypeVar("T")
Steps = list[tuple[str, tuple[object, ...]]]
Done = list[tuple[Rows, int]]  # each statement's rows and the rows it changed
log = logging.getLogger("bot")


# Every commit waits for the WAL to be on the disk before its caller is told it is stored.
SYNCHRONOUS = "FULL"
WRITE = "BEGIN IMMEDIATE"  # a write transaction: the write lock taken at once
# Threads (each with a connection) that read beside the writer: a slow read does not hold the others.
READERS = 2
# The checkpoint after a deletion waits at most ERASE_WAIT for reads under way to end (so the deletion
# is answered in time); held back longer, it is tried again after a write ERASE_AGAIN_S later.
ERASE_WAIT = 0.25
ERASE_AGAIN_S = 10.0
# A statement's own undo journal (each of a batch's multi-row INSERTs in its transaction has one) is
# kept in memory. SQLite's default spilled it past 64 KB into a new file in /var/tmp, made and deleted
# for every batch of cases: a third of a case's write, and a writable temporary folder needed.
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
        conn.execute("PRAGMA secure_delete = ON")  # deleted rows overwritten with zeros, not left in free space
    except sqlite3.DatabaseError as error:
        conn.close()
        raise unavailable(error, path) or StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def connect_reader(path: Path) -> sqlite3.Connection:
    """Another connection to the (opened, migrated) file, for reads alone (``query_only``)."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        for setting in ("query_only = ON", f"busy_timeout = {int(BUSY_TIMEOUT * 1000)}", f"temp_store = {TEMP_STORE}"):
            conn.execute(f"PRAGMA {setting}")
    except BaseException:
        conn.close()
        raise
    return conn


def reads(statement: str) -> bool:
    """The statement only reads (a SELECT): a reader may run it."""
    return statement.lstrip()[:6].upper() == "SELECT"


def erases(statement: str) -> bool:
    """The statement removes personal data: a DELETE, the birth data of cases forgotten, a call's text."""
    return statement.lstrip()[:6].upper() == "DELETE" or statement == q.FORGET_BIRTH or statement in ERASING


class SqliteDriver:
    """The store's driver on one SQLite file (module doc)."""

    def __init__(self, writer: Lane, readers: Lane | None, location: Location) -> None:
        self._writer = writer
        self._readers = readers  # None in memory: a second connection would be another database
        self._closed = False
        self._location = location
        # what the marker beside the file says it held (read at open; it only grows)
        self._held = frozenset() if location.is_memory else marked(self.path)
        self._erase_again: float | None = None  # when to try again a checkpoint held back (writer's thread)

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

        def opening() -> tuple[sqlite3.Connection, list[sqlite3.Connection]]:
            conn = connect(path)
            readers: list[sqlite3.Connection] = []
            try:
                migrate(conn, name=str(path))
                if not location.is_memory:
                    readers.extend(connect_reader(path) for _ in range(READERS))
                return conn, readers
            except sqlite3.DatabaseError as error:
                for each in (conn, *readers):
                    each.close()
                raise unavailable(error, path) or StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
            except BaseException:
                for each in (conn, *readers):
                    each.close()
                raise

        conn, readers = await asyncio.to_thread(opening)
        driver = cls(Lane("liuren-db-writer", [conn], path),
                     Lane("liuren-db-reader", readers, path) if readers else None, location)
        await driver.note_used()
        return driver

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the writer's thread, within the deadline; a locked, late or full
        database raises StoreUnavailable."""
        self._open()
        return await self._writer.run(lambda conn, call: work(conn))

    async def note_used(self, kind: str | None = None) -> None:
        """Leave the marker, saying what the file holds (cases, schedules), once it holds either (so
        an emptied file is noticed); a database not answering now leaves it for a later call, never
        fails the write. A `kind` the marker names already is not looked at again (every /cast)."""
        if self._location.is_memory or self._held.issuperset(HELD_KINDS) or kind in self._held:
            return
        before = self._held

        def work(conn: sqlite3.Connection, call: Call) -> frozenset[str]:
            if conn.execute(q.HOLDS_ROWS).fetchone() is None:
                return before
            held = before | {kind for kind in HELD_KINDS if conn.execute(f"SELECT 1 FROM {kind} LIMIT 1").fetchone()}
            if held != before:
                leave_marker(self.path, held)  # here, not on the event loop's thread: a file's I/O may stall
            return held

        self._open()
        try:
            self._held |= await (self._readers or self._writer).run(work)
        except StoreUnavailable as error:  # what was written stays written: the marker is left later
            log.warning("the marker beside %s is not left now (%s); it is at a later write", self.path, error)

    async def fetch(self, statement: str, params: Params = ()) -> Rows:
        return (await self._steps([(statement, tuple(params))], atomic=True))[0][0]

    async def execute(self, statement: str, params: Params = ()) -> int:
        return (await self._steps([(statement, tuple(params))], atomic=True))[0][1]

    async def transaction(self, steps: Sequence[tuple[str, Params]]) -> list[int]:
        return [count for _, count in await self._steps([(s, tuple(p)) for s, p in steps], atomic=True)]

    async def execute_many(self, statement: str, rows: Sequence[Params]) -> None:
        values = [tuple(r) for r in rows]

        def work(conn: sqlite3.Connection, call: Call) -> None:
            _in_transaction(conn, call, lambda: conn.executemany(statement, values))

        self._open()
        await self._writer.run(work)

    async def fetch_batch(self, steps: Sequence[tuple[str, Params]], *, atomic: bool = True,
                          flushed: bool = True) -> list[Rows]:
        """See ``Driver.fetch_batch``; ``flushed`` changes nothing here: every commit waits for the disk."""
        return [rows for rows, _ in await self._steps([(s, tuple(p)) for s, p in steps], atomic=atomic)]

    async def _steps(self, steps: Steps, *, atomic: bool) -> Done:
        """Each statement's rows and changed-row count: reads on a reader, writes on the writer; in
        one transaction when ``atomic`` (else each on its own); then, after a removal of personal
        data, the WAL checkpointed with TRUNCATE (module doc)."""
        self._open()
        if self._readers is not None and all(reads(statement) for statement, _ in steps):
            return await self._readers.run(lambda conn, call: _together(conn, call, steps, atomic=atomic,
                                                                         begin="BEGIN"))

        def work(conn: sqlite3.Connection, call: Call) -> Done:
            done = _together(conn, call, steps, atomic=atomic, begin=WRITE)
            if any(count > 0 and erases(s) for (s, _), (_, count) in zip(steps, done, strict=True)) or (
                    self._erase_again is not None and time.monotonic() >= self._erase_again):
                self._erase(conn)
            return done

        return await self._writer.run(work)

    def _erase(self, conn: sqlite3.Connection) -> None:
        """The WAL checkpointed into the file and truncated to nothing (on the writer's thread)."""
        if self._location.is_memory:
            return
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(ERASE_WAIT * 1000)}")
            try:
                busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            finally:
                conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        except sqlite3.Error as error:  # the removal is committed: the caller is told so; retried later
            busy = 1
            log.warning("the WAL of %s was not emptied after a deletion (tried again after later writes): %s",
                        self.path, damaged(error, self.path) or error)
        self._erase_again = time.monotonic() + ERASE_AGAIN_S if busy else None

    async def claim(self, now: int, until: int, token: str, shards: Shards | None,
                    limit: int) -> tuple[Claimed, ...]:
        where, params = q.shard_filter(shards)
        select = q.DUE.format(where=where)

        def work(conn: sqlite3.Connection, call: Call) -> tuple[Claimed, ...]:
            def take() -> tuple[Claimed, ...]:
                rows = [q.row_of(r) for r in conn.execute(select, (now, *params, limit)).fetchall()]
                conn.executemany(
                    "UPDATE schedules SET due_at = ?, lease_token = ?, unsure = 1 WHERE id = ?",
                    [(until, token, row.id) for row in rows],
                )
                return tuple(front.Claimed(row, token, row.unsure) for row in rows)

            # The write lock is taken before the read, so no other process can claim in between.
            return _in_transaction(conn, call, take)

        self._open()
        return await self._writer.run(work)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._readers is not None:
                await self._readers.finish(lambda conn: conn.close())
        finally:  # the writer's connection last: closing it merges the WAL into the file and removes it
            await self._writer.finish(lambda conn: conn.close())

    def _open(self) -> None:
        if self._closed:
            raise RuntimeError("the store is closed")


def _together(conn: sqlite3.Connection, call: Call, steps: Steps, *, atomic: bool, begin: str) -> Done:
    """Each statement's rows and changed-row count: in one transaction (opened with ``begin``) when
    ``atomic``, else each on its own (a write in a transaction of its own)."""
    def written(statement: str, params: tuple[object, ...]) -> tuple[Rows, int]:
        """In a write transaction, a many-row INSERT's rows read back in one step (sqlite_rows)."""
        rows = inserted(conn, statement, params) if begin == WRITE else None
        return _step(conn, statement, params) if rows is None else (rows, len(rows))

    def alone(statement: str, params: tuple[object, ...]) -> tuple[Rows, int]:
        if reads(statement) or _pragma(statement):
            return _step(conn, statement, params)
        return _in_transaction(conn, call, lambda: written(statement, params), begin)

    if not atomic or len(steps) == 1 or all(_pragma(statement) for statement, _ in steps):
        return [alone(statement, params) for statement, params in steps]
    return _in_transaction(conn, call, lambda: [written(s, p) for s, p in steps], begin)


def _pragma(statement: str) -> bool:
    """A PRAGMA: run on its own (some cannot run inside a transaction)."""
    return statement.lstrip()[:6].upper() == "PRAGMA"


def _step(conn: sqlite3.Connection, statement: str, params: tuple[object, ...]) -> tuple[Rows, int]:
    cursor = conn.execute(statement, params)
    rows = list(cursor.fetchall())
    return rows, int(cursor.rowcount)


def _in_transaction(conn: sqlite3.Connection, call: Call, work: Callable[[], T], begin: str = WRITE) -> T:
    """``work()`` inside ``begin`` … COMMIT, rolled back if it raises, or if the call is late by then
    (its caller is told the database did not answer: the write must not be stored)."""
    conn.execute(begin)
    try:
        result = work()
        if call.late():
            raise not_answering(call.where)
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
