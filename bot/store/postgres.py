"""The PostgreSQL driver, for a bot run as several processes (shards) on several machines.

psycopg 3 (async) with a connection pool. The schema is the same versioned list of steps as
SQLite's (bot.migrations), applied under an advisory lock so processes starting together apply
each step once. Claims lock the due rows they take with ``FOR UPDATE SKIP LOCKED`` in one
``UPDATE … RETURNING``: two processes never take the same row, and neither waits on the other.

The connection's ``search_path`` comes from the URL (``?options=-csearch_path%3Dname``), which is
how the tests give each test a schema of its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import nullcontext
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool, PoolTimeout

import bot.store as front  # Claimed, loaded by the first claim (PEP 562)

from . import sql as q
from .deadline import detached
from .driver import Params, Rows, StoreUnavailable
from .location import Location
from .migrations import MIGRATIONS, Step
from .values import Shards, StoreError

if TYPE_CHECKING:
    from .schedule_values import Claimed

__all__ = ["CLIENT", "LOCK_TIMEOUT", "POOL_TIMEOUT", "STATEMENT_TIMEOUT", "PostgresDriver", "client_settings",
           "migrate", "sql", "unavailable"]

T = TypeVar("T")
_LOCK = 0x6C69_7572_656E  # advisory lock id for migrations ("liuren")

# A slow or locked server answers within seconds: a statement is cancelled after
# STATEMENT_TIMEOUT, a lock wait after LOCK_TIMEOUT, and a free connection is waited for at most
# POOL_TIMEOUT (the bot has acknowledged the interaction by then and says the database is busy).
STATEMENT_TIMEOUT = 5.0
LOCK_TIMEOUT = 3.0
POOL_TIMEOUT = 5.0

# The client's own limits, on every connection (libpq's parameters), so a server that stops answering
# is noticed even when no packet comes back (a blackholed network, a frozen machine): a connection is
# given up after 5 s; an idle one is probed after 10 s of silence, every 5 s, and dropped after 3
# unanswered probes (25 s); data sent and not acknowledged for 10 s closes the connection (Linux's
# TCP_USER_TIMEOUT). The store's deadline (bot.store.deadline) answers the user before any of these.
CLIENT = {"connect_timeout": "5", "keepalives": "1", "keepalives_idle": "10", "keepalives_interval": "5",
          "keepalives_count": "3", "tcp_user_timeout": "10000"}

# SQLSTATE classes that mean "not now": 08 connection exception, 53 insufficient resources,
# 57 operator intervention (admin shutdown, terminated backend, starting up, query cancelled),
# and 55P03 lock_not_available (lock_timeout).
_TRANSIENT_CLASSES = ("08", "53", "57")


def unavailable(error: Exception, where: str) -> StoreUnavailable | None:
    """The error as a StoreUnavailable when the server cannot answer now (down, restarting, a killed
    connection, a statement or lock timeout, no free connection); None for any other error."""
    if isinstance(error, PoolTimeout):
        return StoreUnavailable(f"{where}: no connection within {POOL_TIMEOUT:.0f} s; is the server running?")
    if not isinstance(error, psycopg.Error):
        return None
    state = error.sqlstate
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if state == "57014":
        return StoreUnavailable(f"{where}: a statement took longer than {STATEMENT_TIMEOUT:.0f} s and was cancelled")
    if state == "55P03":
        return StoreUnavailable(f"{where}: a row stayed locked for more than {LOCK_TIMEOUT:.0f} s ({first})")
    if (state is None and isinstance(error, psycopg.OperationalError)) or (state or "")[:2] in _TRANSIENT_CLASSES:
        return StoreUnavailable(f"cannot connect to {where}, or it dropped the connection ({first}); is the server "
                                "running?")
    return None


async def _configure(conn: psycopg.AsyncConnection[Any]) -> None:
    """Every pooled connection: the session's statement and lock timeouts."""
    await conn.execute(f"SET statement_timeout = {int(STATEMENT_TIMEOUT * 1000)}")
    await conn.execute(f"SET lock_timeout = {int(LOCK_TIMEOUT * 1000)}")


def client_settings(url: str) -> dict[str, str]:
    """``CLIENT``'s settings the URL does not choose itself (an operator's own choice in the URL wins)."""
    given = conninfo_to_dict(url)
    return {key: value for key, value in CLIENT.items() if key not in given}


@cache
def sql(statement: str) -> str:
    """The store's ``?``-placeholder SQL (its own literals, bot.store.sql) in psycopg's ``%s`` style."""
    return statement.replace("%", "%%").replace("?", "%s")


async def migrate(conn: psycopg.AsyncConnection[Any], steps: tuple[Step, ...] = MIGRATIONS, *,
                  name: str = "database") -> int:
    """Apply the steps the database has not seen, each in its own transaction; returns the version."""
    async with conn.transaction():
        await _unlimited(conn)
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        await conn.execute("CREATE TABLE IF NOT EXISTS liuren_schema (version INTEGER NOT NULL)")
        found = await (await conn.execute("SELECT version FROM liuren_schema")).fetchone()
        if found is None:
            await conn.execute("INSERT INTO liuren_schema (version) VALUES (0)")
        elif int(found[0]) == len(steps):  # up to date: no step's transaction to open (every start but the first)
            return len(steps)
    for number, step in enumerate(steps, start=1):
        async with conn.transaction():
            await _unlimited(conn)
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


# What a server says when the setting is wrong (a role, a database, a password, pg_hba.conf), not
# when it is down or starting: waiting cannot help these.
_SETTING_ERRORS = ("authentication failed", "does not exist", "no pg_hba.conf entry", "password",
                   "permission denied", "invalid")


