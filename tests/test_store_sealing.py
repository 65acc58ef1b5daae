"""Personal fields sealed under their member's keys (bot.store.sealing, bot.store.keys), on both
backends: what a row of an older version kept in plain text is sealed at the first start on this
version, reads back the same, and a row that cannot be sealed is reported, not dropped; deleting a
member's cases or profile deletes the key, and what it sealed reads as gone."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.store import Profile, open_store, school_json
from bot.store.migrations import MIGRATIONS
from bot.store.sealing import new_key, seal_text, unseal
from engine import calendar
from engine.school import School

OLD = 9  # the schema version before sealing


def _old_rows() -> list[tuple[str, tuple[Any, ...]]]:
    school = school_json(School())
    return [
        ("INSERT INTO cases (id, author_id, private, instant, zone, school, question, birth_year, sex, created_at) "
         "VALUES (?, ?, 0, '2026-11-29T05:00:00+00:00', 'Asia/Tokyo', ?, ?, ?, ?, 1700000000)",
         ("OLD001", 7, school, "an old question", 1961, "女")),
        ("INSERT INTO cases (id, author_id, private, instant, zone, school, question, created_at) "
         "VALUES (?, ?, 0, '2026-11-29T05:00:00+00:00', 'Asia/Tokyo', ?, NULL, 1700000001)", ("OLD002", 8, school)),
        ("INSERT INTO case_notes (case_id, author_id, body, created_at) VALUES (?, ?, ?, 1700000002)",
         ("OLD001", 7, "an old note")),
        ("INSERT INTO profiles (user_id, birth_year, sex, zone) VALUES (?, ?, ?, ?)", (7, 1961, "女", "Asia/Seoul")),
    ]


async def _at_old_version(location: str, extra: list[tuple[str, tuple[Any, ...]]]) -> None:
    rows = _old_rows() + extra
    if location.startswith("postgresql://"):
        import psycopg

        from bot.store.postgres import migrate as pg_migrate

        async with await psycopg.AsyncConnection.connect(location, autocommit=True) as conn:
            assert await pg_migrate(conn, MIGRATIONS[:OLD]) == OLD
            for statement, params in rows:
                await conn.execute(statement.replace("?", "%s"), params)
        return
    from bot.store.sqlite import migrate as sqlite_migrate

    Path(location).parent.mkdir(parents=True)
    with contextlib.closing(sqlite3.connect(location, isolation_level=None)) as conn:
        assert sqlite_migrate(conn, MIGRATIONS[:OLD]) == OLD
        for statement, params in rows:
            conn.execute(statement, params)


def _raw(location: str, statement: str) -> list[tuple[Any, ...]]:
    if location.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(location) as conn:
            return list(conn.execute(statement).fetchall())
    with contextlib.closing(sqlite3.connect(location)) as conn:
        return list(conn.execute(statement).fetchall())


async def test_old_plain_rows_are_sealed_at_the_first_start_and_read_back_the_same(
        empty_store_location: str, caplog: pytest.LogCaptureFixture) -> None:
    location = empty_store_location
    sqlite = not location.startswith("postgresql://")
    # SQLite keeps what it is given: a profile whose birth year is not a number cannot be sealed.
    bad = [("INSERT INTO profiles (user_id, birth_year, sex) VALUES (9, 'nineteen', '男')", ())] if sqlite else []
    await _at_old_version(location, bad)
    with caplog.at_level(logging.ERROR, logger="bot"):
        store = await open_store(location)
    try:
        case = await store.case("OLD001")
        assert case is not None and (case.question, case.birth_year, case.sex) == ("an old question", 1961, "女")
        assert [n.body for n in await store.case_notes(["OLD001"])] == ["an old note"]
        assert await store.profile(7) == Profile(7, 1961, "女", calendar.zone("Asia/Seoul"))
        assert await store.seal_plaintext() == 0  # once
    finally:
        await store.close()
    assert _raw(location, "SELECT question, birth_year, sex FROM cases WHERE id = 'OLD001'") == [(None, None, None)]
    assert _raw(location, "SELECT body FROM case_notes") == [("",)]
    assert _raw(location, "SELECT zone, sealed IS NOT NULL FROM profiles WHERE user_id = 7") == [(None, True)]
    if sqlite:
        assert _raw(location, "SELECT birth_year, sealed FROM profiles WHERE user_id = 9") == [("nineteen", None)]
        assert "profile 9 could not be sealed" in caplog.text  # reported, kept as it was


async def test_a_deleted_key_leaves_what_it_sealed_unreadable(store_location: str) -> None:
    store = await open_store(store_location)
    try:
        await store.set_profile(Profile(7, 1987, "男", None))
        from tests.test_store_casebook import draft

        mine = await store.add_case(draft(author=7, question="sealed question"))
        rows = await store.driver.fetch("SELECT question_sealed FROM cases WHERE id = ?", (mine.id,))
        [(sealed,)] = rows
        [(key,)] = await store.driver.fetch("SELECT case_key FROM member_keys WHERE user_id = 7")
        assert unseal(bytes(key), bytes(sealed), f"q:{mine.id}") == b"sealed question"
        assert unseal(bytes(key), bytes(sealed), "q:ANOTHR") is None  # bound to its row
        assert await store.delete_user_cases(7) == 1
        assert await store.driver.fetch("SELECT case_key FROM member_keys WHERE user_id = 7") == [(None,)]
        assert await store.profile(7) == Profile(7, 1987, "男", None)  # the birth key is another key
        assert await store.delete_profile(7)
        assert await store.driver.fetch("SELECT 1 FROM member_keys WHERE user_id = 7") == []
    finally:
        await store.close()
    assert unseal(new_key(), seal_text(new_key(), "x", "q:A"), "q:A") is None  # another key opens nothing


async def test_a_members_first_casts_at_once_are_each_read_back_under_the_one_key_kept(store_location: str) -> None:
    """Each of a new member's first casts makes a key, stored in the case's own transaction; one key
    is kept, and a case sealed under a key that lost is sealed again under the kept one."""
    from tests.test_store_casebook import draft

    store = await open_store(store_location)
    try:
        asked = [f"first question {n}" for n in range(4)]
        cases = await asyncio.gather(*(store.add_case(replace(draft(author=9, question=question), birth_year=1970,
                                                              sex="男")) for question in asked))
        assert [(c.question, c.birth_year) for c in cases] == [(q, 1970) for q in asked]
        assert [await store.case(c.id) for c in cases] == cases
        assert len(await store.driver.fetch("SELECT case_key, birth_key FROM member_keys WHERE user_id = 9")) == 1
    finally:
        await store.close()
