"""Tests of the store, once per backend (SQLite file, PostgreSQL schema): settings, schedules, due
times, leases and claims; then what only SQLite has: its file, WAL, and refusing damaged files."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.daily.schedule import BadRow, Plan, plan_of
from bot.store import (
    GuildOptions,
    Location,
    Shards,
    Store,
    StoreError,
    default_location,
    epoch,
    open_store,
    stored_text,
)
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite import SqliteDriver, connect, marker_path, migrate
from engine import calendar

SINCE = datetime(2026, 5, 1, 0, 0, tzinfo=UTC)
T0 = datetime(2026, 5, 2, 0, 0, tzinfo=UTC)
LEASE = timedelta(minutes=10)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@pytest.fixture
async def store(store_location: str) -> AsyncIterator[Store]:
    opened = await open_store(store_location)
    yield opened
    await opened.close()


async def put(store: Store, guild: int, channel: int, *, due: datetime | None = T0, day: date | None = None,
              time: str = "09:00", zone: str = "Asia/Tokyo", locale: str = "ja") -> int:
    return await store.put_schedule(
        guild, channel, time, zone, locale, SINCE, None if due is None else epoch(due),
        day if day is not None else (date(2026, 5, 2) if due is not None else None),
    )


async def zone_of(store: Store, guild: int) -> str | None:
    """The server's zone's name (one of its settings)."""
    zone = (await store.guild_options(guild)).timezone
    return None if zone is None else stored_text(zone)


async def set_zone(store: Store, guild: int, zone: str) -> None:
    """Change only the server's zone, keeping its other settings."""
    options = await store.guild_options(guild)
    await store.set_guild_options(guild, GuildOptions(options.school, options.language, options.image,
                                                      calendar.zone(zone)))


# --- both backends: settings and schedules ---------------------------------------------


async def test_guild_timezone_round_trip_and_persistence(store_location: str) -> None:
    store = await open_store(store_location)
    assert await zone_of(store, 1) is None
    await set_zone(store, 1, "Asia/Tokyo")
    await set_zone(store, 1, "America/New_York")
    await set_zone(store, 2, "Europe/London")
    await store.close()
    reopened = await open_store(store_location)
    try:
        assert await zone_of(reopened, 1) == "America/New_York"
        assert await zone_of(reopened, 2) == "Europe/London"
    finally:
        await reopened.close()


async def test_put_schedule_one_row_per_channel(store: Store) -> None:
    first = await put(store, 1, 100)
    other = await put(store, 1, 101, time="21:00", zone="America/New_York", locale="en-US")
    assert first != other
    (claimed, _) = await store.claim_due(at(0), at(10), "t1", None, 10)
    assert claimed.row.id == first
    assert await store.confirm(first, "t1", date(2026, 5, 2), 555, None, epoch(at(1440)), date(2026, 5, 3))
    await store.disable(first, "gone")
    again = await store.put_schedule(1, 100, "10:30", "Europe/Paris", "ja", SINCE, epoch(at(2000)), date(2026, 5, 3))
    assert again == first
    rows = {r.channel_id: r for r in await store.schedules(1)}
    assert set(rows) == {100, 101}
    assert (rows[100].post_time, rows[100].timezone) == ("10:30", "Europe/Paris")
    assert rows[100].disabled_reason is None  # re-setting re-enables
    assert rows[100].last_posted == "2026-05-02"  # …but does not owe the day again
    assert rows[100].due_at == epoch(at(2000)) and rows[100].message_id == 555
    assert rows[100].since == SINCE.isoformat()
    assert rows[101].locale == "en-US"


async def test_re_setting_a_row_being_posted_keeps_its_lease(store: Store) -> None:
    sid = await put(store, 1, 100)
    assert len(await store.claim_due(at(0), at(10), "t1", None, 10)) == 1
    await store.put_schedule(1, 100, "10:00", "Asia/Tokyo", "ja", SINCE, epoch(at(60)), date(2026, 5, 2))
    (row,) = await store.schedules()
    assert row.due_at == epoch(at(10))  # still leased: nobody else takes it now
    assert row.post_time == "10:00"
    assert await store.confirm(sid, "t1", date(2026, 5, 2), 1, None, epoch(at(1440)), date(2026, 5, 3))


