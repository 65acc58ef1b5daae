"""SQLite's promises (bot.store.sqlite, bot.store.sqlite_lanes; docs/admin.md): no SQL on the event
loop's thread; every commit on the disk before its caller is answered, the cases of /cast too;
reads answered beside a stalled write; each call answered within the deadline counted from when it
was made, and a write told late never stored; deletion that leaves no byte of the deleted data in
the database's files; a file damaged at run time named as such in the log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store import Profile, QuizAnswer, Store, StoreError, StoreUnavailable, open_store, sql, sqlite_lanes
from bot.store import sqlite as sqlite_driver
from bot.store.sqlite_file import RESTORE, marker_path
from engine import calendar
from engine.school import School
from tests.test_store_casebook import T, draft

SECRET = "Will the hidden letter reach Osaka?"
NOTE = "a note only its author should ever read"
ZONE = "America/Argentina/Ushuaia"  # the profile's own marker: no case carries it


class Stalled(sqlite3.Connection):
    """A connection whose every COMMIT first waits ``stall`` seconds, as on a disk that stalls at
    each sync of the WAL: the real write path, delayed (the thread is held, the loop is not)."""

    stall = 0.0

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if sql == "COMMIT" and Stalled.stall:
            time.sleep(Stalled.stall)
        return super().execute(sql, parameters)


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[sqlite3.Connection, list[tuple[str, str]]]]]:
    """Every connection the driver opens from now on (as a ``Stalled``), with each of its
    statements and the name of the thread it ran on."""
    opened: list[tuple[sqlite3.Connection, list[tuple[str, str]]]] = []
    connect = sqlite3.connect

    def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, factory=Stalled, **kwargs)
        threads: list[tuple[str, str]] = []
        conn.set_trace_callback(lambda sql: threads.append((threading.current_thread().name, sql)))
        opened.append((conn, threads))
        return conn

    monkeypatch.setattr(sqlite3, "connect", traced)
    yield opened
    Stalled.stall = 0.0


@pytest.fixture
async def store(tmp_path: Path, connections: list[Any]) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "liuren.sqlite3")
    yield opened
    await opened.close()


def stored_files(path: Path) -> bytes:
    """The raw bytes of the database and its -wal and -shm files (those that exist)."""
    return b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists())


def sealed_of(path: Path, user_id: int) -> tuple[list[bytes], list[bytes]]:
    """What the member's personal data is in the files: their keys (member_keys) and the fields
    sealed under them (their cases' question and birth data, their notes, their profile), read by
    a connection of the test's own."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        keys = conn.execute("SELECT case_key, birth_key FROM member_keys WHERE user_id = ?", (user_id,)).fetchall()
        sealed = conn.execute(
            "SELECT question_sealed FROM cases WHERE author_id = ?1 UNION ALL SELECT birth_sealed FROM cases "
            "WHERE author_id = ?1 UNION ALL SELECT body_sealed FROM case_notes WHERE author_id = ?1 "
            "UNION ALL SELECT sealed FROM profiles WHERE user_id = ?1", (user_id,)).fetchall()
    return ([bytes(key) for row in keys for key in row if key is not None],
            [bytes(value) for (value,) in sealed if value is not None])


async def test_no_sql_runs_on_the_event_loops_thread(store: Store, connections: list[Any]) -> None:
    """The file is touched by the driver's threads only: a stalled disk cannot freeze the loop."""
    cases = await asyncio.gather(*(store.add_case(draft(author=n)) for n in range(20)))  # each with its key
    await store.set_profile(Profile(3, 1990, "男"))
    assert [await store.case(c.id) for c in cases] == cases
    await store.delete_user_cases(3)
    ran = [step for _, steps in connections for step in steps]
    assert threading.current_thread().name not in {name for name, _ in ran}
    # opened on a thread of asyncio's own; then the cases and the members' keys written by the writer,
    # read by a reader (the trace shows each statement with its values in place of the ?s)
    def threads(*starts: str) -> set[str]:
        return {name for name, statement in ran if statement.startswith(starts)}

    for written in (threads("INSERT INTO cases"), threads("INSERT INTO member_keys", "UPDATE member_keys")):
        assert written and all(name.startswith("liuren-db-writer") for name in written), written
    for read in (threads(sql.CASE.removesuffix("?")), threads(sql.MEMBER_KEYS.split(" WHERE ")[0])):
        assert read and all(name.startswith("liuren-db-reader") for name in read), read


async def test_every_commit_waits_for_the_disk_the_cases_too(store: Store, connections: list[Any]) -> None:
    """The connection that wrote the cases syncs the WAL at every commit (synchronous = FULL), and
    ``flushed=False`` weakens nothing; it runs with secure_delete; the readers cannot write; all
    keep temporary data in memory."""
    assert await store.driver.fetch_batch([("PRAGMA synchronous", ())], flushed=False) == [[(2,)]]
    await asyncio.gather(*(store.add_case(draft(author=n)) for n in range(5)))
    [writer] = [conn for conn, steps in connections
                if any(statement.startswith("INSERT INTO cases") for _, statement in steps)]
    assert writer.execute("PRAGMA synchronous").fetchone() == (2,)
    assert writer.execute("PRAGMA secure_delete").fetchone() == (1,)
    assert writer.execute("PRAGMA query_only").fetchone() == (0,)
    readers = [conn for conn, _ in connections if conn is not writer]
    assert len(readers) == 2
    assert all(conn.execute("PRAGMA query_only").fetchone() == (1,) for conn in readers)
    for conn, _ in connections:
        assert conn.execute("PRAGMA temp_store").fetchone() == (2,)  # memory, not a file per batch


@pytest.mark.slow  # stalled writes: over a second
async def test_reads_are_answered_while_a_write_is_stalled(store: Store) -> None:
    case = await store.add_case(draft())
    Stalled.stall = 1.5
    writing = asyncio.ensure_future(store.set_profile(Profile(3, 1990, "男")))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    assert await store.case(case.id) == case
    assert await store.cases_by_author(case.author_id, 0, 5) == (case,)
    assert await store.profile(4) is None
    assert time.monotonic() - started < 0.5  # not queued behind the write
    assert not writing.done()
    await asyncio.wait_for(writing, 5)
    assert await store.profile(3) == Profile(3, 1990, "男")


@contextlib.contextmanager
def write_lock(path: Path) -> Iterator[Callable[[], None]]:
    """Another process's write lock on the file; yields its release."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")

    def release() -> None:
        if holder.in_transaction:
            holder.execute("ROLLBACK")

    try:
        yield release
    finally:
        release()
        holder.close()


@pytest.mark.slow  # stalled writes: over a second
async def test_each_call_is_answered_by_its_deadline_queue_time_included_and_a_late_write_is_not_stored(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six writes queued behind a held lock were answered at 5, 10 … 30 s: now each within the
    deadline of its own call (1 s here), with "not answering"; a read beside them at once; and
    none of them is written once the lock is gone."""
    monkeypatch.setattr(sqlite_lanes, "DEADLINE", 1.0)
    await store.add_case(draft())

    async def timed(write: Any) -> tuple[float, BaseException | None]:
        started = time.monotonic()
        try:
            await write
        except StoreUnavailable as error:
            return time.monotonic() - started, error
        return time.monotonic() - started, None

    with write_lock(tmp_path / "liuren.sqlite3") as release:
        writes = [asyncio.ensure_future(timed(store.set_profile(Profile(10 + n, 1990, "男")))) for n in range(3)]
        writes += [asyncio.ensure_future(timed(store.add_case(draft(author=20 + n)))) for n in range(3)]
        await asyncio.sleep(0.3)
        started = time.monotonic()
        assert await store.cases_by_author(7, 0, 5) != ()
        assert time.monotonic() - started < 0.3
        told = await asyncio.wait_for(asyncio.gather(*writes), 10)
        release()
    for elapsed, error in told:
        assert 0.9 < elapsed < 1.6 and error is not None, told
        assert "not answering" in str(error) or "locked" in str(error)
    await asyncio.sleep(1.0)  # what was under way in the writer's thread has ended
    assert [await store.profile(10 + n) for n in range(3)] == [None] * 3
    for n in range(3):
        assert await store.cases_by_author(20 + n, 0, 5) == ()
    assert await store.add_case(draft(author=30))  # and the next write is served as usual


@pytest.mark.slow  # stalled writes: over a second
async def test_a_write_stalled_past_its_deadline_answers_the_caller_at_the_deadline(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit held by the disk cannot be taken back: the caller is told at the deadline anyway,
    and the writes queued behind it are told by theirs (docs/admin.md says what was stored)."""
    monkeypatch.setattr(sqlite_lanes, "DEADLINE", 0.5)
    Stalled.stall = 1.2
    started = time.monotonic()
    told = await asyncio.gather(*(store.set_profile(Profile(n, 1990, "男")) for n in range(3)),
                                return_exceptions=True)
    assert time.monotonic() - started < 0.9
    assert all(isinstance(t, StoreUnavailable) for t in told), told
    Stalled.stall = 0.0
    await asyncio.sleep(1.0)
    # The first commit was under way: it may be stored; those queued behind it are not.
    assert [await store.profile(n) for n in (1, 2)] == [None, None]


@pytest.mark.slow  # stalled writes: over a second
async def test_a_cast_waiting_for_the_batch_before_it_counts_that_wait_against_its_deadline(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A case made while the batch before it is being written goes into the next batch: its
    deadline counts from when it was made, not from when its batch began (bot.store.batch)."""
    monkeypatch.setattr(sqlite_lanes, "DEADLINE", 1.0)
    Stalled.stall = 0.8
    first = asyncio.ensure_future(store.add_case(draft(author=1)))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    with pytest.raises(StoreUnavailable, match="not answering"):
        await store.add_case(draft(author=2))  # its batch begins at 0.8 s and would commit at 1.6 s
    assert time.monotonic() - started < 1.2
    assert (await first).author_id == 1


async def test_a_marker_not_left_in_time_fails_no_write_and_is_left_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The first case makes the file worth a marker; the look for it (a read) past its deadline is
    logged, the case is returned as stored (it is), and the marker is left at the next write."""
    path = tmp_path / "liuren.sqlite3"
    store = await open_store(path)
    try:
        monkeypatch.setattr(sqlite_lanes, "DEADLINE", 0.3)
        slow = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "
                "SELECT 1 FROM c WHERE x = 1000000000")
        monkeypatch.setattr(sql, "HOLDS_ROWS", slow)
        case = await store.add_case(draft())
        assert await store.case(case.id) == case and not marker_path(path).exists()
        assert "is not left now" in caplog.text
        monkeypatch.undo()
        await store.add_case(draft())
        assert marker_path(path).exists()
    finally:
        await store.close()


async def test_deleting_a_profile_and_the_cases_leaves_no_byte_of_them_in_the_files(tmp_path: Path) -> None:
    """The plain text is never in the files (sealed); the member's keys and what they sealed are,
    until the deletion, and then not a byte of them: secure_delete and the WAL's checkpoint."""
    path = tmp_path / "liuren.sqlite3"
    store = await open_store(path)
    try:
        await store.set_profile(Profile(7, 1961, "女", calendar.zone(ZONE)))
        mine = [await store.add_case(replace(draft(question=SECRET), birth_year=1961, sex="女")) for _ in range(3)]
        theirs = await store.add_case(draft(author=8, question="their own question"))
        await store.add_note(mine[0].id, 7, NOTE, 1)
        await store.add_note(theirs.id, 7, NOTE + " on theirs", 2)
        for n in range(50):  # more casts after them, as a running bot makes
            await store.add_case(draft(author=100 + n, question=f"unrelated {n}"))
        plain = (SECRET.encode(), NOTE.encode(), ZONE.encode(), "女".encode())
        keys, sealed = sealed_of(path, 7)
        their_keys, _ = sealed_of(path, 8)
        assert (len(keys), len(sealed), len(their_keys)) == (2, 3 * 2 + 2 + 1, 1)
        before = stored_files(path)
        assert all(found in before for found in (*keys, *sealed))
        assert not any(marker in before for marker in plain)
        assert await store.delete_profile(7)
        assert await store.delete_user_cases(7) == 3
        after = stored_files(path)
        for gone in (*keys, *sealed, *plain):
            assert gone not in after, gone
        assert sealed_of(path, 7) == ([], [])
        assert all(key in after for key in their_keys)  # what was not deleted is kept
        assert await store.case(theirs.id) == theirs
        assert Path(f"{path}-wal").stat().st_size == 0
        for n in range(20):  # and the bot goes on writing as before
            await store.add_case(draft(author=200 + n))
    finally:
        await store.close()


async def test_each_removal_of_personal_data_empties_the_wal(tmp_path: Path) -> None:
    """Every store operation that deletes: a case, quiz answers, a server's schedules, a profile."""
    path = tmp_path / "liuren.sqlite3"
    store = await open_store(path)
    wal = Path(f"{path}-wal")
    try:
        quiz = await store.create_quiz(100, 200, 7, "en-US", "easy", 3, 42, School(), 30, T + 30, T)
        assert quiz is not None
        case = await store.add_case(draft(question=SECRET))
        await store.set_profile(Profile(7, 1961, "女"))
        await store.add_quiz_answer(QuizAnswer(quiz.id, 1, 7, 1, True, "元首", "47,51", T + 3))
        await store.put_schedule(100, 200, "08:00", "UTC", "en", datetime(2026, 1, 1, tzinfo=UTC), None, None)
        for delete in (store.delete_case(case.id), store.forget_quiz_answers(7), store.delete_schedules(100),
                       store.delete_profile(7)):
            await store.add_case(draft(author=8))  # something in the WAL
            assert wal.stat().st_size > 0
            assert await delete
            assert wal.stat().st_size == 0, delete
        await store.add_case(draft(author=8))
        assert not await store.delete_profile(7)  # nothing removed: no checkpoint needed
        assert wal.stat().st_size > 0
    finally:
        await store.close()


async def test_a_checkpoint_another_programs_read_holds_back_is_done_after_a_later_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deletion is answered in time all the same; the WAL is emptied once the read has ended."""
    monkeypatch.setattr(sqlite_driver, "ERASE_AGAIN_S", 0.0)
    path = tmp_path / "liuren.sqlite3"
    store = await open_store(path)
    try:
        case = await store.add_case(draft(question=SECRET))
        _, [sealed] = sealed_of(path, case.author_id)
        reader = sqlite3.connect(path, isolation_level=None)
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM cases").fetchone() == (1,)  # a snapshot held
        started = time.monotonic()
        assert await store.delete_case(case.id)
        assert time.monotonic() - started < 1.0
        assert sealed in Path(f"{path}-wal").read_bytes()  # the old pages, kept for that read
        reader.execute("COMMIT")
        reader.close()
        await store.add_case(draft(author=8))
        assert Path(f"{path}-wal").stat().st_size == 0
        assert not any(gone in stored_files(path) for gone in (sealed, SECRET.encode()))
    finally:
        await store.close()


async def test_a_database_damaged_at_run_time_is_named_in_the_log_with_what_to_do(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "liuren.sqlite3"
    store = await open_store(path)
    cases = [await store.add_case(draft(question="x" * 500)) for _ in range(200)]
    await store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for start in range(len(data) // 2 // page * page, len(data) - page, page):  # the cases' later pages
        data[start + 8: start + 200] = b"\xff" * 192
    store = await open_store(path)  # the schema is intact: opened
    try:
        path.write_bytes(bytes(data))  # damaged while the bot runs
        with caplog.at_level(logging.ERROR, logger="bot"), pytest.raises(StoreError) as raised:
            for case in cases:
                await store.case(case.id)
            await store.cases_by_author(7, 0, 500)
    finally:
        await store.close()
    assert f"the database file {path} is damaged" in str(raised.value) and RESTORE in str(raised.value)
    assert f"the database file {path} is damaged" in caplog.text and RESTORE in caplog.text
