"""Persistent bot state: per-server settings and daily-post schedules.

The bot talks to storage only through the `Store` protocol, so a PostgreSQL backend can
follow for bots run as many processes. `SqliteStore` is the default: one sqlite3
connection owned by one worker thread, so blocking calls never run on the event loop.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Protocol, TypeVar

__all__ = [
    "DEFAULT_DB",
    "MIGRATIONS",
    "ScheduleRow",
    "SqliteStore",
    "Store",
    "StoreError",
    "open_store",
]

DEFAULT_DB = Path("data") / "liuren.sqlite3"

# Versioned schema: step N (1-based) brings PRAGMA user_version from N-1 to N.
# Append new steps; never edit a released one — databases in the field have run it.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: server default zone; one daily post per channel
        """CREATE TABLE guild_settings (
               guild_id INTEGER PRIMARY KEY,
               timezone TEXT
           )""",
        """CREATE TABLE schedules (
               id          INTEGER PRIMARY KEY AUTOINCREMENT,
               guild_id    INTEGER NOT NULL,
               channel_id  INTEGER NOT NULL UNIQUE,
               post_time   TEXT    NOT NULL,
               timezone    TEXT    NOT NULL,
               last_posted TEXT
           )""",
        "CREATE INDEX schedules_guild ON schedules (guild_id)",
    ),
    (  # 2: why a schedule stopped, the last delivery error, who-reads-it locale, when it was set
        "ALTER TABLE schedules ADD COLUMN disabled_reason TEXT",
        "ALTER TABLE schedules ADD COLUMN last_error TEXT",
        "ALTER TABLE schedules ADD COLUMN locale TEXT NOT NULL DEFAULT 'ja'",
        "ALTER TABLE schedules ADD COLUMN since TEXT",
    ),
)


class StoreError(RuntimeError):
    """The database cannot be used (e.g. written by a newer version of the bot)."""


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    """One schedule exactly as stored; fields are unvalidated text (see bot.schedule.plan_of)."""

    id: int
    guild_id: int
    channel_id: int
    post_time: str  # "HH:MM" local wall time
    timezone: str  # IANA zone name
    locale: str
    last_posted: str | None  # ISO local date of the last claimed post
    since: str | None  # ISO UTC instant the schedule was (re)set; earlier occurrences are not owed
    disabled_reason: str | None
    last_error: str | None


class Store(Protocol):
    """What the bot needs from storage. Every method is safe to call from the event loop."""

    async def guild_timezone(self, guild_id: int) -> str | None:
        """The server's default IANA zone, or None when unset."""
        ...

    async def set_guild_timezone(self, guild_id: int, tz: str) -> None:
        """Set the server's default zone (the caller validates the name)."""
        ...

    async def put_schedule(
        self, guild_id: int, channel_id: int, post_time: str, timezone: str, locale: str, since: datetime
    ) -> int:
        """Create or replace the channel's schedule; re-enables it and keeps last_posted. Returns its id."""
        ...

    async def schedules(self, guild_id: int | None = None) -> tuple[ScheduleRow, ...]:
        """All schedules (of one server, if given), bad rows included, ordered by id."""
        ...

    async def delete_schedules(self, guild_id: int, channel_id: int | None = None) -> int:
        """Delete the server's schedules (only the channel's, if given); returns how many."""
        ...

    async def claim(self, schedule_id: int, day: date) -> bool:
        """Atomically mark `day` posted; True for exactly one caller per schedule and day."""
        ...

    async def release(self, schedule_id: int, day: date, previous: str | None) -> None:
        """Undo our claim of `day` (restore `previous`) so the post is tried again."""
        ...

    async def disable(self, schedule_id: int, reason: str) -> None:
        """Stop posting for the schedule, keeping the reason for /daily show."""
        ...

    async def enable(self, schedule_id: int) -> None:
        """Clear a disabled reason (e.g. after a successful test post)."""
        ...

    async def note_error(self, schedule_id: int, error: str | None) -> None:
        """Record (or clear, with None) the last delivery error without disabling."""
        ...

    async def close(self) -> None:
        """Release the connection; further calls fail."""
        ...


T = TypeVar("T")

_SCHEDULE_COLUMNS = (
    "id, guild_id, channel_id, post_time, timezone, locale, last_posted, since, disabled_reason, last_error"
)


def default_path() -> Path:
    """$LIUREN_DB, else ./data/liuren.sqlite3 under the working directory."""
    env = os.environ.get("LIUREN_DB")
    return Path(env) if env else Path.cwd() / DEFAULT_DB


