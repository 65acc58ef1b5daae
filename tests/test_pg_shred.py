"""PostgreSQL: a member's deleted data leaves the database's files (see docs/privacy.md).

After /profile delete and "delete my cases" (the store's operations), a byte search of every
relation file of the test's schema (tables, indexes, TOAST; after a plain VACUUM and a
CHECKPOINT, so the files hold what the server holds) finds neither the question, the note, the
birth data, zone and place, nor the member's keys. The tests connect as the superuser postgres, which
may read the server's data directory (``SHOW data_directory``, ``pg_relation_filepath``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store import KeptPlace, NewCase, Profile, open_store
from engine import calendar
from engine.school import School
from engine.sun import Place

QUESTION = "転職すべきか、秘密の相談 7f3a"
NOTE = "結果: 内定を辞退した 9c1e"
ZONE = "Pacific/Chatham"
SEX = "女"
HOME = KeptPlace(Place(-43.95, -176.55), "チャタム 5b2d", calendar.zone(ZONE))  # a profile's and a case's place


def cast(author: int, question: str, birth: tuple[int, str] | None = None) -> NewCase:
    return NewCase(
        guild_id=100, channel_id=200, author_id=author, private=False, instant=datetime(2026, 11, 29, 5, tzinfo=UTC),
        zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None, school=School(), question=question,
        birth_year=None if birth is None else birth[0], sex=None if birth is None else birth[1],
        created_at=1_800_000_000,
    )


def relation_files(admin: Any, schema: str) -> list[Path]:
    """Every file of the schema's relations and of their TOAST tables and indexes (all forks and segments)."""
    data = Path(admin.execute("SHOW data_directory").fetchone()[0])
    rows = admin.execute(
        "SELECT pg_relation_filepath(c.oid) FROM pg_class c WHERE c.relnamespace = %s::regnamespace "
        "AND pg_relation_filepath(c.oid) IS NOT NULL "
        "UNION SELECT pg_relation_filepath(t.oid) FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid "
        "WHERE c.relnamespace = %s::regnamespace "
        "UNION SELECT pg_relation_filepath(i.indexrelid) FROM pg_class c JOIN pg_index i "
        "ON i.indrelid = c.reltoastrelid WHERE c.relnamespace = %s::regnamespace",
        (schema, schema, schema)).fetchall()
    files: list[Path] = []
    for (relative,) in rows:
        base = data / relative
        files += [p for p in base.parent.glob(base.name + "*") if p.is_file()]
    return files


def schema_of(url: str) -> str:
    return url.split("search_path%3D", 1)[1].split("&", 1)[0]


async def test_deleted_profile_and_cases_leave_no_trace_in_postgres_files(postgres_url: str,
                                                                            postgres_admin: Any) -> None:
    schema = schema_of(postgres_url)
    store = await open_store(postgres_url)
    try:
        await store.set_profile(Profile(7, 1987, SEX, calendar.zone(ZONE), HOME))
        mine = await store.add_case(replace(cast(7, QUESTION, (1987, SEX)), place=HOME))
        await store.add_note(mine.id, 7, NOTE, 1_800_000_100)
        # Other members' rows on the same pages: a plain VACUUM keeps those pages, free space and all.
        others = [await store.add_case(cast(author, f"someone else's question {author}", (1990, "男")))
                  for author in range(20, 60)]
        for author in range(20, 60):
            await store.set_profile(Profile(author, 1990, "男", calendar.zone("Asia/Tokyo")))
        keys: list[bytes] = []
        if postgres_admin.execute("SELECT to_regclass(%s)", (f"{schema}.member_keys",)).fetchone()[0] is not None:
            for row in postgres_admin.execute(
                    f'SELECT case_key, birth_key FROM "{schema}".member_keys WHERE user_id = 7').fetchall():
                keys += [bytes(k) for k in row if k is not None]
        assert await store.delete_profile(7)
        assert await store.delete_user_cases(7) == 1
        assert await store.profile(7) is None and await store.case(mine.id) is None
        # the others' kept, readable
        assert (await store.profile(20)) == Profile(20, 1990, "男", calendar.zone("Asia/Tokyo"))
    finally:
        await store.close()
    for table in ("cases", "case_notes", "profiles"):
        postgres_admin.execute(f'VACUUM "{schema}".{table}')
    postgres_admin.execute("CHECKPOINT")
    files = relation_files(postgres_admin, schema)
    assert files
    content = b"".join(path.read_bytes() for path in files)
    assert all(case.id.encode() in content for case in others)  # the search does see the schema's rows
    # A short text in a row is its length byte ((length + 1) * 2 + 1) and its UTF-8 bytes.
    sex_in_a_row = bytes([(len(SEX.encode()) + 1) * 2 + 1]) + SEX.encode()
    wanted = {"question": QUESTION.encode(), "note": NOTE.encode(), "zone": ZONE.encode(), "sex": sex_in_a_row,
              "place": HOME.name.encode()}
    wanted |= {f"key {n}": key for n, key in enumerate(keys)}
    found = [name for name, needle in wanted.items() if needle in content]
    assert not found, f"left in the relation files after deletion: {found}"
    if not keys:
        pytest.fail("the member had no keys: their personal fields were not sealed")
