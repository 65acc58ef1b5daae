"""The PostgreSQL driver, for a bot run as several processes (shards) on several machines.

psycopg 3 (async) with a connection pool. The schema is the same versioned list of steps as
SQLite's (bot.migrations), applied under an advisory lock so processes starting together apply
each step once. Claims lock the due rows they take with ``FOR UPDATE SKIP LOCKED`` in one
``UPDATE … RETURNING``: two processes never take the same row, and neither waits on the other.

The connection's ``search_path`` comes from the URL (``?options=-csearch_path%3Dname``), which is
how the tests give each test a schema of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from . import sql as q
from .driver import Params, Rows
from .location import Location
from .migrations import MIGRATIONS, Step
from .values import Claimed, Shards, StoreError

__all__ = ["PostgresDriver", "migrate", "sql"]

_LOCK = 0x6C69_7572_656E  # advisory lock id for migrations ("liuren")


@cache
def sql(statement: str) -> str:
    """The store's ``?``-placeholder SQL (its own literals, bot.store.sql) in psycopg's ``%s`` style."""
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


class PostgresDriver:
    """The store's driver on a PostgreSQL server, through a pool of async connections."""

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
    ) -> PostgresDriver:
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

    def _open(self) -> None:
        if self._closed:
            raise RuntimeError("the store is closed")

    async def fetch(self, statement: str, params: Params = ()) -> Rows:
        self._open()
        async with self._pool.connection() as conn:
            cursor = await conn.execute(sql(statement), tuple(params))
            return list(await cursor.fetchall()) if cursor.description is not None else []

    async def execute(self, statement: str, params: Params = ()) -> int:
        self._open()
        async with self._pool.connection() as conn:
            cursor = await conn.execute(sql(statement), tuple(params))
            return cursor.rowcount

    async def transaction(self, steps: Sequence[tuple[str, Params]]) -> list[int]:
        self._open()
        counts: list[int] = []
        async with self._pool.connection() as conn, conn.transaction():
            for statement, params in steps:
                counts.append((await conn.execute(sql(statement), tuple(params))).rowcount)
        return counts

    async def execute_many(self, statement: str, rows: Sequence[Params]) -> None:
        self._open()
        async with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            await cursor.executemany(sql(statement), [tuple(r) for r in rows])

    async def claim(self, now: int, until: int, token: str, shards: Shards | None,
                    limit: int) -> tuple[Claimed, ...]:
        where, params = q.shard_filter(shards)
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
        rows = await self.fetch(statement, (until, token, now, *params, limit))
        return tuple(Claimed(q.row_of(r[:-1]), token, bool(r[-1]))
                     for r in sorted(rows, key=lambda r: (r[10] or 0, r[0])))

    async def note_used(self) -> None:
        """Nothing to mark: a server keeps its own data."""

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._pool.close()
