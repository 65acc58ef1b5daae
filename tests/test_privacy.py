"""Privacy: nothing personal left behind, nothing revealed, nobody pinged — through the
bot's public interface (slash commands, buttons, forms, the database, the stand-in's record of what
Discord received), on SQLite and PostgreSQL where the backend matters.

Items: 1 (/profile delete clears birth data in every case; the export shows it), 2 (no copy of a
question in another's neighbouring case; store step 8 scrubs old copies), 4 (exports under the
upload limit; notes capped; /case note keeps the author rule), 8 (a NUL refused alike), 9
(allowed_mentions on every message, checked against Discord's OpenAPI spec), 10 (a public chart
reads alike with or without a birth year; an unknown and an unseen case id answer alike), 13 (the
SQLite file and folder 0600/0700, its -wal/-shm too).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import sqlite3
import stat
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.core.words import text
from bot.store import NewCase, open_store, rows, school_json
from bot.store import sql as q
from bot.store.migrations import MIGRATIONS
from bot.store.sql import ADD_NOTE
from engine import calendar
from engine.school import School
from testkit.casebook import add_all
from testkit.discord_standin import Callback, DiscordStandIn, GuildSpec, Recorded, snowflake
from tests.conftest import StartBot
from tests.test_casebook_e2e import message_of, submit

ROOT = Path(__file__).resolve().parent.parent
SPEC = Path("/work/shared/discord-api-spec/openapi.json")
NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)  # 14:00 in Tokyo: 丁未日, 初伝 酉 (龍戦 needs 行年)
ID = re.compile(r"(?:Case|課) ([0-9A-Z]{6})")
SECRET = "Will my divorce go through quietly?"


def clock() -> datetime:
    return NOW


# -- helpers: the database on either backend, replies as the stand-in recorded them ---------------


def query(location: str, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows straight from the database the bot uses (SQLite file or PostgreSQL schema)."""
    if location.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(location) as conn:
            return list(conn.execute(statement.replace("?", "%s"), params).fetchall())
    with contextlib.closing(sqlite3.connect(location)) as conn:
        return list(conn.execute(statement, params).fetchall())


def opened(location: str, table: str, where: str = "", params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The cases' (``table`` "cases") or the notes' ("notes") columns as the store reads them, their
    sealed fields opened (bot.store.sealing), straight from the database: as ``query`` for plain rows."""
    if table == "cases":
        found = query(location, f"SELECT {q.CASE_COLUMNS} FROM cases LEFT JOIN member_keys AS k "
                                f"ON k.user_id = cases.author_id {where}", params)
        return [(c.id, c.author_id, c.question, c.birth_year, c.sex) for c in map(rows.case_of, found)]
    found = query(location, f"SELECT {q.NOTE_COLUMNS}, body_sealed, k.case_key FROM case_notes "
                            f"LEFT JOIN member_keys AS k ON k.user_id = case_notes.author_id {where}", params)
    return [(n.id, n.author_id, n.body) for n in map(rows.note_of, found)]


@pytest.fixture
def location(store_location: str, monkeypatch: pytest.MonkeyPatch, bot_env: dict[str, str]) -> str:
    """The bot's database for this test, once per backend."""
    monkeypatch.setenv("LIUREN_DB", store_location)
    return store_location


def case_id(callback: Callback) -> str:
    found = ID.search(callback.embeds[0]["footer"]["text"])
    assert found is not None, callback.embeds[0]["footer"]
    return found[1]


def said(callback: Callback) -> str:
    assert callback.type == 4 and callback.ephemeral, callback.body
    return str(callback.data.get("content") or json.dumps(callback.embeds, ensure_ascii=False))


async def press(standin: DiscordStandIn, callback: Callback, custom_id: str, **kwargs: Any) -> Callback:
    payload = standin.interaction_payload("cast", {}, **kwargs)
    payload["type"] = 3
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    message = message_of(standin, callback)
    if custom_id not in json.dumps(message["components"]):  # a button as a client could forge it
        message["components"] = [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}]}]
    payload["message"] = message
    return await standin.interact(payload)


def webhook_posts(standin: DiscordStandIn, callback: Callback) -> list[Recorded]:
    path = f"/webhooks/{standin.application_id}/{callback.token}"
    return [r for r in standin.requests if r.method == "POST" and r.path == path]


