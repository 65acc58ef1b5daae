"""The `Store` on PostgreSQL, for a bot run as several processes (shards) on several machines.

psycopg 3 (async) with a connection pool. The schema is the same versioned list of steps as
SQLite's (bot.migrations), applied under an advisory lock so processes starting together apply
each step once. Claims lock the due rows they take with ``FOR UPDATE SKIP LOCKED`` in one
``UPDATE … RETURNING``: two processes never take the same row, and neither waits on the other.

The connection's ``search_path`` comes from the URL (``?options=-csearch_path%3Dname``), which is
how the tests give each test a schema of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

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
from .store_casebook import PostgresCasebook

__all__ = ["PostgresStore", "migrate"]

_LOCK = 0x6C69_7572_656E  # advisory lock id for migrations ("liuren")


def sql(statement: str) -> str:
    """The shared ``?``-placeholder SQL in psycopg's ``%s`` style."""
    return statement.replace("%", "%%").replace("?", "%s")


async def migrate(conn: psycopg.AsyncConnection[Any], steps: tuple[Step, ...] = MIGRATIONS, *,
                  name: str = "database") -> int:
    """Apply the steps the database has not seen, each in its own transaction; returns the version."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        await conn.execute("CREATE TABLE IF NOT EXISTS liuren_schema (version INTEGER NOT NULL)")
        found = await (await conn.execute("SELECT version FROM liuren_schema")).fetchone()
        if found is None:
            await conn.execute("INSERT INTO liuren_schema (version) VALUES (0)")
    for number, step in enumerate(steps, start=1):
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            row = await (await conn.execute("SELECT version FROM liuren_schema")).fetchone()
            version = int(row[0]) if row is not None else 0
            if version > len(steps):
                raise StoreError(
                    f"{name} has schema version {version}, newer than this liuren knows ({len(steps)}); "
                    "upgrade liuren, or point LIUREN_DB at another database"
                )
            if version >= number:
                continue
            for statement in step.postgres:
                await conn.execute(statement)  # type-checked SQL literals from bot.migrations
            await conn.execute("UPDATE liuren_schema SET version = %s", (number,))
    row = await (await conn.execute("SELECT version FROM liuren_schema")).fetchone()
    return int(row[0]) if row is not None else 0


class PostgresStore(PostgresCasebook):
    """`Store` on a PostgreSQL server, through a pool of async connections."""

    def __init__(self, pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]], location: Location) -> None:
        self._pool = pool
        self._location = location
        self._closed = False

    @property
    def location(self) -> Location:
        return self._location

    @classmethod
    async def open(
        cls, location: Location, *, min_size: int = 1, max_size: int = 8, timeout: float = 10.0
    ) -> PostgresStore:
        assert location.url is not None
        where = location.describe()
        pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            location.url, min_size=min_size, max_size=max_size, open=False, kwargs={"autocommit": True},
            name="liuren",
        )
        try:
            await pool.open(wait=True, timeout=timeout)
        except Exception as error:
            await pool.close()
            raise StoreError(f"cannot connect to {where} ({error}); is the server running?") from None
        try:
            async with pool.connection() as conn:
                await migrate(conn, name=where)
        except psycopg.Error as error:
            await pool.close()
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise StoreError(f"{where}: cannot prepare the schema ({first}); check the user's rights") from None
        except BaseException:
            await pool.close()
            raise
        return cls(pool, location)

    async def _fetch(self, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self._closed:
            raise RuntimeError("the store is closed")
        async with self._pool.connection() as conn:
            cursor = await conn.execute(sql(statement), tuple(params))
            return list(await cursor.fetchall()) if cursor.description is not None else []

    async def _count(self, statement: str, params: Sequence[Any] = ()) -> int:
        if self._closed:
            raise RuntimeError("the store is closed")
        async with self._pool.connection() as conn:
            cursor = await conn.execute(sql(statement), tuple(params))
            return cursor.rowcount

    async def guild_timezone(self, guild_id: int) -> str | None:
        rows = await self._fetch(q.GUILD_TIMEZONE, (guild_id,))
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    async def set_guild_timezone(self, guild_id: int, tz: str) -> None:
        await self._count(q.SET_GUILD_TIMEZONE, (guild_id, tz))

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
        rows = await self._fetch(
            q.PUT_SCHEDULE, (guild_id, channel_id, post_time, timezone, locale, stamp, due_at, q.iso(due_day))
        )
        return int(rows[0][0])

    async def schedules(self, guild_id: int | None = None) -> tuple[ScheduleRow, ...]:
        rows = await (self._fetch(q.ALL) if guild_id is None else self._fetch(q.OF_GUILD, (guild_id,)))
        return tuple(q.row_of(r) for r in rows)

    async def delete_schedules(self, guild_id: int, channel_id: int | None = None) -> int:
        if channel_id is None:
            return await self._count(q.DELETE_GUILD, (guild_id,))
        return await self._count(q.DELETE_CHANNEL, (guild_id, channel_id))

    async def claim_due(
        self, now: datetime, lease_until: datetime, token: str, shards: Shards | None, limit: int
    ) -> tuple[Claimed, ...]:
        where, params = shard_filter(shards)
        columns = ", ".join(f"s.{c.strip()}" for c in q.COLUMNS.split(","))
        # The subquery locks the due rows it picks and skips rows another process has locked;
        # `was` carries each row's unsure flag from before this claim.
        statement = (
            "UPDATE schedules AS s SET due_at = ?, lease_token = ?, unsure = 1 "
            "FROM (SELECT id, unsure AS was FROM schedules "
            f"WHERE due_at <= ? AND disabled_reason IS NULL{where} "
            "ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED) AS c "
            f"WHERE s.id = c.id RETURNING {columns}, c.was"
        )
        rows = await self._fetch(statement, (epoch(lease_until), token, epoch(now), *params, limit))
        claimed = []
        for r in sorted(rows, key=lambda r: (r[10] or 0, r[0])):
            row = q.row_of(r[:-1])
            claimed.append(Claimed(row, token, bool(r[-1])))
        return tuple(claimed)

    async def confirm(
        self, schedule_id: int, token: str, day: date, message_id: int | None, error: str | None,
        due_at: int | None, due_day: date | None,
    ) -> bool:
        params = (day.isoformat(), message_id, error, due_at, q.iso(due_day), schedule_id, token)
        return await self._count(q.CONFIRM, params) == 1

    async def release(self, schedule_id: int, token: str, retry_at: int, error: str | None, unsure: bool) -> None:
        await self._count(q.RELEASE, (retry_at, error, int(unsure), schedule_id, token))

    async def reschedule(self, schedule_id: int, due_at: int | None, due_day: date | None,
                         token: str | None = None) -> None:
        if token is None:
            await self._count(q.RESCHEDULE, (due_at, q.iso(due_day), schedule_id))
        else:
            await self._count(q.RESCHEDULE_HELD, (due_at, q.iso(due_day), schedule_id, token))

    async def schedules_page(self, after_id: int, limit: int) -> tuple[ScheduleRow, ...]:
        return tuple(q.row_of(r) for r in await self._fetch(q.PAGE, (after_id, limit)))

    async def unscheduled(self, after_id: int = 0, limit: int | None = None) -> tuple[ScheduleRow, ...]:
        params = (after_id, q.NO_LIMIT if limit is None else limit)
        return tuple(q.row_of(r) for r in await self._fetch(q.UNSCHEDULED, params))

    async def reschedule_many(self, items: Sequence[tuple[int, int | None, date | None]]) -> None:
        if self._closed:
            raise RuntimeError("the store is closed")
        rows = [(due_at, q.iso(day), schedule_id) for schedule_id, due_at, day in items]
        async with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            await cursor.executemany(sql(q.RESCHEDULE), rows)

    async def next_due(self, shards: Shards | None) -> datetime | None:
        where, params = shard_filter(shards)
        rows = await self._fetch(q.NEXT_DUE + where + q.NEXT_DUE_ORDER, params)
        return None if not rows or rows[0][0] is None else from_epoch(int(rows[0][0]))

    async def disable(self, schedule_id: int, reason: str) -> None:
        await self._count(q.DISABLE, (reason, schedule_id))

    async def enable(self, schedule_id: int, due_at: int | None, due_day: date | None) -> None:
        await self._count(q.ENABLE, (due_at, q.iso(due_day), schedule_id))

    async def note_error(self, schedule_id: int, error: str | None) -> None:
        await self._count(q.NOTE_ERROR, (error, schedule_id))

    async def meta(self, key: str) -> str | None:
        rows = await self._fetch(q.META, (key,))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._count(q.SET_META, (key, value))

    # -- the study quiz (/quiz) --

    async def create_quiz(
        self, guild_id: int, channel_id: int, user_id: int, locale: str, level: str, count: int, seed: int,
        school: str, seconds: int, deadline: int, now: int,
    ) -> QuizRow | None:
        params = (guild_id, channel_id, user_id, locale, level, count, seed, school, seconds, deadline, now)
        rows = await self._fetch(q.CREATE_QUIZ, params)
        return q.quiz_of(rows[0]) if rows else None

    async def quiz(self, quiz_id: int) -> QuizRow | None:
        rows = await self._fetch(q.QUIZ, (quiz_id,))
        return q.quiz_of(rows[0]) if rows else None

    async def running_quiz(self, channel_id: int) -> QuizRow | None:
        rows = await self._fetch(q.RUNNING_QUIZ, (channel_id,))
        return q.quiz_of(rows[0]) if rows else None

    async def running_quizzes(self, shards: Shards | None) -> tuple[QuizRow, ...]:
        where, params = shard_filter(shards)
        return tuple(q.quiz_of(r) for r in await self._fetch(q.RUNNING_QUIZZES.format(where=where), params))

    async def due_quizzes(self, now: int, shards: Shards | None) -> tuple[QuizRow, ...]:
        where, params = shard_filter(shards)
        return tuple(q.quiz_of(r) for r in await self._fetch(q.DUE_QUIZZES.format(where=where), (now, *params)))

    async def next_quiz_deadline(self, shards: Shards | None) -> int | None:
        where, params = shard_filter(shards)
        rows = await self._fetch(q.NEXT_QUIZ_DEADLINE.format(where=where), params)
        return None if not rows else int(rows[0][0])

    async def set_quiz_message(self, quiz_id: int, question: int, message_id: int) -> None:
        await self._count(q.SET_QUIZ_MESSAGE, (message_id, quiz_id, question))

    async def advance_quiz(self, quiz_id: int, question: int, deadline: int) -> bool:
        return await self._count(q.ADVANCE_QUIZ, (deadline, quiz_id, question)) == 1

    async def end_quiz(self, quiz_id: int, status: str, now: int) -> bool:
        return await self._count(q.END_QUIZ, (status, now, quiz_id)) == 1

    async def add_quiz_answer(self, answer: QuizAnswer) -> bool:
        return await self._count(q.ADD_QUIZ_ANSWER, q.answer_params(answer)) == 1

    async def quiz_answers(self, quiz_id: int, question: int | None = None) -> tuple[QuizAnswer, ...]:
        if question is None:
            rows = await self._fetch(q.QUIZ_ANSWERS, (quiz_id,))
        else:
            rows = await self._fetch(q.QUIZ_ANSWERS_TO, (quiz_id, question))
        return tuple(q.answer_of(r) for r in rows)

    async def quiz_scores(self, guild_id: int, level: str | None, since: int | None,
                          limit: int) -> tuple[QuizScore, ...]:
        statement, params = q.quiz_scores_query(level, since)
        return tuple(q.score_of(r) for r in await self._fetch(statement, (guild_id, *params, limit)))

    async def quiz_topics(self, guild_id: int, user_id: int) -> tuple[QuizTopicScore, ...]:
        return tuple(q.topic_of(r) for r in await self._fetch(q.QUIZ_TOPICS, (guild_id, user_id)))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._pool.close()
