"""The message menu's "Cast for this message" against the local Discord stand-in: the chart of the
moment the message was posted (not of now), its text as the question read for its matter, shown
to the caller alone, recorded as a private case, shared on request, under /cast's cooldown; the
command as Discord's own spec allows it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.core import words as i18n
from bot.core.cooldowns import RATES
from bot.reply.chart import MOMENT_STAMP
from testkit.discord_standin import Callback, DiscordStandIn, message_errors
from tests.conftest import StartBot
from tests.test_bot_matter import WALLET, name_of
from tests.test_casebook_e2e import case_id, custom_ids, message_of, press
from texts.matters.recognise import Matter

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)  # 14:00 in Tokyo
POSTED = datetime(2026, 11, 28, 2, 10, tzinfo=UTC)  # yesterday, 11:10 in Tokyo: another day, another 時
MENU = "Cast for this message"
SPEC = Path("/work/shared/discord-api-spec/openapi.json")


def clock() -> datetime:
    return NOW


async def share_hint(standin: DiscordStandIn, callback: Callback) -> dict[str, Any]:
    """The followup that tells the caller how to share (after the chart's own followups, if any)."""
    path = f"/webhooks/{standin.application_id}/{callback.token}"
    found = await standin.wait_request(
        lambda r: r.method == "POST" and r.path == path and "lr:p:" in json.dumps(r.body))
    body: dict[str, Any] = found.body
    return body


def fields(callback: Callback) -> list[dict[str, str]]:
    return [f for e in callback.embeds for f in e.get("fields", [])]


async def test_a_message_from_yesterday_gets_yesterdays_chart_and_its_matter_privately(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    bot = await start_bot(clock=clock)
    channel = standin.guilds[0].channels[0].id
    message = standin.member_message(channel, WALLET, POSTED.isoformat())
    callback = await standin.message_command(MENU, message)
    assert callback.type == 4 and callback.ephemeral and not message_errors(callback.data)
    # The moment of the message, in the bot's zone (LIUREN_TZ): yesterday's chart, not today's.
    posted = engine.cast(POSTED, "Asia/Tokyo")
    now = engine.cast(NOW, "Asia/Tokyo")
    assert posted.moment is not None and now.moment is not None and posted.day != now.day
    description = callback.embeds[0]["description"]
    assert f"{posted.moment.local:{MOMENT_STAMP}}" in description and str(posted.day) in description
    assert f"{now.moment.local:{MOMENT_STAMP}}" not in description
    # The message's text is the question, read for its matter as /cast reads one.
    first = fields(callback)[0]
    assert first["name"] == f"{i18n.word('matter.title', 'ja')} — 占事 {name_of(Matter.lost, 'ja')}"
    assert "「なくし」" in first["value"]
    # Recorded as /cast records it: a private case of the caller, at the message's instant.
    ident = case_id(callback)
    case = await bot.store.case(ident)
    assert case is not None and case.private and case.author_id == standin.user_id
    assert case.question == WALLET and case.matter is None
    assert case.instant is not None and case.instant == POSTED
    # Only the caller sees it, and is told how to share it.
    hint = await share_hint(standin, callback)
    assert hint["flags"] & 64 and ident in hint["content"]
    assert custom_ids(Callback(0, "", {"data": hint}, 0)) == [f"lr:p:{ident}"]


async def test_the_moment_is_read_in_the_readers_zone(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    await standin.slash("profile set", {"birth_year": 1961, "sex": "女", "zone": "America/New_York"}, locale="en-US")
    message = standin.member_message(standin.guilds[0].channels[0].id, WALLET, POSTED.isoformat())
    callback = await standin.message_command(MENU, message, locale="en-US")
    local = engine.cast(POSTED, "America/New_York")  # 21:10 the day before, in New York
    assert local.moment is not None
    description = callback.embeds[0]["description"]
    assert f"{local.moment.local:{MOMENT_STAMP}}" in description and "America/New_York" in description
    assert i18n.text("embed.zone.profile", "en") in description


async def test_sharing_posts_the_chart_for_everyone_as_a_public_case(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    bot = await start_bot(clock=clock)
    channel = standin.guilds[0].channels[0].id
    typed = "**[free](https://x.example)** @everyone 財布をなくした"
    message = standin.member_message(channel, typed, POSTED.isoformat())
    callback = await standin.message_command(MENU, message, locale="en-US")
    ident = case_id(callback)
    hint = await share_hint(standin, callback)
    hint_message = {**message_of(standin, callback), "content": hint["content"], "components": hint["components"],
                    "flags": 64}
    stranger = await press(standin, hint_message, f"lr:p:{ident}", user_id=standin.user_id + 1)
    assert stranger.ephemeral and not stranger.embeds  # another's private case: not theirs to share
    shared = await press(standin, hint_message, f"lr:p:{ident}", locale="en-US")
    assert shared.type == 4 and not shared.ephemeral and shared.embeds
    public = await bot.store.case(case_id(shared))
    assert public is not None and not public.private and public.id != ident
    assert public.question == message["content"] and public.instant == (await bot.store.case(ident)).instant
    # The message's text is shown as characters: no link, no ping (bot.core.user_text).
    shown = shared.embeds[0]["description"]
    assert "\\[free](https://x.example)" in shown and "@\u200beveryone" in shown, shown
    assert shared.data["allowed_mentions"]["parse"] == []


async def test_the_menu_counts_against_the_cast_cooldown(standin: DiscordStandIn, start_bot: StartBot) -> None:
    bot = await start_bot(clock=clock)
    channel = standin.guilds[0].channels[0].id
    message = standin.member_message(channel, WALLET, POSTED.isoformat())
    assert (await standin.message_command(MENU, message)).embeds
    for _ in range(RATES["cast"].uses - 1):  # /cast's other uses in the window
        bot.tree.cooldowns.hit("cast", standin.user_id)
    refused = await standin.slash("cast", {"image": False})  # the menu's use counted in /cast's bucket
    again = await standin.message_command(MENU, message)
    for answer in (refused, again):
        assert answer.ephemeral and not answer.embeds
        seconds = int("".join(c for c in answer.data["content"] if c.isdigit()))
        assert answer.data["content"] == i18n.text("error.cooldown", "ja", seconds=seconds)


def _spec() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return loaded


@pytest.mark.skipif(not SPEC.exists(), reason="Discord's OpenAPI spec is not in /work/shared")
async def test_the_menu_is_a_message_command_named_in_four_languages_within_discords_spec(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    spec = _spec()
    schemas = spec["components"]["schemas"]
    [menu] = [c for c in standin.global_commands if c["name"] == MENU]
    kinds = {o["title"]: int(o["const"]) for o in schemas["ApplicationCommandType"]["oneOf"]}
    assert menu["type"] == kinds["MESSAGE"]
    request = schemas["ApplicationCommandUpdateRequest"]["properties"]
    names = {"en": menu["name"], **menu["name_localizations"]}
    assert names == dict(i18n.TEXTS["menu.cast_message"])  # Discord's locales ja, zh-TW, zh-CN: the same names
    longest = request["name"]["maxLength"]
    assert all(1 <= len(n) <= longest for n in names.values())
    assert not menu.get("description")  # a menu has none (Discord refuses one)
    contexts = {o["title"]: int(o["const"]) for o in schemas["InteractionContextType"]["oneOf"]}
    assert sorted(menu["contexts"]) == sorted(contexts.values())


def in_spec(spec: dict[str, Any], method: str, path: str) -> bool:
    """Whether Discord's spec documents ``method`` on ``path`` (a path as the stand-in records it)."""
    return any(re.fullmatch(re.sub(r"\{[^/]+\}", "[^/]+", template), path) and method.lower() in item
               for template, item in spec["paths"].items())


@pytest.mark.skipif(not SPEC.exists(), reason="Discord's OpenAPI spec is not in /work/shared")
async def test_every_request_of_a_message_cast_and_its_share_is_one_discord_documents(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    spec = _spec()
    message = standin.member_message(standin.guilds[0].channels[0].id, WALLET, (NOW - timedelta(days=1)).isoformat())
    callback = await standin.message_command(MENU, message)
    hint = await share_hint(standin, callback)
    await press(standin, {**message_of(standin, callback), "components": hint["components"]},
                f"lr:p:{case_id(callback)}")
    assert standin.requests
    for request in standin.requests:
        assert in_spec(spec, request.method, request.path), (request.method, request.path)