async def export(standin: DiscordStandIn, options: dict[str, Any] | None = None, *, limit: int | None = None,
                 count: int = 1, **kwargs: Any) -> list[Recorded]:
    """Run /case export (with Discord's upload limit `limit`, if given); its `count` messages."""
    payload = standin.interaction_payload("case export", options or {}, **kwargs)
    if limit is not None:
        payload["attachment_size_limit"] = limit
    deferred = await standin.interact(payload)
    assert deferred.type == 5
    return await standin.followups(deferred, count=count, timeout=30)


def exported_rows(message: Recorded) -> list[dict[str, Any]]:
    """The JSON rows of one export message (plain, or inside its ZIP part)."""
    files = {f["filename"]: f["data"] for f in message.body["_files"]}
    if "liuren-cases.json" in files:
        return list(json.loads(files["liuren-cases.json"]))
    [(name, data)] = files.items()
    assert re.fullmatch(r"liuren-cases-\d+-of-\d+\.zip", name), name
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert sorted(archive.namelist()) == ["liuren-cases.csv", "liuren-cases.json"]
        return list(json.loads(archive.read("liuren-cases.json")))


# -- item 1: /profile delete removes birth data from every case; the export shows it ------------------


async def test_profile_delete_clears_birth_data_in_every_case_and_the_export_shows_it(
    standin: DiscordStandIn, start_bot: StartBot, location: str
) -> None:
    await start_bot(clock=clock)
    me, other = standin.user_id, snowflake()
    await standin.slash("profile set", {"birth_year": 1961, "sex": "女"})
    await standin.slash("profile set", {"birth_year": 1985, "sex": "男"}, user_id=other)
    public = await standin.slash("cast", {"when": "now", "image": False})
    private = await standin.slash("cast", {"when": "now", "private": True, "image": False})
    dm = await standin.slash("cast", {"when": "now", "image": False}, guild_id=None)
    theirs = await standin.slash("cast", {"when": "now", "image": False}, user_id=other)
    mine = {case_id(c) for c in (public, private, dm)}
    stored = [(i, y, s) for i, _, _, y, s in opened(location, "cases", "WHERE author_id = ?", (me,))]
    assert {(i, y, s) for i, y, s in stored} == {(i, 1961, "女") for i in mine}

    [message] = await export(standin, locale="en-US")
    rows = {r["id"]: r for r in exported_rows(message)}
    assert {"birth_year", "sex"} <= set(rows[case_id(public)])
    assert all((rows[i]["birth_year"], rows[i]["sex"]) == (1961, "女") for i in mine)
    # Another member's case in the server export: their birth data is not shown to me.
    assert (rows[case_id(theirs)]["birth_year"], rows[case_id(theirs)]["sex"]) == (None, None)
    table = message.body["_files"][1]["data"].decode("utf-8-sig").splitlines()[0].split(",")
    assert "birth_year" in table and "sex" in table

    deleted = await standin.slash("profile delete", {}, locale="en-US")
    assert said(deleted) == text("profile.deleted", "en", count=3)
    left = [(y, s) for *_, y, s in opened(location, "cases", "WHERE author_id = ?", (me,))]
    assert left == [(None, None)] * 3  # public, private and DM cases alike, without pressing anything
    assert query(location, "SELECT count(*) FROM profiles WHERE user_id = ?", (me,)) == [(0,)]
    assert [(y, s) for *_, y, s in opened(location, "cases", "WHERE author_id = ?", (other,))] == [(1985, "男")]
    [after] = await export(standin, locale="en-US")
    assert all((r["birth_year"], r["sex"]) == (None, None) for r in exported_rows(after) if r["id"] in mine)


# -- item 2: no copy of a question in someone else's neighbouring case --------------------------------


