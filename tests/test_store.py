"""Tests of the SQLite store: migrations, WAL, the atomic claim, persistence, bad rows."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.schedule import BadRow, Plan, plan_of
from bot.store import MIGRATIONS, SqliteStore, Store, StoreError, open_store

SINCE = datetime(2026, 5, 1, 0, 0, tzinfo=UTC)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "dir" / "liuren.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(db_path)
    yield opened
    await opened.close()


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


# --- opening and migrations ------------------------------------------------------------


async def test_open_creates_folder_wal_and_latest_schema(db_path: Path) -> None:
    store = await open_store(db_path)
    await store.close()
    assert db_path.exists()
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        columns = {r[1] for r in conn.execute("PRAGMA table_info(schedules)")}
    assert {
        "id",
        "guild_id",
        "channel_id",
        "post_time",
        "timezone",
        "last_posted",
        "disabled_reason",
    } <= columns


async def test_default_path_is_data_under_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIUREN_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    store = await open_store()
    await store.close()
    assert (tmp_path / "data" / "liuren.sqlite3").exists()


async def test_liuren_db_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "elsewhere" / "bot.db"
    monkeypatch.setenv("LIUREN_DB", str(target))
    store = await open_store()
    await store.set_guild_timezone(5, "Europe/Paris")
    await store.close()
    with raw(target) as conn:
        assert conn.execute("SELECT timezone FROM guild_settings WHERE guild_id = 5").fetchone()[0] == "Europe/Paris"


async def test_migrates_a_version_1_database_keeping_its_rows(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with raw(db_path) as conn:
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO guild_settings VALUES (10, 'Asia/Tokyo')")
        conn.execute(
            "INSERT INTO schedules (guild_id, channel_id, post_time, timezone, last_posted) "
            "VALUES (10, 20, '07:15', 'Asia/Tokyo', '2026-04-30')"
        )
    store = await open_store(db_path)
    try:
        assert await store.guild_timezone(10) == "Asia/Tokyo"
        (only,) = await store.schedules(10)
        assert (only.channel_id, only.post_time, only.timezone, only.last_posted) == (
            20,
            "07:15",
            "Asia/Tokyo",
            "2026-04-30",
        )
        assert only.locale == "ja"
        assert only.disabled_reason is None
        plan = plan_of(only)
        assert isinstance(plan, Plan)
        assert plan.since is None  # a v1 row owes today's post if it is still due
    finally:
        await store.close()
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


async def test_reopening_does_not_reapply_migrations(db_path: Path) -> None:
    for _ in range(3):
        store = await open_store(db_path)
        await store.close()
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


async def test_refuses_a_database_from_a_newer_version(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with raw(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StoreError, match="newer"):
        await open_store(db_path)


async def test_a_failing_migration_step_rolls_back(db_path: Path) -> None:
    from bot.store import connect, migrate

    conn = connect(db_path)
    broken = (*MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "THIS IS NOT SQL"))
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, broken)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None
    conn.close()


# --- settings and schedules ------------------------------------------------------------


async def test_guild_timezone_round_trip_and_persistence(db_path: Path) -> None:
    store = await open_store(db_path)
    assert await store.guild_timezone(1) is None
    await store.set_guild_timezone(1, "Asia/Tokyo")
    await store.set_guild_timezone(1, "America/New_York")
    await store.set_guild_timezone(2, "Europe/London")
    await store.close()
    reopened = await open_store(db_path)
    try:
        assert await reopened.guild_timezone(1) == "America/New_York"
        assert await reopened.guild_timezone(2) == "Europe/London"
    finally:
        await reopened.close()


async def test_put_schedule_one_row_per_channel(store: Store) -> None:
    first = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    other = await store.put_schedule(1, 101, "21:00", "America/New_York", "en-US", SINCE)
    assert first != other
    assert await store.claim(first, date(2026, 5, 1))
    await store.disable(first, "gone")
    again = await store.put_schedule(1, 100, "10:30", "Europe/Paris", "ja", SINCE)
    assert again == first
    rows = {r.channel_id: r for r in await store.schedules(1)}
    assert set(rows) == {100, 101}
    assert (rows[100].post_time, rows[100].timezone) == ("10:30", "Europe/Paris")
    assert rows[100].disabled_reason is None  # re-setting re-enables
    assert rows[100].last_posted == "2026-05-01"  # …but does not owe the day again
    assert rows[100].since == SINCE.isoformat()
    assert rows[101].locale == "en-US"


async def test_schedules_filter_by_guild_and_delete(store: Store) -> None:
    await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    await store.put_schedule(1, 101, "09:00", "Asia/Tokyo", "ja", SINCE)
    await store.put_schedule(2, 200, "09:00", "Asia/Tokyo", "ja", SINCE)
    assert [r.channel_id for r in await store.schedules()] == [100, 101, 200]
    assert [r.channel_id for r in await store.schedules(2)] == [200]
    assert await store.delete_schedules(1, 101) == 1
    assert await store.delete_schedules(1, 999) == 0
    assert await store.delete_schedules(2, 100) == 0  # another server's channel is untouched
    assert [r.channel_id for r in await store.schedules()] == [100, 200]
    assert await store.delete_schedules(1) == 1
    assert [r.channel_id for r in await store.schedules()] == [200]


async def test_schedules_persist_across_reopen(db_path: Path) -> None:
    store = await open_store(db_path)
    sid = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    assert await store.claim(sid, date(2026, 5, 2))
    await store.close()
    reopened = await open_store(db_path)
    try:
        (only,) = await reopened.schedules()
        assert only.last_posted == "2026-05-02"
        assert not await reopened.claim(sid, date(2026, 5, 2))
    finally:
        await reopened.close()


# --- the claim -------------------------------------------------------------------------


async def test_claim_once_per_day_and_only_forward(store: Store) -> None:
    sid = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    assert await store.claim(sid, date(2026, 5, 2))
    assert not await store.claim(sid, date(2026, 5, 2))
    assert not await store.claim(sid, date(2026, 5, 1))
    assert await store.claim(sid, date(2026, 5, 3))
    assert not await store.claim(sid + 1000, date(2026, 5, 3))  # no such schedule


async def test_two_claims_for_the_same_day_only_one_wins(db_path: Path) -> None:
    # Two stores = two connections on two threads, as two bot processes would have.
    first, second = await open_store(db_path), await open_store(db_path)
    try:
        ids = [await first.put_schedule(1, 100 + n, "09:00", "Asia/Tokyo", "ja", SINCE) for n in range(30)]
        day = date(2026, 5, 2)
        results = await asyncio.gather(*(s.claim(i, day) for i in ids for s in (first, second, first)))
        by_id = [results[3 * n : 3 * n + 3] for n in range(len(ids))]
        assert all(sum(r) == 1 for r in by_id)
    finally:
        await first.close()
        await second.close()


async def test_claim_race_from_raw_threads(db_path: Path) -> None:
    """Many threads with their own connections race for one day; exactly one wins."""
    store = await open_store(db_path)
    sid = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    await store.close()
    barrier = threading.Barrier(8)
    wins: list[bool] = []

    def contender() -> None:
        conn = sqlite3.connect(db_path, isolation_level=None, timeout=10)
        barrier.wait()
        cursor = conn.execute(
            "UPDATE schedules SET last_posted = ? WHERE id = ? AND (last_posted IS NULL OR last_posted < ?)",
            ("2026-05-02", sid, "2026-05-02"),
        )
        wins.append(cursor.rowcount == 1)
        conn.close()

    threads = [threading.Thread(target=contender) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wins.count(True) == 1


async def test_release_restores_the_previous_day_only_if_still_ours(store: Store) -> None:
    sid = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    assert await store.claim(sid, date(2026, 5, 1))
    assert await store.claim(sid, date(2026, 5, 2))
    await store.release(sid, date(2026, 5, 2), "2026-05-01")
    (only,) = await store.schedules()
    assert only.last_posted == "2026-05-01"
    assert await store.claim(sid, date(2026, 5, 2))  # claimable again
    await store.release(sid, date(2026, 5, 9), None)  # not our claim: nothing changes
    (only,) = await store.schedules()
    assert only.last_posted == "2026-05-02"


async def test_disabled_schedule_cannot_be_claimed_until_enabled(store: Store) -> None:
    sid = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    await store.disable(sid, "404 Unknown Channel")
    (only,) = await store.schedules()
    assert only.disabled_reason == "404 Unknown Channel"
    assert not await store.claim(sid, date(2026, 5, 2))
    await store.enable(sid)
    assert await store.claim(sid, date(2026, 5, 2))


async def test_note_error_is_kept_and_cleared(store: Store) -> None:
    sid = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    await store.note_error(sid, "503 after 3 attempts")
    assert (await store.schedules())[0].last_error == "503 after 3 attempts"
    await store.note_error(sid, None)
    assert (await store.schedules())[0].last_error is None


# --- bad rows --------------------------------------------------------------------------


async def test_bad_rows_come_back_and_are_reported(db_path: Path) -> None:
    store = await open_store(db_path)
    good = await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE)
    await store.close()
    with raw(db_path) as conn:  # as an older or broken version might have written them
        insert = "INSERT INTO schedules (guild_id, channel_id, post_time, timezone) VALUES "
        conn.execute(insert + "(1, 101, '25:00', 'Asia/Tokyo')")
        conn.execute(insert + "(1, 102, '09:00', 'Mars/Olympus')")
        conn.execute(
            "INSERT INTO schedules (guild_id, channel_id, post_time, timezone, last_posted) "
            "VALUES (1, 103, 930, 'Asia/Tokyo', 'someday')"
        )
    store = await open_store(db_path)
    try:
        rows = await store.schedules(1)
    finally:
        await store.close()
    assert [r.channel_id for r in rows] == [100, 101, 102, 103]
    plans = [plan_of(r) for r in rows]
    assert isinstance(plans[0], Plan) and plans[0].id == good
    bad = [p for p in plans if isinstance(p, BadRow)]
    assert [b.row.channel_id for b in bad] == [101, 102, 103]
    assert "25:00" in bad[0].problem
    assert "Mars/Olympus" in bad[1].problem
    assert "930" in bad[2].problem and "someday" in bad[2].problem


async def test_store_runs_sql_off_the_event_loop_thread(store: Store) -> None:
    assert isinstance(store, SqliteStore)
    loop_thread = threading.get_ident()
    seen: list[int] = []

    def work(conn: sqlite3.Connection) -> None:
        seen.append(threading.get_ident())

    await store._run(work)
    assert seen and seen[0] != loop_thread


async def test_closed_store_refuses_work(db_path: Path) -> None:
    store = await open_store(db_path)
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(RuntimeError):
        await store.guild_timezone(1)
