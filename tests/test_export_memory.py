"""/case export writes its files as it reads the cases, so the bot's memory does not grow with the
casebook: the real bot against the local Discord stand-in, with a casebook of thousands of cases
with long questions and notes. Three members' exports at once stay within a bound well below the
casebook's size, and a second export by a member whose first is still being made is refused."""

from __future__ import annotations

import asyncio
import random
import re
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.core.words import text
from bot.store import NewCase, open_store
from bot.store.sql import ADD_NOTE
from engine import calendar
from engine.school import School
from testkit.casebook import add_all
from testkit.discord_standin import DiscordStandIn, snowflake
from tests.conftest import StartBot
from tests.test_privacy import exported_rows

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
CASES, NOTES_EACH = 4000, 3
LIMIT = 512 * 1024  # the interactions' upload limit: parts of ~450 KiB
CHARS = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]  # text that compresses about as prose does


def clock() -> datetime:
    return NOW


def prose(rng: random.Random, length: int) -> str:
    return "".join(rng.choices(CHARS, k=length))


async def casebook(db: Path, guild: int, channel: int, author: int) -> int:
    """Fill the database: CASES public cases with 300-character questions and NOTES_EACH notes of
    1,000 characters each; returns the bytes of their text (UTF-8)."""
    rng = random.Random(7)
    store = await open_store(db)
    size = 0
    try:
        cases = await add_all(store, (NewCase(
            guild_id=guild, channel_id=channel, author_id=author, private=False, instant=NOW,
            zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None, school=School(),
            question=prose(rng, 300), birth_year=None, sex=None, created_at=1_800_000_000 + n,
        ) for n in range(CASES)))
        notes: list[tuple[str, tuple[Any, ...]]] = []
        for case in cases:
            size += len((case.question or "").encode())
            for k in range(NOTES_EACH):
                body = prose(rng, 1000)
                size += len(body.encode())
                notes.append((ADD_NOTE, (case.id, author, body, None, 1_800_000_000 + k)))  # plain, as before sealing
        await store.driver.fetch_batch(notes)
    finally:
        await store.close()
    return size


def export_payload(standin: DiscordStandIn, user: int, part: int) -> dict[str, Any]:
    payload = standin.interaction_payload("case export", {"part": part}, user_id=user, locale="en-US")
    payload["attachment_size_limit"] = LIMIT
    return payload


@pytest.mark.slow
async def test_three_large_exports_keep_memory_well_below_the_casebook_and_one_runs_per_user(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    guild = standin.guilds[0]
    size = await casebook(db_path, guild.id, guild.channels[0].id, snowflake())
    await start_bot(clock=clock)
    probe = await standin.interact(export_payload(standin, snowflake(), 1000))
    [told] = await standin.followups(probe, timeout=60)
    parts = int(re.findall(r"\d+", told.body["content"])[-1])  # "this export has N."
    assert parts > 4 and told.body["content"] == text("case.export_none", "en", part=1000, parts=parts)
    members = [snowflake() for _ in range(3)]
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        # Each member asks for the last part: the whole casebook is walked, one part is written.
        running = [asyncio.ensure_future(standin.interact(export_payload(standin, m, parts), timeout=60))
                   for m in members]
        await asyncio.sleep(0.3)
        again = await standin.interact(export_payload(standin, members[0], 1))
        deferred = await asyncio.gather(*running)
        sent = [(await standin.followups(d, timeout=120))[0] for d in deferred]
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    # The bound: a fifth of the casebook's text (measured: ~4 MB for ~40 MB of text; the whole
    # export, as the bot built it before, took ten times the casebook for the three).
    assert peak < size / 5, (peak, size)
    assert again.type == 4 and again.data["content"] == text("case.export_busy", "en")
    for message in sent:
        [upload] = message.body["_files"]
        assert upload["filename"] == f"liuren-cases-{parts}-of-{parts}.zip" and len(upload["data"]) <= LIMIT
        assert exported_rows(message)