async def test_delete_my_cases_leaves_no_copy_of_my_question_anywhere(
    standin: DiscordStandIn, start_bot: StartBot, location: str
) -> None:
    await start_bot(clock=clock)
    me, other = standin.user_id, snowflake()
    asked = await standin.slash("cast", {"when": "now", "question": SECRET, "image": False})
    theirs = await press(standin, asked, f"lr:c:next:{case_id(asked)}", user_id=other)
    assert theirs.type == 4 and SECRET not in json.dumps(theirs.embeds, ensure_ascii=False)
    again = await press(standin, theirs, f"lr:c:prev:{case_id(theirs)}", user_id=other)
    own = await press(standin, asked, f"lr:c:next:{case_id(asked)}")
    assert SECRET in json.dumps(own.embeds, ensure_ascii=False)  # my own neighbour keeps my question
    questions = {i: question for i, _, question, _, _ in opened(location, "cases")}
    assert questions[case_id(theirs)] is None and questions[case_id(again)] is None
    assert questions[case_id(asked)] == SECRET == questions[case_id(own)]

    deleted = await standin.slash("profile delete", {})
    [button] = [c["custom_id"] for row in deleted.data["components"] for c in row["components"]]
    confirmed = await press(standin, deleted, button)
    assert confirmed.type == 7
    everything = [row[:3] for row in opened(location, "cases")]
    assert {row[0] for row in everything} == {case_id(theirs), case_id(again)}
    assert not [row for row in everything if row[2] and SECRET in row[2]]
    assert not query(location, "SELECT 1 FROM case_notes WHERE author_id = ?", (me,))


def _old_rows() -> list[tuple[Any, ...]]:
    """Cases as version 7 kept them: (id, guild, author, instant, zone, day, yuejiang, hour, question)."""
    g, other_guild = 1 << 40, 1 << 41
    tokyo, q = "Asia/Tokyo", "Will it rain at the wedding?"
    return [
        ("ORIG01", g, 1, "2026-11-29T05:00:00+00:00", tokyo, None, None, None, q),  # the asker's
        ("COPY01", g, 2, "2026-11-29T07:00:00+00:00", tokyo, None, None, None, q),  # 次の時 by 2: a copy
        ("COPY02", g, 3, "2026-11-29T01:00:00+00:00", tokyo, None, None, None, q),  # two 前の時 by 3: a copy
        ("OWN001", g, 1, "2026-11-29T09:00:00+00:00", tokyo, None, None, None, q),  # the asker's own neighbour
        ("APART1", g, 4, "2026-11-29T05:17:00+00:00", tokyo, None, None, None, q),  # other minutes: not a copy
        ("APART2", g, 5, "2026-11-29T06:00:00+00:00", tokyo, None, None, None, q),  # an odd hour step: not one
        ("APART3", other_guild, 6, "2026-11-29T07:00:00+00:00", tokyo, None, None, None, q),  # another server
        ("CLASS1", g, 1, None, None, "甲子", "亥", "子", "Where is my ring?"),
        ("CLASS2", g, 2, None, None, "甲子", "亥", "丑", "Where is my ring?"),  # its neighbour by 2: a copy
    ]


def _old_insert(rows: list[tuple[Any, ...]]) -> list[tuple[str, tuple[Any, ...]]]:
    school = school_json(School())
    statement = ("INSERT INTO cases (id, guild_id, channel_id, author_id, private, instant, zone, day, yuejiang, "
                 "hour, school, question, created_at) VALUES (?, ?, 7, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)")
    return [(statement, (*r[:8], school, r[8], 1_700_000_000 + n)) for n, r in enumerate(rows)]


async def test_store_step_8_removes_old_copies_of_a_question_and_keeps_every_own_one(empty_store_location: str) -> None:
    store_location = empty_store_location
    rows = _old_rows()
    if store_location.startswith("postgresql://"):
        import psycopg

        from bot.store.postgres import migrate as pg_migrate

        async with await psycopg.AsyncConnection.connect(store_location, autocommit=True) as conn:
            assert await pg_migrate(conn, MIGRATIONS[:7]) == 7
            for statement, params in _old_insert(rows):
                await conn.execute(statement.replace("?", "%s"), params)
    else:
        from bot.store.sqlite import migrate as sqlite_migrate

        Path(store_location).parent.mkdir(parents=True)
        with contextlib.closing(sqlite3.connect(store_location, isolation_level=None)) as conn:
            assert sqlite_migrate(conn, MIGRATIONS[:7]) == 7
            for statement, params in _old_insert(rows):
                conn.execute(statement, params)
    store = await open_store(store_location)  # the bot's start: step 8 runs
    try:
        kept = {c.id: c.question for author in range(1, 7) for c in await store.cases_by_author(author, 0, 50)}
    finally:
        await store.close()
    scrubbed = {"COPY01", "COPY02", "CLASS2"}
    assert {i for i, question in kept.items() if question is None} == scrubbed
    assert all(kept[r[0]] == r[8] for r in rows if r[0] not in scrubbed)


# -- item 4: exports under the upload limit; notes capped; the author rule for /case note -------------


