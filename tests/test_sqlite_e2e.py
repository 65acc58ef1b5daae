"""SQLite's promises through the bot's public interface (docs/admin.md, docs/privacy.md): the real
bot against the local Discord stand-in, on a SQLite file. A disk that stalls at every commit holds
no other user's interaction; /profile delete and "delete my cases" leave no byte of what they
deleted in the database's files."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.core.words import text
from testkit.discord_standin import Callback, DiscordStandIn, snowflake
from tests.conftest import StartBot
from tests.test_casebook_e2e import custom_ids, ephemeral_text, message_of, press
from tests.test_sqlite_lanes import Stalled, sealed_of, stored_files

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
SECRET = "Should I sell the house on Rue Lepic before spring?"
NOTE = "The buyer called on the ninth, as the chart said."
CAST = {"when": "2026-11-29 14:00", "image": False}


def clock() -> datetime:
    return NOW


@pytest.fixture
def stalled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every connection the bot opens is a ``Stalled`` one (its COMMIT waits ``Stalled.stall``)."""
    connect = sqlite3.connect

    def slow(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return connect(*args, factory=Stalled, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", slow)
    yield
    Stalled.stall = 0.0


async def answered(standin: DiscordStandIn, callback: Callback) -> dict[str, Any]:
    """The message an interaction was answered with: the callback's, or a deferred one's followup."""
    if callback.type == 5:
        [message] = await standin.followups(callback, count=1, timeout=15)
        body = message.body
        assert isinstance(body, dict)
        return body
    return callback.data


@pytest.mark.slow  # ten seconds of stalled commits
async def test_a_disk_stalling_at_every_commit_holds_no_other_users_interaction(
    standin: DiscordStandIn, start_bot: StartBot, stalled: None
) -> None:
    """Two users cast one after another while every commit waits 1.5 s for the disk; meanwhile
    others' /help, /lookup and /cast are acknowledged within Discord's 3 s, and each /cast gets its
    chart (its case stored behind the stalled ones, within the deadline)."""
    await start_bot(clock=clock)
    for warm in (standin.slash("cast", CAST), standin.slash("help"), standin.slash("lookup", {"term": "元首"})):
        assert (await warm).type == 4
    Stalled.stall = 1.5

    async def keep_casting(user: int) -> list[Callback]:
        return [await standin.slash("cast", {**CAST, "question": f"stalled {n}?"}, user_id=user, timeout=20)
                for n in range(4)]

    stallers = [asyncio.create_task(keep_casting(snowflake())) for _ in range(2)]
    others: list[tuple[str, Callback]] = []
    for _ in range(3):
        await asyncio.sleep(0.5)
        names = ("help", "lookup", "cast")
        done = await asyncio.gather(*(standin.slash(name, options, user_id=snowflake(), timeout=15) for name, options
                                      in zip(names, ({}, {"term": "元首"}, CAST), strict=True)))
        others += zip(names, done, strict=True)
    late = [(name, round(c.elapsed, 2)) for name, c in others if c.elapsed >= 3.0]
    assert not late, late  # acknowledged within Discord's 3 s
    for name, callback in others:
        assert callback.type in (4, 5), (name, callback.body)
        if name == "cast":
            assert (await answered(standin, callback)).get("embeds"), callback.body
    for staller in stallers:
        for callback in await staller:
            assert callback.elapsed < 3.0 and callback.type in (4, 5), callback.body


async def test_profile_delete_and_delete_my_cases_leave_no_byte_of_them_in_the_files(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    await start_bot(clock=clock)
    other = snowflake()
    await standin.slash("profile set", {"birth_year": 1961, "sex": "女"})
    cast = await standin.slash("cast", {**CAST, "question": SECRET})
    found = json.dumps(cast.embeds, ensure_ascii=False)
    assert SECRET in found
    [ident] = {c.split(":")[-1] for c in custom_ids(cast)}
    noted = await standin.slash("case note", {"id": ident, "text": NOTE}, locale="en-US")
    assert noted.ephemeral and noted.type == 4
    theirs = await standin.slash("cast", {**CAST, "question": "their question stays"}, user_id=other)
    assert theirs.type == 4
    # Sealed: the plain text never reaches the files; the member's keys and what they sealed do.
    plain = (SECRET.encode(), NOTE.encode(), "女".encode())
    keys, sealed = sealed_of(db_path, standin.user_id)
    their_keys, _ = sealed_of(db_path, other)
    assert (len(keys), len(sealed), len(their_keys)) == (2, 2 + 1 + 1, 1)  # the case's two fields, note, profile
    before = stored_files(db_path)
    assert all(found in before for found in (*keys, *sealed, *their_keys))
    assert not any(marker in before for marker in plain)

    deleted = await standin.slash("profile delete", {}, locale="en-US")
    assert ephemeral_text(deleted) == text("profile.deleted", "en", count=1)
    [button] = custom_ids(deleted)
    confirmed = await press(standin, message_of(standin, deleted), button, locale="en-US")
    assert confirmed.type == 7 and confirmed.data["content"] == text("profile.cases_deleted", "en", count=1)
    left = stored_files(db_path)
    for gone in (*keys, *sealed, *plain):
        assert gone not in left, gone
    assert all(key in left for key in their_keys)  # what was not deleted is kept
    for _ in range(5):  # the bot goes on as before
        assert (await standin.slash("cast", CAST, user_id=other)).type == 4
