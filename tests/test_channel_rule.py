"""Another member's case is shown only to a member who may read the channel it was cast in: the
real bot against the local Discord stand-in, whose server has a channel @everyone cannot see and
two members let in by a member overwrite. /history scope:server, /case show and /case export
follow Discord's permissions for that channel (docs/privacy.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.words import text
from bot.store import NewCase, open_store
from engine import calendar
from engine.school import School
from testkit.discord_standin import (
    BOT_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    VIEW_CHANNEL,
    ChannelSpec,
    DiscordStandIn,
    GuildSpec,
    snowflake,
)
from tests.conftest import StartBot
from tests.test_casebook_e2e import case_id, ephemeral_text
from tests.test_privacy import export, exported_rows

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
AUTHOR, READER, OUTSIDER = snowflake(), snowflake(), snowflake()
READS = str(VIEW_CHANNEL | READ_MESSAGE_HISTORY)


def clock() -> datetime:
    return NOW


@pytest.fixture
def guilds() -> list[GuildSpec]:
    guild = GuildSpec(channels=[ChannelSpec(name="general"), ChannelSpec(name="council")])
    guild.channels[1].overwrites = [
        {"id": str(guild.id), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)},  # @everyone: hidden
        {"id": str(guild.bot_role_id), "type": 0, "allow": str(BOT_PERMISSIONS), "deny": "0"},
        *({"id": str(member), "type": 1, "allow": READS, "deny": "0"} for member in (AUTHOR, READER)),
    ]
    return [guild]


async def test_a_public_case_is_seen_only_by_members_who_may_read_its_channel(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    general, council = (c.id for c in standin.guilds[0].channels)
    hidden = case_id(await standin.slash("cast", {"when": "now", "image": False, "question": "council matter"},
                                         user_id=AUTHOR, channel_id=council))
    shown = case_id(await standin.slash("cast", {"when": "now", "image": False}, user_id=AUTHOR, channel_id=general))

    async def seen_by(member: int) -> dict[str, set[str]]:
        history = await standin.slash("history", {"scope": "server"}, user_id=member, channel_id=general)
        listed = {i for i in (hidden, shown) if i in history.embeds[0]["description"]}
        showable = set()
        for ident in (hidden, shown):
            answer = await standin.slash("case show", {"id": ident}, user_id=member, channel_id=general,
                                         locale="en-US")
            if answer.embeds:
                showable.add(ident)
            else:
                assert ephemeral_text(answer) == text("case.not_found", "en", id=ident)
        [message] = await export(standin, user_id=member, channel_id=general)
        exported = {r["id"] for r in exported_rows(message)}
        return {"history": listed, "show": showable, "export": exported}

    assert await seen_by(OUTSIDER) == {"history": {shown}, "show": {shown}, "export": {shown}}
    assert await seen_by(READER) == {"history": {hidden, shown}, "show": {hidden, shown},
                                     "export": {hidden, shown}}
    assert await seen_by(AUTHOR) == {"history": {hidden, shown}, "show": {hidden, shown},
                                     "export": {hidden, shown}}


async def test_in_a_server_the_bot_is_not_in_only_the_channel_asked_in_is_known(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    """Where the app is installed by a user, the bot knows nothing of the server but what the
    interaction says: a case cast in the channel asked in is shown (Discord sends the member's
    permissions there), one cast in another channel of that server is not."""
    elsewhere, here, there = snowflake(), snowflake(), snowflake()
    store = await open_store(db_path)
    try:
        cast = [await store.add_case(NewCase(
            guild_id=elsewhere, channel_id=channel, author_id=AUTHOR, private=False, instant=NOW,
            zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None, school=School(), question=None,
            birth_year=None, sex=None, created_at=1_800_000_000)) for channel in (here, there)]
    finally:
        await store.close()
    await start_bot(clock=clock)
    found = []
    for case in cast:
        payload = standin.interaction_payload("case show", {"id": case.id}, user_id=READER, locale="en-US")
        payload["guild_id"] = str(elsewhere)
        payload["channel_id"] = str(here)
        payload["channel"] = {**payload["channel"], "id": str(here), "guild_id": str(elsewhere)}
        answer = await standin.interact(payload)
        found.append(bool(answer.embeds) or ephemeral_text(answer) != text("case.not_found", "en", id=case.id))
    assert found == [True, False]