@cache
def _note_bodies() -> tuple[tuple[str, ...], ...]:
    """25 notes for each of 30 cases: CJK text that deflate cannot shrink much, drawn from
    ``random.Random(22)`` case by case as the test adds them. Strings, drawn once for both backends
    (750,000 draws a backend)."""
    chance = random.Random(22)
    return tuple(
        tuple("".join(chr(chance.randrange(0x4E00, 0x9FA5)) for _ in range(1000)) for _ in range(25))
        for _ in range(30)
    )


@pytest.mark.slow  # over a second on the project's machine
async def test_an_export_is_split_under_the_upload_limit_and_loses_no_case_or_note(
    standin: DiscordStandIn, start_bot: StartBot, location: str
) -> None:
    me = standin.user_id
    guild = standin.guilds[0].id
    store = await open_store(location)
    try:
        ids = []
        notes: list[tuple[str, tuple[Any, ...]]] = []
        for n in range(30):
            case = await store.add_case(NewCase(
                guild_id=guild, channel_id=None, author_id=me, private=False, instant=NOW,
                zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None, school=School(),
                question=f"question {n}", birth_year=1961, sex="女", created_at=1_800_000_000 + n,
            ))
            ids.append(case.id)
            notes += [(ADD_NOTE, (case.id, me, body, None, 1_800_000_000 + k))
                      for k, body in enumerate(_note_bodies()[n])]
        # The 750 notes in this order, with the statement Store.add_note runs, in one transaction
        # instead of 750: the store has no batch of notes of its own.
        await store.driver.fetch_batch(notes)
    finally:
        await store.close()
    await start_bot(clock=clock)
    limit = 512 * 1024
    first = await export(standin, limit=limit, count=4, locale="en-US")
    counted = re.search(r"part 1 of (\d+)", first[0].body["content"])
    assert counted is not None, first[0].body["content"]
    parts = int(counted[1])
    assert parts > 4  # more than one command's worth: the fourth message says how to go on
    assert text("case.export_more", "en", left=parts - 4, next=5) in first[3].body["content"]
    rest = await export(standin, {"part": 5}, limit=limit, count=parts - 4, locale="en-US")
    messages = first + rest
    for n, message in enumerate(messages, start=1):
        [upload] = message.body["_files"]
        assert upload["filename"] == f"liuren-cases-{n}-of-{parts}.zip"
        assert len(upload["data"]) <= limit  # what Discord would accept for this interaction
        assert message.body["flags"] & (1 << 6)  # ephemeral
    rows = [r for message in messages for r in exported_rows(message)]
    assert sorted(r["id"] for r in rows) == sorted(ids)  # each case once, in some part
    assert all(len(r["notes"]) == 25 and r["birth_year"] == 1961 for r in rows)
    [refused] = await export(standin, {"part": parts + 1}, limit=limit, locale="en-US")
    assert refused.body["content"] == text("case.export_none", "en", part=parts + 1, parts=parts)


