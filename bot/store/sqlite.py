"""The embedded `Store`: one SQLite file in WAL mode, one connection owned by one worker thread,
so blocking calls never run on the event loop.

Before the file is opened it is checked without writing to it: a directory, an unreadable or
read-only file, a file that is not SQLite, one shorter than its header says (truncated), or an
empty file where a marker says schedules were kept — each is a `StoreError` naming the file and
what to do, and the file is left exactly as it was.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TypeVar

from . import store_sql as q
from .migrations import MIGRATIONS, Step
from .store import (
    Claimed,
    Location,
    QuizAnswer,
    QuizRow,
    QuizScore,
    QuizTopicScore,
    ScheduleRow,
    Shards,
    StoreError,
    epoch,
    from_epoch,
    shard_filter,
)
from .store_casebook import SqliteCasebook

__all__ = ["SqliteStore", "check_file", "connect", "marker_path", "migrate"]

T = TypeVar("T")

HEADER = b"SQLite format 3\x00"
RESTORE = "restore it from a backup (see docs/admin.md) or point LIUREN_DB at another file"


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
            conn.execute("ROLLBACK")
            raise
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def connect(path: Path) -> sqlite3.Connection:
    """Open the file in WAL mode, autocommit (we write our own transactions), with a busy timeout.

    ":memory:" gives a private in-memory database (tests), which has no WAL.
    """
    memory = str(path) == ":memory:"
    if not memory:
        check_file(path)
        path.parent.mkdir(parents=True, exist_ok=True)
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
        conn.execute("PRAGMA busy_timeout = 5000")
    except sqlite3.DatabaseError as error:
        conn.close()
        raise StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
    except BaseException:
        conn.close()
        raise
    return conn


class SqliteStore(SqliteCasebook):
    """`Store` on one SQLite file. Every call runs on a dedicated single worker thread."""

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
    async def open(cls, location: Location) -> SqliteStore:
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
                raise StoreError(f"{path} is damaged ({error}); {RESTORE}") from None
            except BaseException:
                conn.close()
                raise
            return conn

        try:
            conn = await loop.run_in_executor(executor, opening)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        store = cls(conn, executor, location)
        await store._run(store._mark_if_used)
        return store

    def _mark_if_used(self, conn: sqlite3.Connection) -> None:
        """Leave the marker once the database holds a schedule or a case (called on the worker thread)."""
        if self._marked or self._location.is_memory:
            return
        if conn.execute("SELECT 1 FROM schedules UNION ALL SELECT 1 FROM cases LIMIT 1").fetchone() is not None:
            marker_path(self.path).touch()
            self._marked = True

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, work, self._conn)

    async def guild_timezone(self, guild_id: int) -> str | None:
        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(q.GUILD_TIMEZONE, (guild_id,)).fetchone()
            return None if row is None or row[0] is None else str(row[0])

        return await self._run(work)

    async def set_guild_timezone(self, guild_id: int, tz: str) -> None:
        await self._run(lambda conn: conn.execute(q.SET_GUILD_TIMEZONE, (guild_id, tz)))

    async def put_schedule(
        self,
        guild_id: int,
        channel_id: int,
        post_time: str,
        timezone: str,
        locale: str,
        since: datetime,
        due_at: int | None,
        due_day: date | None,
    ) -> int:
        stamp = since.astimezone(UTC).isoformat()

        def work(conn: sqlite3.Connection) -> int:
            row = conn.execute(
                q.PUT_SCHEDULE, (guild_id, channel_id, post_time, timezone, locale, stamp, due_at, q.iso(due_day))
            ).fetchone()
            self._mark_if_used(conn)
            return int(row[0])

        return await self._run(work)

    async def schedules(self, guild_id: int | None = None) -> tuple[ScheduleRow, ...]:
        def work(conn: sqlite3.Connection) -> tuple[ScheduleRow, ...]:
            cursor = conn.execute(q.ALL) if guild_id is None else conn.execute(q.OF_GUILD, (guild_id,))
            return tuple(q.row_of(r) for r in cursor.fetchall())

        return await self._run(work)

    async def delete_schedules(self, guild_id: int, channel_id: int | None = None) -> int:
        def work(conn: sqlite3.Connection) -> int:
            if channel_id is None:
                return conn.execute(q.DELETE_GUILD, (guild_id,)).rowcount
            return conn.execute(q.DELETE_CHANNEL, (guild_id, channel_id)).rowcount

        return await self._run(work)

    async def claim_due(
        self, now: datetime, lease_until: datetime, token: str, shards: Shards | None, limit: int
    ) -> tuple[Claimed, ...]:
        where, params = shard_filter(shards)
        select = q.DUE.format(where=where)
        until = epoch(lease_until)

        def work(conn: sqlite3.Connection) -> tuple[Claimed, ...]:
            # The write lock is taken before the read, so no other process can claim in between.
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows = [q.row_of(r) for r in conn.execute(select, (epoch(now), *params, limit)).fetchall()]
                conn.executemany(
                    "UPDATE schedules SET due_at = ?, lease_token = ?, unsure = 1 WHERE id = ?",
                    [(until, token, row.id) for row in rows],
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return tuple(Claimed(row, token, row.unsure) for row in rows)

        return await self._run(work)

    async def confirm(
        self, schedule_id: int, token: str, day: date, message_id: int | None, error: str | None,
        due_at: int | None, due_day: date | None,
    ) -> bool:
        params = (day.isoformat(), message_id, error, due_at, q.iso(due_day), schedule_id, token)
        return bool(await self._run(lambda conn: conn.execute(q.CONFIRM, params).rowcount == 1))

    async def release(self, schedule_id: int, token: str, retry_at: int, error: str | None, unsure: bool) -> None:
        params = (retry_at, error, int(unsure), schedule_id, token)
        await self._run(lambda conn: conn.execute(q.RELEASE, params))

    async def reschedule(self, schedule_id: int, due_at: int | None, due_day: date | None,
                         token: str | None = None) -> None:
        if token is None:
            await self._run(lambda conn: conn.execute(q.RESCHEDULE, (due_at, q.iso(due_day), schedule_id)))
        else:
            params = (due_at, q.iso(due_day), schedule_id, token)
            await self._run(lambda conn: conn.execute(q.RESCHEDULE_HELD, params))

    async def schedules_page(self, after_id: int, limit: int) -> tuple[ScheduleRow, ...]:
        return await self._run(
            lambda conn: tuple(q.row_of(r) for r in conn.execute(q.PAGE, (after_id, limit)).fetchall())
        )

    async def unscheduled(self, after_id: int = 0, limit: int | None = None) -> tuple[ScheduleRow, ...]:
        params = (after_id, q.NO_LIMIT if limit is None else limit)
        return await self._run(lambda conn: tuple(q.row_of(r) for r in conn.execute(q.UNSCHEDULED, params).fetchall()))

    async def reschedule_many(self, items: Sequence[tuple[int, int | None, date | None]]) -> None:
        rows = [(due_at, q.iso(day), schedule_id) for schedule_id, due_at, day in items]

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(q.RESCHEDULE, rows)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

        await self._run(work)

    async def next_due(self, shards: Shards | None) -> datetime | None:
        where, params = shard_filter(shards)

        def work(conn: sqlite3.Connection) -> datetime | None:
            found = conn.execute(q.NEXT_DUE + where + q.NEXT_DUE_ORDER, params).fetchone()
            return None if found is None else from_epoch(int(found[0]))

        return await self._run(work)

    async def disable(self, schedule_id: int, reason: str) -> None:
        await self._run(lambda conn: conn.execute(q.DISABLE, (reason, schedule_id)))

    async def enable(self, schedule_id: int, due_at: int | None, due_day: date | None) -> None:
        await self._run(lambda conn: conn.execute(q.ENABLE, (due_at, q.iso(due_day), schedule_id)))

    async def note_error(self, schedule_id: int, error: str | None) -> None:
        await self._run(lambda conn: conn.execute(q.NOTE_ERROR, (error, schedule_id)))

    async def meta(self, key: str) -> str | None:
        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(q.META, (key,)).fetchone()
            return None if row is None else str(row[0])

        return await self._run(work)

    async def set_meta(self, key: str, value: str) -> None:
        await self._run(lambda conn: conn.execute(q.SET_META, (key, value)))

    # -- the study quiz (/quiz) --

    async def create_quiz(
        self, guild_id: int, channel_id: int, user_id: int, locale: str, level: str, count: int, seed: int,
        school: str, seconds: int, deadline: int, now: int,
    ) -> QuizRow | None:
        params = (guild_id, channel_id, user_id, locale, level, count, seed, school, seconds, deadline, now)

        def work(conn: sqlite3.Connection) -> QuizRow | None:
            row = conn.execute(q.CREATE_QUIZ, params).fetchone()
            return None if row is None else q.quiz_of(row)

        return await self._run(work)

    async def _quizzes(self, statement: str, params: Sequence[object]) -> tuple[QuizRow, ...]:
        return await self._run(lambda conn: tuple(q.quiz_of(r) for r in conn.execute(statement, params).fetchall()))

    async def quiz(self, quiz_id: int) -> QuizRow | None:
        found = await self._quizzes(q.QUIZ, (quiz_id,))
        return found[0] if found else None

    async def running_quiz(self, channel_id: int) -> QuizRow | None:
        found = await self._quizzes(q.RUNNING_QUIZ, (channel_id,))
        return found[0] if found else None

    async def running_quizzes(self, shards: Shards | None) -> tuple[QuizRow, ...]:
        where, params = shard_filter(shards)
        return await self._quizzes(q.RUNNING_QUIZZES.format(where=where), params)

    async def due_quizzes(self, now: int, shards: Shards | None) -> tuple[QuizRow, ...]:
        where, params = shard_filter(shards)
        return await self._quizzes(q.DUE_QUIZZES.format(where=where), (now, *params))

    async def next_quiz_deadline(self, shards: Shards | None) -> int | None:
        where, params = shard_filter(shards)

        def work(conn: sqlite3.Connection) -> int | None:
            found = conn.execute(q.NEXT_QUIZ_DEADLINE.format(where=where), params).fetchone()
            return None if found is None else int(found[0])

        return await self._run(work)

    async def set_quiz_message(self, quiz_id: int, question: int, message_id: int) -> None:
        await self._run(lambda conn: conn.execute(q.SET_QUIZ_MESSAGE, (message_id, quiz_id, question)))

    async def advance_quiz(self, quiz_id: int, question: int, deadline: int) -> bool:
        params = (deadline, quiz_id, question)
        return bool(await self._run(lambda conn: conn.execute(q.ADVANCE_QUIZ, params).rowcount == 1))

    async def end_quiz(self, quiz_id: int, status: str, now: int) -> bool:
        params = (status, now, quiz_id)
        return bool(await self._run(lambda conn: conn.execute(q.END_QUIZ, params).rowcount == 1))

    async def add_quiz_answer(self, answer: QuizAnswer) -> bool:
        params = q.answer_params(answer)
        return bool(await self._run(lambda conn: conn.execute(q.ADD_QUIZ_ANSWER, params).rowcount == 1))

    async def quiz_answers(self, quiz_id: int, question: int | None = None) -> tuple[QuizAnswer, ...]:
        statement = q.QUIZ_ANSWERS if question is None else q.QUIZ_ANSWERS_TO
        params = (quiz_id,) if question is None else (quiz_id, question)
        return await self._run(lambda conn: tuple(q.answer_of(r) for r in conn.execute(statement, params).fetchall()))

    async def quiz_scores(self, guild_id: int, level: str | None, since: int | None,
                          limit: int) -> tuple[QuizScore, ...]:
        statement, params = q.quiz_scores_query(level, since)
        values = (guild_id, *params, limit)
        return await self._run(lambda conn: tuple(q.score_of(r) for r in conn.execute(statement, values).fetchall()))

    async def quiz_topics(self, guild_id: int, user_id: int) -> tuple[QuizTopicScore, ...]:
        params = (guild_id, user_id)
        return await self._run(
            lambda conn: tuple(q.topic_of(r) for r in conn.execute(q.QUIZ_TOPICS, params).fetchall())
        )

    async def close(self) -> None:
        if self._closed:
            return

        def work(conn: sqlite3.Connection) -> None:
            conn.close()

        try:
            await self._run(work)
        finally:
            self._closed = True
            self._executor.shutdown(wait=True)