async def test_schedules_filter_by_guild_and_delete(store: Store) -> None:
    await put(store, 1, 100)
    await put(store, 1, 101)
    await put(store, 2, 200)
    assert [r.channel_id for r in await store.schedules()] == [100, 101, 200]
    assert [r.channel_id for r in await store.schedules(2)] == [200]
    assert await store.delete_schedules(1, 101) == 1
    assert await store.delete_schedules(1, 999) == 0
    assert await store.delete_schedules(2, 100) == 0  # another server's channel is untouched
    assert [r.channel_id for r in await store.schedules()] == [100, 200]
    assert await store.delete_schedules(1) == 1
    assert [r.channel_id for r in await store.schedules()] == [200]


# --- both backends: due times, leases, claims -------------------------------------------


async def test_claim_takes_only_due_rows_and_leases_them(store: Store) -> None:
    due = await put(store, 1, 100, due=at(0))
    await put(store, 1, 101, due=at(30))
    await put(store, 1, 102, due=None)  # never due
    assert await store.claim_due(at(-1), at(9), "early", None, 10) == ()
    (claimed,) = await store.claim_due(at(0), at(10), "t1", None, 10)
    assert claimed.row.id == due and claimed.token == "t1" and not claimed.was_unsure
    assert claimed.row.due_day == "2026-05-02"
    # Leased: not due again until the lease ends, whoever asks.
    assert await store.claim_due(at(9), at(19), "t2", None, 10) == ()
    assert await store.next_due(None) == at(10)
    # Unconfirmed, the lease expires: the next claimant is told a send may have happened.
    (taken,) = await store.claim_due(at(10), at(20), "t3", None, 10)
    assert taken.row.id == due and taken.was_unsure
    # The old holder can no longer confirm or release it.
    assert not await store.confirm(due, "t1", date(2026, 5, 2), 9, None, epoch(at(1440)), date(2026, 5, 3))
    await store.release(due, "t1", epoch(at(11)), "late", False)
    assert (await store.schedules())[0].due_at == epoch(at(20))


async def test_confirm_records_the_post_and_the_next_due_time(store: Store) -> None:
    sid = await put(store, 1, 100)
    await store.note_error(sid, "503 earlier")
    await store.claim_due(at(0), at(10), "t1", None, 10)
    assert await store.confirm(sid, "t1", date(2026, 5, 2), 777, None, epoch(at(1440)), date(2026, 5, 3))
    (row,) = await store.schedules()
    assert (row.last_posted, row.message_id, row.last_error) == ("2026-05-02", 777, None)
    assert (row.due_at, row.due_day, row.unsure) == (epoch(at(1440)), "2026-05-03", False)
    assert await store.claim_due(at(60), at(70), "t2", None, 10) == ()


async def test_release_sets_the_retry_time_and_keeps_unsure_only_when_asked(store: Store) -> None:
    sid = await put(store, 1, 100)
    await store.claim_due(at(0), at(10), "t1", None, 10)
    await store.release(sid, "t1", epoch(at(0.5)), "429 rate limited", False)
    (row,) = await store.schedules()
    assert (row.due_at, row.unsure, row.last_error, row.last_posted) == (epoch(at(0.5)), False, "429 rate limited",
                                                                        None)
    (again,) = await store.claim_due(at(0.5), at(10.5), "t2", None, 10)
    assert not again.was_unsure  # released as surely not sent: no need to search the channel
    await store.release(sid, "t2", epoch(at(1)), "503", True)
    (third,) = await store.claim_due(at(1), at(11), "t3", None, 10)
    assert third.was_unsure


async def test_two_stores_claiming_together_never_take_the_same_row(store_location: str) -> None:
    # Two stores = two connections, as two bot processes would have.
    first, second = await open_store(store_location), await open_store(store_location)
    try:
        ids = [await put(first, 1, 100 + n) for n in range(30)]
        results = await asyncio.gather(
            *(s.claim_due(at(0), at(10), f"t{n}", None, 4) for n, s in enumerate([first, second] * 6))
        )
        taken = [c.row.id for batch in results for c in batch]
        assert sorted(taken) == sorted(set(taken))  # nobody took a row twice
        assert len(taken) <= len(ids)
        rest = await first.claim_due(at(0), at(10), "rest", None, 100)
        assert sorted(taken + [c.row.id for c in rest]) == sorted(ids)
    finally:
        await first.close()
        await second.close()