@pytest.mark.slow  # over a second on the project's machine
async def test_five_thousand_cases_export_in_one_zip_under_discords_limit(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    store = await open_store(db_path)
    try:
        await add_all(store, (NewCase(
            guild_id=standin.guilds[0].id, channel_id=1, author_id=standin.user_id, private=n % 3 == 0,
            instant=NOW, zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None,
            school=School(), question=f"{n}: " + "問" * 290, birth_year=1961, sex="女",
            created_at=1_800_000_000 + n,
        ) for n in range(5000)))
    finally:
        await store.close()
    await start_bot(clock=clock)
    [message] = await export(standin)
    [upload] = message.body["_files"]  # as plain JSON and CSV: 2 × ~9 MB (the longest questions /cast takes)
    assert upload["filename"] == "liuren-cases-1-of-1.zip"
    assert len(upload["data"]) <= 8 * 1024 * 1024  # the stand-in's attachment_size_limit, as Discord's
    assert len(exported_rows(message)) == 5000


async def test_notes_are_capped_and_only_the_author_writes_them(
    standin: DiscordStandIn, start_bot: StartBot, location: str
) -> None:
    await start_bot(clock=clock)
    cast = await standin.slash("cast", {"when": "now", "image": False}, locale="en-US")
    ident = case_id(cast)
    for n in range(1, 26):
        added = await standin.slash("case note", {"id": ident, "text": f"note {n}"}, locale="en-US")
        assert said(added) == text("case.note_added", "en", id=ident, number=n)
    full = await standin.slash("case note", {"id": ident, "text": "one more"}, locale="en-US")
    assert said(full) == text("case.note_cap", "en", id=ident, count=25)
    form = await submit(standin, f"lr:n:{ident}", {"note": "one more by the form"}, locale="en-US")
    assert said(form) == text("case.note_cap", "en", id=ident, count=25)
    edited = await standin.slash("case note", {"id": ident, "text": "replaced", "edit": 3}, locale="en-US")
    assert said(edited) == text("case.note_edited", "en", id=ident, number=3)  # editing stays open
    stranger = snowflake()
    # A member who may read the public case may not write on it: /case note as the note button.
    theirs = await standin.slash("case note", {"id": ident, "text": "spam"}, user_id=stranger, locale="en-US")
    assert said(theirs) == text("case.author_only", "en", id=ident)
    button = await press(standin, cast, f"lr:c:note:{ident}", user_id=stranger, locale="en-US")
    assert said(button) == text("case.author_only", "en", id=ident)
    forged = await submit(standin, f"lr:n:{ident}", {"note": "spam"}, user_id=stranger, locale="en-US")
    assert said(forged) == text("case.author_only", "en", id=ident)
    assert query(location, "SELECT count(*) FROM case_notes WHERE case_id = ?", (ident,)) == [(25,)]
    assert not query(location, "SELECT 1 FROM case_notes WHERE author_id = ?", (stranger,))


# -- item 8: a NUL character is refused alike on both backends ----------------------------------------


async def test_a_nul_character_is_refused_with_a_message_on_both_backends(
    standin: DiscordStandIn, start_bot: StartBot, location: str
) -> None:
    await start_bot(clock=clock)
    refusal = text("case.text_nul", "en")
    chart = {"day": "甲子", "yuejiang": "亥", "hour": "子", "question": "\x00", "image": False}
    for name, options in (("cast", {"when": "now", "question": "a\x00b", "image": False}), ("chart", chart)):
        assert said(await standin.slash(name, options, locale="en-US")) == refusal, name
    assert query(location, "SELECT count(*) FROM cases") == [(0,)]  # nothing kept
    cast = await standin.slash("cast", {"when": "now", "question": "fine", "image": False}, locale="en-US")
    ident = case_id(cast)
    assert said(await standin.slash("case note", {"id": ident, "text": "x\x00y"}, locale="en-US")) == refusal
    assert said(await submit(standin, f"lr:n:{ident}", {"note": "\x00"}, locale="en-US")) == refusal
    await standin.slash("case note", {"id": ident, "text": "kept"}, locale="en-US")
    assert said(await standin.slash("case note", {"id": ident, "text": "\x00", "edit": 1}, locale="en-US")) == refusal
    assert [(body,) for *_, body in opened(location, "notes")] == [("kept",)]
    assert [(question,) for _, _, question, _, _ in opened(location, "cases")] == [("fine",)]
    assert not standin.errors


# -- item 9: allowed_mentions on every message, as Discord's spec describes it ----------------------


def _spec() -> dict[str, Any]:
    return dict(json.loads(SPEC.read_text(encoding="utf-8")))


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = spec["components"]["schemas"][name]
    return schema


def _valid(spec: dict[str, Any], schema: dict[str, Any], value: Any) -> bool:
    """The JSON-Schema keywords Discord's spec uses for allowed_mentions (enough to fail a wrong one)."""
    schema = _resolve(spec, schema)
    if "oneOf" in schema and sum(_valid(spec, s, value) for s in schema["oneOf"]) != 1:
        return False
    if "anyOf" in schema and not any(_valid(spec, s, value) for s in schema["anyOf"]):
        return False
    if "const" in schema and value != schema["const"]:
        return False
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        python = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
        if not any(isinstance(value, python[k]) for k in kinds if k in python):
            return False
    if isinstance(value, dict):
        known = schema.get("properties", {})
        if set(value) - set(known) and "properties" in schema:
            return False  # a key Discord does not know
        return all(_valid(spec, known[k], v) for k, v in value.items() if k in known)
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            return False
        if schema.get("uniqueItems") and len({json.dumps(v) for v in value}) != len(value):
            return False
        return all(_valid(spec, schema["items"], v) for v in value) if "items" in schema else True
    return True


def _mention_schemas(spec: dict[str, Any], schema: dict[str, Any], seen: frozenset[str] = frozenset()) -> list[Any]:
    """Every schema the request body `schema` gives its (or its ``data``'s) ``allowed_mentions``."""
    ref = schema.get("$ref")
    if ref in seen:
        return []
    seen = seen | {ref} if ref else seen
    schema = _resolve(spec, schema)
    found = []
    for key in ("anyOf", "oneOf", "allOf"):
        for part in schema.get(key, []):
            found += _mention_schemas(spec, part, seen)
    properties = schema.get("properties", {})
    if "allowed_mentions" in properties:
        found.append(properties["allowed_mentions"])
    if "data" in properties:
        found += _mention_schemas(spec, properties["data"], seen)
    return found


def _request_schema(spec: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    for template, item in spec["paths"].items():
        pattern = re.sub(r"\{[^/]+\}", "[^/]+", template)
        if re.fullmatch(pattern, path) and method.lower() in item:
            return dict(item[method.lower()]["requestBody"]["content"]["application/json"]["schema"])
    raise AssertionError(f"{method} {path} is not in Discord's spec")


def message_requests(standin: DiscordStandIn) -> Iterator[tuple[Recorded, dict[str, Any]]]:
    """Every request that made or changed a message, with the part of its body that is the message."""
    for r in standin.requests:
        body = r.body or {}
        callback = r.path.endswith("/callback") and r.method == "POST" and int(body.get("type", 0)) in (4, 7)
        webhook = r.path.startswith("/webhooks/") and r.method in ("POST", "PATCH")
        channel = re.fullmatch(r"/channels/\d+/messages", r.path) is not None and r.method == "POST"
        if callback or webhook or channel:
            yield r, body


async def test_no_message_of_the_bot_can_ping_anyone(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    ping = "@everyone @here <@&123456789012345678> <@123456789012345678>"
    cast = await standin.slash("cast", {"when": "now", "question": ping, "image": False})
    ident = case_id(cast)
    await standin.slash("case note", {"id": ident, "text": ping})
    await submit(standin, f"lr:n:{ident}", {"note": ping})
    await standin.slash("case show", {"id": ident})
    await standin.slash("case show", {"id": ping[:20]})
    await standin.slash("history", {})
    await standin.slash("lookup", {"term": "@everyone"})
    await press(standin, cast, f"lr:c:next:{ident}")
    await press(standin, cast, f"lr:c:src:{ident}")
    await export(standin)
    await standin.slash("profile set", {"birth_year": 1961, "sex": "女"})
    deleted = await standin.slash("profile delete", {})
    [button] = [c["custom_id"] for row in deleted.data["components"] for c in row["components"]]
    await press(standin, deleted, button)  # an edit of the message (callback type 7)
    spec = _spec()
    seen = list(message_requests(standin))
    assert len(seen) >= 12
    for request, message in seen:
        where = f"{request.method} {request.path}"
        mentions = (message.get("data") if request.path.endswith("/callback") else message) or {}
        value = mentions.get("allowed_mentions")
        assert value is not None, where  # said on every message, not left to Discord's default
        assert value.get("parse") == [] and not value.get("users") and not value.get("roles"), (where, value)
        assert not value.get("replied_user"), where
        schemas = _mention_schemas(spec, _request_schema(spec, request.method, request.path))
        assert schemas, where
        assert any(_valid(spec, s, value) for s in schemas), (where, value)
    # The check can fail: a value Discord would reject or that pings is caught.
    schema = _mention_schemas(spec, _request_schema(spec, "POST", "/channels/1/messages"))
    assert not any(_valid(spec, s, {"parse": ["everybody"]}) for s in schema)
    assert not any(_valid(spec, s, {"parse": "everyone"}) for s in schema)


# -- item 10: a public chart never tells whether its querent gave a birth year -----------------------


def _public(callback: Callback) -> str:
    """A reply as everyone sees it, without its case id."""
    return ID.sub("課 ID", json.dumps(callback.embeds, ensure_ascii=False, sort_keys=True))


async def test_a_public_chart_reads_alike_with_or_without_a_birth_year(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    told, plain = standin.user_id, snowflake()
    await standin.slash("profile set", {"birth_year": 1961, "sex": "女"})  # 行年 卯: 龍戦 holds at NOW
    undecided = 0
    for hour in range(0, 24, 2):
        when = {"when": f"2026-11-29 {hour:02d}:00", "image": False}
        mine = await standin.slash("cast", when)
        theirs = await standin.slash("cast", when, user_id=plain)
        assert _public(mine) == _public(theirs), hour
        undecided += "行年" in _public(theirs)
    assert undecided  # some of these charts leave 龍戦 open for want of a 行年, and say so for both
    # With the picture: the image shows no 本命/行年 either.
    mine = await standin.slash("cast", {"when": "now"})
    theirs = await standin.slash("cast", {"when": "now"}, user_id=plain)
    assert _public(mine) == _public(theirs)
    assert (await standin.picture(mine))["data"] == (await standin.picture(theirs))["data"]
    # What the birth data decides goes to its owner alone, ephemerally.
    [told_you] = [r for r in await standin.followups(mine) if r.body.get("embeds")]
    assert told_you.body["flags"] & (1 << 6)
    assert "龍戦" in json.dumps(told_you.body["embeds"], ensure_ascii=False)
    assert not [r for r in webhook_posts(standin, theirs) if r.body.get("embeds")]
    # Shown again, pressed by others: the same as a chart without birth data.
    ident = case_id(mine)
    shown = await standin.slash("case show", {"id": ident}, user_id=plain)
    assert _public(shown) == _public(await standin.slash("case show", {"id": case_id(theirs)}, user_id=plain))
    source_theirs = await press(standin, theirs, f"lr:c:src:{case_id(theirs)}", user_id=plain)
    source_mine = await press(standin, mine, f"lr:c:src:{ident}", user_id=plain)
    assert source_mine.embeds == source_theirs.embeds
    # Only for the author's eyes is the birth data read into the chart itself.
    secret = await standin.slash("cast", {"when": "now", "private": True, "image": False})
    assert "龍戦" in secret.embeds[0]["title"]
    assert told != plain  # two members, one with a profile


async def test_an_unknown_id_and_anothers_private_id_answer_alike(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    second = GuildSpec(name="elsewhere")
    standin.guilds.append(second)
    await start_bot(clock=clock)
    secret = await standin.slash("cast", {"when": "now", "private": True, "image": False})
    public = await standin.slash("cast", {"when": "now", "image": False})
    hidden, shown = case_id(secret), case_id(public)
    stranger = snowflake()

    def same(a: Callback, a_id: str, b: Callback, b_id: str) -> None:
        assert said(a).replace(a_id, "ID") == said(b).replace(b_id, "ID")

    unknown = "ZZZZZZ"
    for command, extra in (("case show", {}), ("case note", {"text": "x"}), ("case delete", {})):
        probe = await standin.slash(command, {"id": unknown, **extra}, user_id=stranger, locale="en-US")
        private = await standin.slash(command, {"id": hidden, **extra}, user_id=stranger, locale="en-US")
        elsewhere = await standin.slash(command, {"id": shown, **extra}, user_id=stranger, guild_id=second.id,
                                        locale="en-US")
        same(probe, unknown, private, hidden)
        same(probe, unknown, elsewhere, shown)
    for action in ("why", "src", "next", "note"):
        probe = await press(standin, secret, f"lr:c:{action}:{unknown}", user_id=stranger, locale="en-US")
        private = await press(standin, secret, f"lr:c:{action}:{hidden}", user_id=stranger, locale="en-US")
        same(probe, unknown, private, hidden)


# -- item 13: the SQLite file and its folder are the bot's user's alone ------------------------------


async def test_the_sqlite_file_its_folder_and_its_wal_are_private(
    standin: DiscordStandIn, start_bot: StartBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "fresh" / "liuren.sqlite3"
    monkeypatch.setenv("LIUREN_DB", str(path))
    old = os.umask(0)  # a permissive umask: the modes must come from the bot, not the environment
    try:
        await start_bot(clock=clock)
        await standin.slash("profile set", {"birth_year": 1961, "sex": "女"})
        await standin.slash("cast", {"when": "now", "question": "private?", "image": False})
    finally:
        os.umask(old)

    def mode(p: Path) -> int:
        return stat.S_IMODE(p.stat().st_mode)

    assert mode(path.parent) == 0o700
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        assert file.exists() and mode(file) == 0o600, (file, oct(mode(file)))


def test_the_image_and_the_unit_keep_the_data_folder_private() -> None:
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"install -d -m 0700 -o liuren -g liuren /data", docker)
    unit = (ROOT / "deploy" / "liuren-bot.service").read_text(encoding="utf-8")
    assert "StateDirectoryMode=0700" in unit and "UMask=0077" in unit
