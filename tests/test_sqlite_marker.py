"""The marker beside a SQLite file says what the file held (cases, schedules), and an emptied or
vanished file is refused in those words, naming the marker to delete to start afresh on purpose
(docs/admin.md); deleting it does start afresh."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.store import NewCase, Store, StoreError, open_store, sql
from bot.store.sqlite_file import marker_path
from engine import calendar
from engine.school import School

SINCE = datetime(2026, 5, 1, tzinfo=UTC)


def case() -> NewCase:
    return NewCase(guild_id=100, channel_id=200, author_id=7, private=False,
                   instant=datetime(2026, 11, 29, 5, tzinfo=UTC), zone=calendar.zone("Asia/Tokyo"), day=None,
                   yuejiang=None, hour=None, school=School(), question=None, birth_year=None, sex=None,
                   created_at=1_780_000_000)


async def schedule(store: Store) -> None:
    await store.put_schedule(1, 100, "09:00", "Asia/Tokyo", "ja", SINCE, None, date(2026, 5, 2))


def remove(db: Path) -> None:
    """The database gone, as an admin deleting it (its WAL files too) leaves it."""
    for leftover in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        leftover.unlink(missing_ok=True)


async def refusal(db: Path) -> str:
    with pytest.raises(StoreError) as refused:
        await open_store(db)
    return str(refused.value)


async def test_a_file_that_held_only_cases_is_refused_as_one_that_held_cases(tmp_path: Path) -> None:
    db = tmp_path / "liuren.sqlite3"
    store = await open_store(db)
    await store.add_case(case())
    await store.close()
    marker = marker_path(db)
    assert marker.read_text(encoding="utf-8").splitlines()[0] == "held: cases"
    assert "delete this file" in marker.read_text(encoding="utf-8")
    remove(db)
    said = await refusal(db)
    assert "missing but held cases before" in said and "schedule" not in said
    assert f"to start afresh with an empty database on purpose, delete {marker}" in said  # the whole path
    assert not db.exists()


async def test_the_marker_grows_with_what_the_file_holds(tmp_path: Path) -> None:
    db = tmp_path / "liuren.sqlite3"
    store = await open_store(db)
    await schedule(store)
    assert marker_path(db).read_text(encoding="utf-8").startswith("held: schedules\n")
    await store.close()
    store = await open_store(db)  # a later run adds the first case
    await store.add_case(case())
    await store.close()
    assert marker_path(db).read_text(encoding="utf-8").startswith("held: cases, schedules\n")
    remove(db)
    db.write_bytes(b"")
    said = await refusal(db)
    assert "is empty (0 bytes) but held cases and schedules before" in said and str(marker_path(db)) in said


async def test_deleting_the_marker_starts_afresh(tmp_path: Path) -> None:
    db = tmp_path / "liuren.sqlite3"
    store = await open_store(db)
    await store.add_case(case())
    await store.close()
    remove(db)
    await refusal(db)
    marker_path(db).unlink()  # what the refusal says to do
    store = await open_store(db)
    try:
        assert await store.schedules() == () and not marker_path(db).exists()  # empty, nothing held yet
        await store.add_case(case())
        assert marker_path(db).read_text(encoding="utf-8").startswith("held: cases\n")
    finally:
        await store.close()


async def test_an_old_marker_that_does_not_say_is_read_and_replaced(tmp_path: Path) -> None:
    db = tmp_path / "liuren.sqlite3"
    store = await open_store(db)
    await store.add_case(case())
    await store.close()
    marker_path(db).unlink()
    old = tmp_path / "liuren.sqlite3.has-schedules"  # what an earlier liuren left: an empty file
    old.touch()
    away = {f"{db}{end}": tmp_path / f"away{end}" for end in ("", "-wal", "-shm") if Path(f"{db}{end}").exists()}
    for here, there in away.items():
        Path(here).rename(there)
    said = await refusal(db)
    assert "missing but held cases or schedules before" in said and f"delete {old}" in said
    for here, there in away.items():
        there.rename(here)
    store = await open_store(db)  # the file back: the marker is written anew, saying what it holds
    await store.close()
    assert not old.exists() and marker_path(db).read_text(encoding="utf-8").startswith("held: cases\n")


async def test_a_kind_the_marker_names_already_is_not_looked_at_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every /cast writes a case: once the marker names cases, a cast looks at nothing more (the
    look is a reader's query, ~65 µs a cast on a file with no schedule)."""
    store = await open_store(tmp_path / "liuren.sqlite3")
    try:
        await store.add_case(case())
        monkeypatch.setattr(sql, "HOLDS_ROWS", "SELECT * FROM no_such_table")  # a look would now fail
        await store.add_case(case())
        with pytest.raises(Exception, match="no_such_table"):
            await schedule(store)  # schedules are not named yet: looked at
    finally:
        await store.close()