async def test_claim_and_next_due_keep_to_the_processes_shards(store: Store) -> None:
    on_0, on_1 = (1000 << 22) + 5, (1001 << 22) + 5  # shards 0 and 1 of 2
    a = await put(store, on_0, 100, due=at(0))
    b = await put(store, on_1, 101, due=at(5))
    zero, one = Shards(2, (0,)), Shards(2, (1,))
    assert await store.next_due(zero) == at(0) and await store.next_due(one) == at(5)
    assert [c.row.id for c in await store.claim_due(at(10), at(20), "x", one, 10)] == [b]
    assert [c.row.id for c in await store.claim_due(at(10), at(20), "y", zero, 10)] == [a]
    assert zero.holds(on_0) and not zero.holds(on_1)


async def test_claim_limit_takes_the_earliest_first(store: Store) -> None:
    late = await put(store, 1, 100, due=at(5))
    early = await put(store, 1, 101, due=at(1))
    (first,) = await store.claim_due(at(10), at(20), "t", None, 1)
    assert first.row.id == early
    (second,) = await store.claim_due(at(10), at(20), "t", None, 1)
    assert second.row.id == late


async def test_disable_stops_claims_until_enabled(store: Store) -> None:
    sid = await put(store, 1, 100)
    await store.disable(sid, "404 Unknown Channel")
    (row,) = await store.schedules()
    assert row.disabled_reason == "404 Unknown Channel" and row.due_at is None
    assert await store.claim_due(at(60), at(70), "t", None, 10) == ()
    assert await store.next_due(None) is None
    await store.enable(sid, epoch(at(61)), date(2026, 5, 2))
    assert [c.row.id for c in await store.claim_due(at(61), at(70), "t", None, 10)] == [sid]


async def test_note_error_is_kept_and_cleared(store: Store) -> None:
    sid = await put(store, 1, 100)
    await store.note_error(sid, "503 after 3 attempts")
    assert (await store.schedules())[0].last_error == "503 after 3 attempts"
    await store.note_error(sid, None)
    assert (await store.schedules())[0].last_error is None


async def test_unscheduled_rows_and_reschedule(store: Store) -> None:
    sid = await put(store, 1, 100, due=None)
    await put(store, 1, 101)
    assert [r.id for r in await store.unscheduled()] == [sid]
    await store.reschedule(sid, epoch(at(3)), date(2026, 5, 2))
    assert await store.unscheduled() == ()
    assert await store.next_due(None) == at(0)


async def test_pages_and_many_reschedules_leave_leased_rows_alone(store: Store) -> None:
    ids = [await put(store, 1, 100 + n, due=at(n)) for n in range(5)]
    assert [r.id for r in await store.schedules_page(0, 2)] == ids[:2]
    assert [r.id for r in await store.schedules_page(ids[1], 10)] == ids[2:]
    (leased,) = await store.claim_due(at(0), at(10), "t", None, 1)
    await store.reschedule_many([(i, epoch(at(100 + n)), date(2026, 5, 3)) for n, i in enumerate(ids)])
    rows = {r.id: r for r in await store.schedules()}
    assert rows[leased.row.id].due_at == epoch(at(10))  # the lease holder decides
    assert [rows[i].due_at for i in ids[1:]] == [epoch(at(101 + n)) for n in range(4)]
    await store.reschedule_many([(ids[2], None, None)])
    assert [r.id for r in await store.unscheduled()] == [ids[2]]
    assert await store.unscheduled(ids[2]) == () and await store.unscheduled(0, 0) == ()


async def test_meta_round_trip(store: Store) -> None:
    assert await store.meta("zone-data") is None
    await store.set_meta("zone-data", "2025b")
    await store.set_meta("zone-data", "2026a")
    assert await store.meta("zone-data") == "2026a"


async def test_closed_store_refuses_work(store_location: str) -> None:
    store = await open_store(store_location)
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(RuntimeError):
        await zone_of(store, 1)