def _refused_setting(message: str) -> bool:
    lowered = message.lower()
    return any(words in lowered for words in _SETTING_ERRORS)


async def _unlimited(conn: psycopg.AsyncConnection[Any]) -> None:
    """No timeouts for this transaction: a migration (or waiting for another process's) may take long."""
    await conn.execute("SET LOCAL statement_timeout = 0")
    await conn.execute("SET LOCAL lock_timeout = 0")


async def _probe(url: str, where: str, timeout: float) -> None:
    """Connect once, so a wrong setting (password, user, database name) is a StoreError at once
    and a server that is down or starting is a StoreUnavailable (the caller may wait for it)."""
    try:
        settings = {**client_settings(url), "connect_timeout": str(max(2, int(timeout)))}
        conn = await psycopg.AsyncConnection.connect(make_conninfo(url, **settings))
    except psycopg.Error as error:
        # libpq gives no SQLSTATE for a refused connection: the server's FATAL says which it is.
        found = None if _refused_setting(str(error)) else unavailable(error, where)
        if found is not None:
            raise found from None
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise StoreError(f"cannot connect to {where} ({first}); check LIUREN_DB (user, password, database)") from None
    await conn.close()


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
        await _probe(location.url, where, timeout)
        # check=: a connection is tested before it is handed out, so one the server dropped (a
        # restart, pg_terminate_backend, an idle timeout) is replaced instead of failing a command.
        pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            location.url, min_size=min_size, max_size=max_size, open=False,
            kwargs={"autocommit": True, **client_settings(location.url)},
            name="liuren", configure=_configure, check=AsyncConnectionPool.check_connection,
            timeout=POOL_TIMEOUT,
        )
        try:
            await pool.open(wait=True, timeout=timeout)
        except Exception as error:
            await pool.close()
            raise StoreUnavailable(f"cannot connect to {where} ({error}); is the server running?") from None
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

    async def _run(self, work: Callable[[psycopg.AsyncConnection[Any]], Awaitable[T]]) -> T:
        """``work(connection)`` on a checked connection from the pool; "not now" errors become
        StoreUnavailable. Detached (bot.store.deadline): a caller whose deadline passes leaves at
        once, while psycopg cancels the query and the pool discards or rolls back the connection."""
        if self._closed:
            raise RuntimeError("the store is closed")
        return await detached(self._on_connection(work))

    async def _on_connection(self, work: Callable[[psycopg.AsyncConnection[Any]], Awaitable[T]]) -> T:
        try:
            async with self._pool.connection() as conn:
                return await work(conn)
        except (psycopg.Error, PoolTimeout) as error:
            found = unavailable(error, self._location.describe())
            if found is None:
                raise
            raise found from error

    async def fetch(self, statement: str, params: Params = ()) -> Rows:
        async def work(conn: psycopg.AsyncConnection[Any]) -> Rows:
            cursor = await conn.execute(sql(statement), tuple(params))
            return list(await cursor.fetchall()) if cursor.description is not None else []

        return await self._run(work)

    async def execute(self, statement: str, params: Params = ()) -> int:
        async def work(conn: psycopg.AsyncConnection[Any]) -> int:
            return (await conn.execute(sql(statement), tuple(params))).rowcount

        return await self._run(work)

    async def transaction(self, steps: Sequence[tuple[str, Params]]) -> list[int]:
        async def work(conn: psycopg.AsyncConnection[Any]) -> list[int]:
            async with conn.transaction():
                return [(await conn.execute(sql(statement), tuple(params))).rowcount for statement, params in steps]

        return await self._run(work)

    async def fetch_batch(self, steps: Sequence[tuple[str, Params]], *, atomic: bool = True,
                          flushed: bool = True) -> list[Rows]:
        async def work(conn: psycopg.AsyncConnection[Any]) -> list[Rows]:
            if atomic:
                async with conn.transaction():
                    return await _fetch_each(conn, steps, flushed)
            found: list[Rows] = []
            for step in steps:  # each statement a transaction of its own (autocommit when flushed)
                async with nullcontext() if flushed else conn.transaction():
                    found += await _fetch_each(conn, [step], flushed)
            return found

        return await self._run(work)

    async def execute_many(self, statement: str, rows: Sequence[Params]) -> None:
        async def work(conn: psycopg.AsyncConnection[Any]) -> None:
            async with conn.transaction(), conn.cursor() as cursor:
                await cursor.executemany(sql(statement), [tuple(r) for r in rows])

        await self._run(work)

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
        return tuple(front.Claimed(q.row_of(r[:-1]), token, bool(r[-1]))
                     for r in sorted(rows, key=lambda r: (r[10] or 0, r[0])))

    async def note_used(self, kind: str | None = None) -> None:
        """Nothing to mark: a server keeps its own data."""

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._pool.close()


async def _fetch_each(conn: psycopg.AsyncConnection[Any], steps: Sequence[tuple[str, Params]],
                      flushed: bool) -> list[Rows]:
    """Each statement's rows; not ``flushed``: the open transaction commits without waiting for its
    WAL to reach the disk (``Driver.fetch_batch``; ``SET LOCAL`` ends with the transaction)."""
    if not flushed:
        await conn.execute("SET LOCAL synchronous_commit = off")
    found: list[Rows] = []
    for statement, params in steps:
        cursor = await conn.execute(sql(statement), tuple(params))
        found.append(list(await cursor.fetchall()) if cursor.description is not None else [])
    return found
