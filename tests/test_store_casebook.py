"""The casebook's tables, once per backend (SQLite file, PostgreSQL schema): cases, notes, server
options, profiles, and deleting every row of a user."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import warnings
from collections.abc import AsyncIterator
from dataclasses import fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store import Bad, Store, open_store, values
from bot.store.forms import school_from_json, school_json
from bot.store.values import (
    CASE_ID_ALPHABET,
    GuildOptions,
    NewCase,
    Profile,
    new_case_id,
    normalize_case_id,
)
from engine import calendar
from engine.school import School

T = 1_800_000_000
ROOT = Path(__file__).resolve().parents[1]


def draft(author: int = 7, guild: int | None = 100, *, private: bool = False, at: int = T,
          question: str | None = "move?") -> NewCase:
    return NewCase(
        guild_id=guild, channel_id=None if guild is None else 200, author_id=author, private=private,
        instant=datetime(2026, 11, 29, 5, tzinfo=UTC), zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None,
        hour=None,
        school=School(fuyin_repeat_clash=True), question=question, birth_year=None, sex=None,
        created_at=at,
    )


@pytest.fixture
async def store(store_location: str) -> AsyncIterator[Store]:
    opened = await open_store(store_location)
    yield opened
    await opened.close()


def test_case_ids_are_six_base32_characters_and_typed_ids_are_normalized() -> None:
    ids = {new_case_id() for _ in range(200)}
    assert all(len(i) == 6 and set(i) <= set(CASE_ID_ALPHABET) for i in ids)
    assert len(ids) > 190
    assert normalize_case_id(" #ab1o2k ") == "AB102K"
    assert normalize_case_id("abc") is None
    assert normalize_case_id("ABCDEU") is None  # U is not in Crockford's alphabet


def test_case_ids_use_every_character_across_a_page_of_randomness_and_differ_after_a_fork() -> None:
    ids = [new_case_id() for _ in range(3000)]  # ~3 pages of the buffered randomness
    assert len(set(ids)) > 2990
    for position in range(6):  # each position draws every character (the 10-bit pairs mapped right)
        assert {i[position] for i in ids} == set(CASE_ID_ALPHABET)
    read, write = os.pipe()
    # Forked while a thread holds the ids' lock (here this one): the child must not wait on it forever.
    with values._RANDOM._lock, warnings.catch_warnings():  # Python 3.12 warns of forking with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        child = os.fork()
        if child == 0:  # the child's next ids, written back to the parent
            try:
                os.write(write, "".join(new_case_id() for _ in range(8)).encode())
            finally:
                os._exit(0)
    os.close(write)
    answered: list[int] = []
    try:
        answered, _, _ = select.select([read], [], [], 10)
        assert answered, "the forked child never wrote its ids (stuck on a lock held at the fork?)"
    finally:
        if not answered:
            os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    with os.fdopen(read, "rb") as pipe:
        theirs = pipe.read().decode()
    ours = "".join(new_case_id() for _ in range(8))
    assert len(theirs) == 48 and theirs != ours  # the child read the system's randomness afresh


def test_school_options_round_trip_and_keep_every_option() -> None:
    school = School(day_changes_at_23=False, noble_table="甲羊", fuyin_repeat_clash=True,
                    shehai_depth_first=True, maoxing_by_day=True)
    assert school_from_json(school_json(school)) == school
    assert school_from_json(None) == School()
    assert '"fuyin_repeat_clash": false' in school_json(School())


async def test_a_case_is_kept_exactly_and_survives_a_reopen(store_location: str) -> None:
    store = await open_store(store_location)
    saved = await store.add_case(draft())
    assert len(saved.id) == 6
    assert saved.author_id == 7 and saved.guild_id == 100 and saved.question == "move?"
    assert saved.school.fuyin_repeat_clash
    await store.close()
    reopened = await open_store(store_location)
    try:
        assert await reopened.case(saved.id) == saved
        assert await reopened.case("ZZZZZZ") is None
    finally:
        await reopened.close()


async def test_the_case_a_write_returns_is_its_row_read_back_in_every_field(store: Store) -> None:
    full = replace(draft(guild=None, private=True, question="転職は?"), birth_year=1990, sex="女", matter="general")
    plain = replace(draft(question=None), instant=None, zone=None, day="甲子", yuejiang="亥", hour="午")
    for new in (full, plain):
        saved = await store.add_case(new)
        assert await store.case(saved.id) == saved
        assert all(getattr(saved, f.name) == getattr(new, f.name) for f in fields(new))


async def test_history_is_newest_first_paged_and_private_cases_stay_with_their_author(store: Store) -> None:
    mine = [await store.add_case(draft(at=T + i)) for i in range(5)]
    secret = await store.add_case(draft(private=True, at=T + 10))
    other = await store.add_case(draft(author=8, at=T + 11))
    elsewhere = await store.add_case(draft(author=8, guild=101, at=T + 12))
    dm = await store.add_case(draft(guild=None, at=T + 13))
    by_me = await store.cases_by_author(7, 0, 50)
    assert [c.id for c in by_me] == [dm.id, secret.id, *[c.id for c in reversed(mine)]]
    assert [c.id for c in await store.cases_by_author(7, 2, 2)] == [mine[4].id, mine[3].id]
    seen_by_8 = await store.cases_seen_in_guild(100, 8, [200], 0, 50)
    assert secret.id not in {c.id for c in seen_by_8}
    assert [c.id for c in seen_by_8][:1] == [other.id]
    assert secret.id in {c.id for c in await store.cases_seen_in_guild(100, 7, [200], 0, 50)}
    assert elsewhere.id not in {c.id for c in seen_by_8}
    assert not secret.visible_to(8, 100) and secret.visible_to(7, None)
    assert other.visible_to(7, 100) and not other.visible_to(7, 101) and not other.visible_to(7, None)
    assert not dm.visible_to(8, None)


async def test_notes_several_per_case_editable_only_by_their_author(store: Store) -> None:
    case = await store.add_case(draft())
    first = await store.add_note(case.id, 7, "it happened", T + 100)
    second = await store.add_note(case.id, 8, "as read", T + 200)
    assert not await store.edit_note(first.id, case.id, 8, "hijacked", T + 300)
    assert not await store.edit_note(first.id, "ZZZZZZ", 7, "wrong case", T + 300)
    assert await store.edit_note(first.id, case.id, 7, "it happened, in May", T + 300)
    notes = await store.case_notes([case.id])
    assert [(n.author_id, n.body, n.edited_at) for n in notes] == [
        (7, "it happened, in May", T + 300), (8, "as read", None)]
    assert notes[1] == second
    assert await store.case_notes([]) == ()


async def test_deleting_a_case_takes_its_notes_and_nothing_else(store: Store) -> None:
    case = await store.add_case(draft())
    kept = await store.add_case(draft())
    await store.add_note(case.id, 7, "x", T)
    await store.add_note(kept.id, 7, "y", T)
    assert await store.delete_case(case.id)
    assert not await store.delete_case(case.id)
    assert await store.case(case.id) is None
    assert await store.case_notes([case.id]) == ()
    assert [n.body for n in await store.case_notes([kept.id])] == ["y"]


async def test_guild_options_round_trip(store: Store) -> None:
    assert await store.guild_options(1) == GuildOptions()
    options = GuildOptions(school=School(noble_table="甲羊"), language="en", image=False)
    await store.set_guild_options(1, options)
    assert await store.guild_options(1) == options
    await store.set_guild_options(1, replace(options, language=None, image=True))
    assert await store.guild_options(1) == replace(options, language=None, image=True)
    assert await store.guild_options(2) == GuildOptions()


async def test_stored_values_that_no_longer_decode_are_kept_as_bad_not_dropped(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    saved = await store.add_case(draft())
    assert saved.instant == datetime(2026, 11, 29, 5, tzinfo=UTC) and saved.zone is calendar.zone("Asia/Tokyo")
    await store.driver.execute("UPDATE cases SET instant = ?, zone = ?, school = ? WHERE id = ?",
                               ("yesterday", "Mars/Base", "{not json", saved.id))
    read = await store.case(saved.id)
    assert read is not None and read.question == saved.question  # the rest of the row as stored
    assert isinstance(read.instant, Bad) and read.instant.text == "yesterday"
    assert isinstance(read.zone, Bad) and read.zone.text == "Mars/Base" and "Mars/Base" in read.zone.why
    assert isinstance(read.school, Bad) and read.school.text == "{not json"
    await store.set_guild_options(3, GuildOptions(school=School(noble_table="甲羊"), language="en",
                                                  timezone=calendar.zone("Europe/Paris")))
    # written behind the store's back (nothing has read the row since it was set)
    await store.driver.execute("UPDATE guild_options SET school = ?, language = ?, timezone = ? WHERE guild_id = ?",
                               ("[1]", "tlh", "Atlantis/Capital", 3))
    with caplog.at_level("WARNING", logger="bot"):
        options = await store.guild_options(3)
    assert options.school is None and options.language is None  # read as not set, and said so
    assert isinstance(options.timezone, Bad) and options.timezone.text == "Atlantis/Capital"
    assert "server 3" in caplog.text and "[1]" in caplog.text and "tlh" in caplog.text


async def test_profile_and_deleting_every_row_of_a_user(store: Store) -> None:
    assert await store.profile(7) is None
    await store.set_profile(Profile(7, 1990, "男"))
    await store.set_profile(Profile(7, 1991, "女", calendar.zone("Europe/London")))
    assert await store.profile(7) == Profile(7, 1991, "女", calendar.zone("Europe/London"))
    mine = await store.add_case(draft())
    theirs = await store.add_case(draft(author=8))
    await store.add_note(mine.id, 8, "their note on my case", T)
    await store.add_note(theirs.id, 7, "my note on their case", T)
    await store.add_note(theirs.id, 8, "their own note", T)
    assert await store.delete_profile(7)
    assert not await store.delete_profile(7)
    assert await store.delete_user_cases(7) == 1
    assert await store.case(mine.id) is None
    assert await store.cases_by_author(7, 0, 50) == ()
    assert [n.body for n in await store.case_notes([theirs.id, mine.id])] == ["their own note"]
    assert await store.case(theirs.id) is not None


def _synchronous(store: Store) -> tuple[str, object, object]:
    """How to ask the backend whether a commit waits for the disk, and its answers: not, and does."""
    if store.location.path is not None:  # SQLite's every commit waits for the disk (tests/test_sqlite_lanes.py)
        return "PRAGMA synchronous", 2, 2  # FULL, FULL
    return "SELECT current_setting('synchronous_commit')", "off", "on"


async def test_the_cases_of_casts_commit_waiting_for_the_disk(store: Store) -> None:
    """The cases /cast writes in batches are committed flushed (the id shown is on the disk: see
    docs/admin.md); a driver's unflushed transaction (Driver.fetch_batch) is that transaction's alone,
    and the next write waits for the disk again, even after a failed batch."""
    ask, unflushed, flushed = _synchronous(store)
    asked: list[bool] = []
    write = store.driver.fetch_batch

    async def seen(steps: Any, *, atomic: bool = True, flushed: bool = True) -> Any:
        asked.append(flushed)
        return await write(steps, atomic=atomic, flushed=flushed)

    setattr(store.driver, "fetch_batch", seen)  # noqa: B010 - see how the store writes its cases
    await store.add_case(draft())
    assert asked == [True]
    assert await write([(ask, ())] * 2, flushed=False) == [[(unflushed,)]] * 2
    assert await write([(ask, ())], flushed=False) == [[(unflushed,)]]  # one statement alone
    assert await write([(ask, ())] * 2) == [[(flushed,)]] * 2
    with pytest.raises(Exception, match="no_such_table"):
        await write([(ask, ()), ("INSERT INTO no_such_table VALUES (1)", ())], flushed=False)
    assert await store.driver.fetch(ask) == [(flushed,)]
    await store.set_profile(Profile(7, 1990, "男"))
    assert await store.driver.fetch(ask) == [(flushed,)]


def test_a_cast_case_outlives_the_process_that_wrote_it(tmp_path: Path) -> None:
    """An unflushed case is committed: the process ending at once, unclosed (no checkpoint), loses
    nothing (the promise of bot.store.batch for a crash or a restart)."""
    path = tmp_path / "liuren.sqlite3"
    script = (
        "import asyncio, os, sys\n"
        "from dataclasses import replace\n"
        "from bot.store import open_store\n"
        "from tests.test_store_casebook import draft\n"
        "async def main():\n"
        f"    store = await open_store({str(path)!r})\n"
        "    ids = [c.id for c in await asyncio.gather(*(store.add_case(replace(draft(), author_id=n))"
        " for n in range(40)))]\n"
        "    print(' '.join(ids), flush=True)\n"
        "    os._exit(0)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    ids = done.stdout.split()
    assert len(set(ids)) == 40
    assert Path(f"{path}-wal").stat().st_size > 0  # left unmerged, as a crash leaves it

    async def read_back() -> list[int]:
        store = await open_store(path)
        try:
            return [case.author_id for case in [await store.case(i) for i in ids] if case is not None]
        finally:
            await store.close()

    assert sorted(asyncio.run(read_back())) == list(range(40))


async def test_a_sqlite_file_that_held_cases_is_not_silently_replaced(tmp_path: Path) -> None:
    from bot.store import StoreError
    from bot.store.sqlite import marker_path

    path = tmp_path / "liuren.sqlite3"
    store = await open_store(path)
    assert not marker_path(path).exists()
    await store.add_case(draft())
    await store.close()
    assert marker_path(path).exists()
    path.unlink()
    with pytest.raises(StoreError, match="missing"):
        await open_store(path)