async def test_bad_rows_come_back_and_are_reported(store: Store) -> None:
    good = await put(store, 1, 100)
    await store.put_schedule(1, 101, "25:00", "Asia/Tokyo", "ja", SINCE, None, None)
    await store.put_schedule(1, 102, "09:00", "Mars/Olympus", "ja", SINCE, None, None)
    rows = await store.schedules(1)
    plans = [plan_of(r) for r in rows]
    assert isinstance(plans[0], Plan) and plans[0].id == good
    bad = [p for p in plans if isinstance(p, BadRow)]
    assert [b.row.channel_id for b in bad] == [101, 102]
    assert "25:00" in bad[0].problem and "Mars/Olympus" in bad[1].problem


# --- PostgreSQL: its own schema versioning -----------------------------------------------


async def test_postgres_refuses_a_newer_schema(postgres_url: str) -> None:
    import psycopg

    store = await open_store(postgres_url)
    await store.close()
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
        await conn.execute("UPDATE liuren_schema SET version = %s", (len(MIGRATIONS) + 1,))
    with pytest.raises(StoreError, match="newer"):
        await open_store(postgres_url)


async def test_postgres_migrates_a_version_1_database_keeping_its_rows(postgres_url: str) -> None:
    import psycopg

    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
        await conn.execute("CREATE TABLE liuren_schema (version INTEGER NOT NULL)")
        await conn.execute("INSERT INTO liuren_schema VALUES (1)")
        for statement in MIGRATIONS[0].postgres:
            await conn.execute(statement)
        await conn.execute("INSERT INTO schedules (guild_id, channel_id, post_time, timezone, last_posted) "
                           "VALUES (10, 20, '07:15', 'Asia/Tokyo', '2026-04-30')")
    store = await open_store(postgres_url)
    try:
        (only,) = await store.schedules(10)
        assert (only.post_time, only.last_posted, only.locale, only.due_at) == ("07:15", "2026-04-30", "ja", None)
        assert [r.id for r in await store.unscheduled()] == [only.id]
    finally:
        await store.close()


async def test_postgres_unreachable_server_is_one_clear_error() -> None:
    with pytest.raises(StoreError, match=r"cannot connect to postgresql://nobody@127\.0\.0\.1:9/x"):
        from bot.store.postgres import PostgresDriver

        await PostgresDriver.open(Location(url="postgresql://nobody@127.0.0.1:9/x?connect_timeout=1"), timeout=0.5)


# --- SQLite: the file ----------------------------------------------------------------------


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    """A database file in folders that do not exist yet (the store creates them)."""
    return tmp_path / "nested" / "dir" / "liuren.sqlite3"


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


async def test_open_creates_folder_wal_and_latest_schema(db_file: Path) -> None:
    store = await open_store(db_file)
    await store.close()
    assert db_file.exists()
    with raw(db_file) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        columns = {r[1] for r in conn.execute("PRAGMA table_info(schedules)")}
        indexes = {r[1] for r in conn.execute("PRAGMA index_list(schedules)")}
    assert {"id", "guild_id", "channel_id", "post_time", "timezone", "last_posted", "disabled_reason", "due_at",
            "lease_token", "unsure", "message_id"} <= columns
    assert "schedules_due" in indexes


def test_default_location_is_the_user_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIUREN_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_location().path == tmp_path / "xdg" / "liuren" / "liuren.sqlite3"
    assert default_location({"LIUREN_DB": "postgresql://u@h:5432/db"}).url == "postgresql://u@h:5432/db"
    assert Location.parse("postgresql://u:secret@h:5432/db").describe() == "postgresql://u@h:5432/db"


async def test_liuren_db_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "elsewhere" / "bot.db"
    monkeypatch.setenv("LIUREN_DB", str(target))
    store = await open_store()
    await set_zone(store, 5, "Europe/Paris")
    await store.close()
    with raw(target) as conn:
        assert conn.execute("SELECT timezone FROM guild_options WHERE guild_id = 5").fetchone()[0] == "Europe/Paris"