def migrate(conn: sqlite3.Connection, steps: tuple[tuple[str, ...], ...] = MIGRATIONS) -> int:
    """Apply the steps the database has not seen, each in its own transaction; returns the version.

    The version is re-read inside a write transaction, so two processes starting together
    never apply a step twice.
    """
    for number, statements in enumerate(steps, start=1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > len(steps):
                raise StoreError(
                    f"database schema version {version} is newer than this bot knows ({len(steps)}); "
                    "upgrade the bot or point LIUREN_DB at another file"
                )
            if version >= number:
                conn.execute("COMMIT")
                continue
            for statement in statements:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def connect(path: Path) -> sqlite3.Connection:
    """Open the file in WAL mode, autocommit (we write our own transactions), with a busy timeout.

    ":memory:" gives a private in-memory database (tests), which has no WAL.
    """
    memory = str(path) == ":memory:"
    if not memory:
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    # WAL lets readers and one writer (possibly another process) work at once.
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if not memory and str(mode).lower() != "wal":
        conn.close()
        raise StoreError(f"{path}: cannot use WAL journal mode (got {mode!r})")
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


class SqliteStore:
    """`Store` on one SQLite file. Every call runs on a dedicated single worker thread."""

    def __init__(self, conn: sqlite3.Connection, executor: ThreadPoolExecutor, path: Path) -> None:
        self._conn = conn
        self._executor = executor
        self._closed = False
        self.path = path

    @classmethod
    async def open(cls, path: Path) -> SqliteStore:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="liuren-db")
        loop = asyncio.get_running_loop()

        def opening() -> sqlite3.Connection:
            conn = connect(path)
            try:
                migrate(conn)
            except BaseException:
                conn.close()
                raise
            return conn

        try:
            conn = await loop.run_in_executor(executor, opening)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(conn, executor, path)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, work, self._conn)

    async def guild_timezone(self, guild_id: int) -> str | None:
        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT timezone FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone()
            return None if row is None or row[0] is None else str(row[0])

        return await self._run(work)

    async def set_guild_timezone(self, guild_id: int, tz: str) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO guild_settings (guild_id, timezone) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET timezone = excluded.timezone",
                (guild_id, tz),
            )

        await self._run(work)

    async def put_schedule(
        self, guild_id: int, channel_id: int, post_time: str, timezone: str, locale: str, since: datetime
    ) -> int:
        stamp = since.astimezone(UTC).isoformat()

        def work(conn: sqlite3.Connection) -> int:
            row = conn.execute(
                "INSERT INTO schedules (guild_id, channel_id, post_time, timezone, locale, since) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
                "post_time = excluded.post_time, timezone = excluded.timezone, locale = excluded.locale, "
                "since = excluded.since, disabled_reason = NULL, last_error = NULL "
                "RETURNING id",
                (guild_id, channel_id, post_time, timezone, locale, stamp),
            ).fetchone()
            return int(row[0])

        return await self._run(work)

    async def schedules(self, guild_id: int | None = None) -> tuple[ScheduleRow, ...]:
        def work(conn: sqlite3.Connection) -> tuple[ScheduleRow, ...]:
            if guild_id is None:
                cursor = conn.execute(f"SELECT {_SCHEDULE_COLUMNS} FROM schedules ORDER BY id")
            else:
                cursor = conn.execute(
                    f"SELECT {_SCHEDULE_COLUMNS} FROM schedules WHERE guild_id = ? ORDER BY id", (guild_id,)
                )
            # Columns are read as stored (str() on odd types) so a bad row still comes back
            # and can be reported, rather than raising here and hiding every other row.
            return tuple(
                ScheduleRow(
                    id=int(r[0]),
                    guild_id=int(r[1]),
                    channel_id=int(r[2]),
                    post_time=str(r[3]),
                    timezone=str(r[4]),
                    locale=str(r[5]),
                    last_posted=None if r[6] is None else str(r[6]),
                    since=None if r[7] is None else str(r[7]),
                    disabled_reason=r[8],
                    last_error=r[9],
                )
                for r in cursor.fetchall()
            )

        return await self._run(work)

    async def delete_schedules(self, guild_id: int, channel_id: int | None = None) -> int:
        def work(conn: sqlite3.Connection) -> int:
            if channel_id is None:
                cursor = conn.execute("DELETE FROM schedules WHERE guild_id = ?", (guild_id,))
            else:
                cursor = conn.execute(
                    "DELETE FROM schedules WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id)
                )
            return cursor.rowcount

        return await self._run(work)

    async def claim(self, schedule_id: int, day: date) -> bool:
        value = day.isoformat()

        def work(conn: sqlite3.Connection) -> bool:
            # One statement, so the check and the write are atomic even across processes.
            cursor = conn.execute(
                "UPDATE schedules SET last_posted = ? WHERE id = ? AND disabled_reason IS NULL "
                "AND (last_posted IS NULL OR last_posted < ?)",
                (value, schedule_id, value),
            )
            return cursor.rowcount == 1

        return await self._run(work)

    async def release(self, schedule_id: int, day: date, previous: str | None) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE schedules SET last_posted = ? WHERE id = ? AND last_posted = ?",
                (previous, schedule_id, day.isoformat()),
            )

        await self._run(work)

    async def disable(self, schedule_id: int, reason: str) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE schedules SET disabled_reason = ? WHERE id = ?", (reason, schedule_id))

        await self._run(work)

    async def enable(self, schedule_id: int) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE schedules SET disabled_reason = NULL WHERE id = ?", (schedule_id,))

        await self._run(work)

    async def note_error(self, schedule_id: int, error: str | None) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE schedules SET last_error = ? WHERE id = ?", (error, schedule_id))

        await self._run(work)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True

        def work(conn: sqlite3.Connection) -> None:
            conn.close()

        try:
            await self._run(work)
        finally:
            self._executor.shutdown(wait=True)


async def open_store(path: str | os.PathLike[str] | None = None) -> Store:
    """Open (creating and migrating as needed) the store; None → $LIUREN_DB or ./data/liuren.sqlite3."""
    return await SqliteStore.open(Path(path) if path is not None else default_path())
