"""SQLite's unflushed transactions (the cases /cast records) written on the event loop's thread, on a
connection of their own (bot.store.sqlite.OnLoop, issue 21): committed there without the worker,
handed to the worker when the database is locked, and checkpointed by the worker."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import Case, NewCase, Store, open_store
from bot.store import sql as q
from bot.store import sqlite as sqlite_driver
from bot.store.sqlite import SqliteDriver
from bot.store.values import new_case_id
from tests.test_store_casebook import draft


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "liuren.sqlite3")
    yield opened
    await opened.close()


async def unflushed_case(store: Store, new: NewCase) -> Case:
    """A case written as an unflushed transaction of the driver's (``fetch_batch(flushed=False)``), as
    the store wrote the cases of casts before they were committed flushed (see docs/admin.md)."""
    case_id = new_case_id()
    ((row,),) = await driver_of(store).fetch_batch([(q.INSERT_CASE, q.case_params(case_id, new))], flushed=False)
    return q.case_stored(case_id, int(row[1]), new)


def driver_of(store: Store) -> SqliteDriver:
    assert isinstance(store.driver, SqliteDriver)
    return store.driver


def watch_threads(driver: SqliteDriver) -> list[str]:
    """The names of the threads each ``run`` of the driver's worker ran on, as they run."""
    ran: list[str] = []
    run = driver.run

    async def counted(work: Callable[[sqlite3.Connection], Any]) -> Any:
        def named(conn: sqlite3.Connection) -> Any:
            ran.append(threading.current_thread().name)
            return work(conn)
        return await run(named)

    setattr(driver, "run", counted)  # noqa: B010 - see which writes reach the worker
    return ran


async def test_cases_are_committed_on_the_event_loop_without_a_trip_to_the_worker(store: Store,
                                                                                 tmp_path: Path) -> None:
    await unflushed_case(store, draft())  # the first leaves the file's marker: one trip, then none
    ran = watch_threads(driver_of(store))
    cases = await asyncio.gather(*(unflushed_case(store, draft(author=n)) for n in range(20)))
    assert ran == []
    with sqlite3.connect(tmp_path / "liuren.sqlite3") as other:  # committed: another connection sees them
        stored = dict(other.execute("SELECT id, author_id FROM cases").fetchall())
    assert {c.id: c.author_id for c in cases}.items() <= stored.items()
    assert [await store.case(c.id) for c in cases] == cases
    assert await store.driver.fetch("PRAGMA synchronous") == [(2,)]  # the worker's commits still wait (FULL)


async def test_a_locked_database_hands_the_cases_to_the_worker_which_waits_for_the_lock(
    store: Store, tmp_path: Path
) -> None:
    await unflushed_case(store, draft())
    ran = watch_threads(driver_of(store))
    holder = sqlite3.connect(tmp_path / "liuren.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write lock
    try:
        writing = asyncio.ensure_future(unflushed_case(store, draft(author=8)))
        await asyncio.sleep(0.3)
        assert not writing.done()  # waiting for the lock, on the worker (the loop is not held)
        assert ran and all(name.startswith("liuren-db") for name in ran)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    case = await asyncio.wait_for(writing, 5)
    assert await store.case(case.id) == case
    ran.clear()
    await unflushed_case(store, draft(author=9))  # the lock gone: on the event loop again
    assert ran == []


async def test_a_refused_row_is_the_callers_error_and_the_event_loops_connection_writes_on(store: Store) -> None:
    driver = driver_of(store)
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await driver.fetch_batch([("INSERT INTO no_such_table VALUES (1)", ())], flushed=False)
    case = await store.add_case(draft())
    assert await store.case(case.id) == case


async def test_the_worker_checkpoints_what_the_event_loop_wrote(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The event loop's connection never checkpoints: the worker merges the WAL into the file every
    CHECKPOINT_EVERY transactions, so the WAL does not grow without end."""
    path = tmp_path / "liuren.sqlite3"
    monkeypatch.setattr(sqlite_driver, "CHECKPOINT_EVERY", 4)
    store = await open_store(path)
    try:
        await unflushed_case(store, draft())
        size = path.stat().st_size
        for n in range(3):  # with the first: four transactions
            await unflushed_case(store, draft(author=n))
        checkpoint = driver_of(store)._checkpoint  # the checkpoint under way
        assert checkpoint is not None
        await checkpoint
        assert path.stat().st_size > size  # the cases' pages are in the file itself now
        size = path.stat().st_size
        for n in range(3):
            await unflushed_case(store, draft(author=10 + n))
        assert driver_of(store)._checkpoint is None  # three: none yet
        assert path.stat().st_size == size
    finally:
        await store.close()
    with sqlite3.connect(path) as other:
        assert other.execute("SELECT count(*) FROM cases").fetchone() == (7,)


async def test_a_database_in_memory_writes_its_cases_on_the_worker() -> None:
    """A second connection to ":memory:" would be another database: the worker writes them all."""
    store = await open_store(":memory:")
    try:
        ran = watch_threads(driver_of(store))
        case = await store.add_case(draft())
        assert ran and await store.case(case.id) == case
    finally:
        await store.close()


async def test_a_statements_undo_journal_is_kept_in_memory_on_both_connections(store: Store) -> None:
    # SQLite's default spilled it into a new file in /var/tmp for every batch of cases (issue 21).
    driver = driver_of(store)
    assert sqlite_driver.TEMP_STORE == "MEMORY"
    assert await driver.fetch("PRAGMA temp_store") == [(2,)]  # the worker's connection (2: memory)
    on_loop = driver._on_loop
    assert on_loop is not None
    assert on_loop._conn.execute("PRAGMA temp_store").fetchall() == [(2,)]