async def test_migrates_a_version_1_database_keeping_its_rows(db_file: Path) -> None:
    db_file.parent.mkdir(parents=True)
    with raw(db_file) as conn:
        for statement in MIGRATIONS[0].sqlite:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO guild_settings VALUES (10, 'Asia/Tokyo')")
        conn.execute(
            "INSERT INTO schedules (guild_id, channel_id, post_time, timezone, last_posted) "
            "VALUES (10, 20, '07:15', 'Asia/Tokyo', '2026-04-30')"
        )
    store = await open_store(db_file)
    try:
        assert await zone_of(store, 10) == "Asia/Tokyo"
        (only,) = await store.schedules(10)
        assert (only.channel_id, only.post_time, only.timezone, only.last_posted) == (20, "07:15", "Asia/Tokyo",
                                                                                     "2026-04-30")
        assert only.locale == "ja" and only.disabled_reason is None and only.due_at is None
        plan = plan_of(only)
        assert isinstance(plan, Plan) and plan.since is None
    finally:
        await store.close()
    with raw(db_file) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


async def test_reopening_does_not_reapply_migrations(db_file: Path) -> None:
    for _ in range(3):
        store = await open_store(db_file)
        await store.close()
    with raw(db_file) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


async def test_a_failing_migration_step_rolls_back(db_file: Path) -> None:
    from bot.store.migrations import Step

    conn = connect(db_file)
    broken = (*MIGRATIONS, Step("broken", ("CREATE TABLE extra (x INTEGER)", "THIS IS NOT SQL"), ()))
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, broken)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None
    conn.close()


async def test_claim_race_from_raw_threads(db_file: Path) -> None:
    """Many threads, each with its own store (connection), race for one due row; exactly one wins."""
    store = await open_store(db_file)
    await put(store, 1, 100)
    await store.close()
    barrier = threading.Barrier(8)
    wins: list[int] = []

    def contender(n: int) -> None:
        async def claim() -> int:
            mine = await open_store(db_file)
            try:
                barrier.wait()
                return len(await mine.claim_due(at(0), at(10), f"t{n}", None, 10))
            finally:
                await mine.close()

        wins.append(asyncio.run(claim()))

    threads = [threading.Thread(target=contender, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == [0] * 7 + [1]


async def test_store_runs_sql_off_the_event_loop_thread(db_file: Path) -> None:
    store = await open_store(db_file)
    try:
        assert isinstance(store.driver, SqliteDriver)
        loop_thread = threading.get_ident()
        seen: list[int] = []

        def work(conn: sqlite3.Connection) -> None:
            seen.append(threading.get_ident())

        await store.driver.run(work)
        assert seen and seen[0] != loop_thread
    finally:
        await store.close()


# --- SQLite: damaged or unusable files are refused, untouched ---------------------------------


async def make_db_with_schedule(path: Path) -> bytes:
    store = await open_store(path)
    await put(store, 1, 100)
    await store.close()
    return path.read_bytes()


def assert_untouched(path: Path, before: bytes | None) -> None:
    if before is None:
        assert not path.exists()
    else:
        assert path.read_bytes() == before
    assert not Path(str(path) + "-wal").exists() or Path(str(path) + "-wal").stat().st_size == 0


async def test_garbage_file_is_refused_untouched(db_file: Path) -> None:
    db_file.parent.mkdir(parents=True)
    db_file.write_bytes(b"this is a shopping list, not a database\n" * 50)
    before = db_file.read_bytes()
    with pytest.raises(StoreError) as refused:
        await open_store(db_file)
    message = str(refused.value)
    assert str(db_file) in message and "not a SQLite database" in message and "backup" in message
    assert "\n" not in message
    assert_untouched(db_file, before)


async def test_truncated_file_is_refused_untouched(db_file: Path) -> None:
    await make_db_with_schedule(db_file)
    store = await open_store(db_file)
    for extra in range(200):  # enough pages that cutting half off is seen in the header
        await put(store, 2, 1000 + extra, locale="x" * 500)
    await store.close()
    with raw(db_file) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    whole = db_file.read_bytes()
    db_file.write_bytes(whole[: len(whole) // 2])
    before = db_file.read_bytes()
    with pytest.raises(StoreError, match="truncated") as refused:
        await open_store(db_file)
    assert str(db_file) in str(refused.value)
    assert_untouched(db_file, before)


async def test_empty_file_where_schedules_were_is_refused(db_file: Path) -> None:
    await make_db_with_schedule(db_file)
    assert marker_path(db_file).exists()
    for leftover in (Path(str(db_file) + "-wal"), Path(str(db_file) + "-shm")):
        leftover.unlink(missing_ok=True)
    db_file.write_bytes(b"")
    with pytest.raises(StoreError, match="empty") as refused:
        await open_store(db_file)
    assert str(db_file) in str(refused.value) and marker_path(db_file).name in str(refused.value)
    assert_untouched(db_file, b"")
    db_file.unlink()  # a deleted file is noticed the same way
    with pytest.raises(StoreError, match="missing"):
        await open_store(db_file)
    assert not db_file.exists()


async def test_an_empty_new_file_without_marker_is_fine(db_file: Path) -> None:
    db_file.parent.mkdir(parents=True)
    db_file.write_bytes(b"")
    store = await open_store(db_file)
    await store.close()
    assert not marker_path(db_file).exists()  # no schedules yet: no marker


async def test_newer_schema_is_refused_untouched(db_file: Path) -> None:
    db_file.parent.mkdir(parents=True)
    with raw(db_file) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    before = db_file.read_bytes()
    with pytest.raises(StoreError, match="newer") as refused:
        await open_store(db_file)
    assert str(db_file) in str(refused.value) and "upgrade" in str(refused.value)
    assert_untouched(db_file, before)


async def test_a_directory_is_refused(db_file: Path) -> None:
    db_file.mkdir(parents=True)
    with pytest.raises(StoreError, match="is a directory"):
        await open_store(db_file)


@pytest.mark.parametrize(("mode", "words"), [(os.R_OK, "cannot be read"), (os.W_OK, "read-only")])
async def test_unreadable_or_read_only_file_is_refused(
    db_file: Path, monkeypatch: pytest.MonkeyPatch, mode: int, words: str
) -> None:
    before = await make_db_with_schedule(db_file)
    real = os.access

    # The tests run as root, whom file modes do not stop; os.access is what the check asks.
    def access(path: str | os.PathLike[str], wanted: int, **kwargs: object) -> bool:
        if Path(path) == db_file and wanted == mode:
            return False
        return real(path, wanted)

    monkeypatch.setattr(os, "access", access)
    with pytest.raises(StoreError, match=words) as refused:
        await open_store(db_file)
    assert str(db_file) in str(refused.value)
    assert db_file.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes files whatever their mode")
async def test_read_only_file_mode_is_refused(db_file: Path) -> None:
    await make_db_with_schedule(db_file)
    db_file.chmod(0o444)
    with pytest.raises(StoreError, match="read-only"):
        await open_store(db_file)


@pytest.mark.parametrize("shards", [None, Shards(4, (0, 1))])
async def test_a_tick_reads_the_due_index_not_the_table(db_file: Path, shards: Shards | None) -> None:
    """O(due): both queries of a tick are ranges of the due_at index, with or without shards."""
    from bot.store import sql as q

    store = await open_store(db_file)
    for n in range(50):
        await put(store, (n % 7) << 22, 100 + n, due=at(n))
    await store.close()
    where, params = q.shard_filter(shards)
    with raw(db_file) as conn:
        conn.execute("ANALYZE")
        for sql, args in ((q.DUE.format(where=where), (epoch(at(0)), *params, 10)),
                          (q.NEXT_DUE + where + q.NEXT_DUE_ORDER, params)):
            plan = " / ".join(str(r[3]) for r in conn.execute("EXPLAIN QUERY PLAN " + sql, args))
            assert "USING INDEX schedules_due" in plan and "TEMP B-TREE" not in plan, plan


async def test_postgres_tick_can_use_the_due_index(postgres_url: str) -> None:
    import psycopg

    from bot.store import sql as q
    from bot.store.postgres import sql

    store = await open_store(postgres_url)
    await put(store, 1, 100)
    await store.close()
    where, params = q.shard_filter(Shards(4, (0, 1)))
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as conn:
        await conn.execute("SET enable_seqscan = off")  # a tiny table would be scanned anyway
        for text, args in ((q.DUE.format(where=where), (epoch(at(0)), *params, 10)),
                           (q.NEXT_DUE + where + q.NEXT_DUE_ORDER, params)):
            cursor = await conn.execute("EXPLAIN " + sql(text), args)
            plan = " / ".join(str(r[0]) for r in await cursor.fetchall())
            assert "schedules_due" in plan, plan
