"""The real discord.py bot against the local Discord stand-in: sync, commands, replies, errors, secrets."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from discord import app_commands

import engine
from bot.core import words as i18n
from bot.core.host import make_bot
from bot.core.logs import REDACTED, RedactSecrets, install_redaction
from bot.core.sync import sync_state_path
from bot.reply.limits import group_messages
from bot.store import GuildOptions
from engine import calendar
from engine.symbols import PILLARS
from testkit.discord_standin import LIMITS, DiscordStandIn, GuildSpec, attachment_errors, message_errors
from tests.conftest import StartBot
from texts.when import ACCEPTED_FORMS, default_zone

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)  # 14:00 in Tokyo


def clock() -> datetime:
    return NOW


def puts(standin: DiscordStandIn) -> list[str]:
    return [r.path for r in standin.requests if r.method == "PUT" and r.path.endswith("/commands")]


def no_400s(standin: DiscordStandIn) -> None:
    bad = [(r.method, r.path, r.status) for r in standin.requests if r.status >= 400]
    assert not bad, bad


# -- start and command sync ---------------------------------------------------------------------


async def test_start_logs_in_and_syncs_the_commands_once(standin: DiscordStandIn, start_bot: StartBot) -> None:
    bot = await start_bot(clock=clock)
    assert puts(standin) == [f"/applications/{standin.application_id}/commands"]
    assert bot.synced is True
    assert standin.identifies and standin.identifies[0]["token"] == standin.token
    names = {c["name"]: c for c in standin.global_commands}
    assert {"cast", "chart", "lookup", "help"} <= set(names)
    cast = names["cast"]
    # English is the base that every other locale (fr, de, ko …) sees; ja and zh have their own.
    assert cast["description"] == i18n.TEXTS["cast.description"]["en"]
    assert cast["description_localizations"]["ja"] == i18n.TEXTS["cast.description"]["ja"]
    assert cast["description_localizations"]["zh-TW"] == i18n.TEXTS["cast.description"]["zh-TW"]
    assert "fr" not in cast["description_localizations"]
    # Usable in DMs and by a user who installed the app to their account.
    for name in ("cast", "chart", "lookup", "help"):
        assert sorted(names[name]["contexts"]) == [0, 1, 2]
        assert sorted(names[name]["integration_types"]) == [0, 1]
    options = {o["name"]: o for o in cast["options"]}
    assert options["tz"]["autocomplete"] is True
    assert options["private"]["type"] == 5
    assert all(o.get("description") for o in options.values())
    chart_options = {o["name"]: o for o in names["chart"]["options"]}
    assert chart_options["day"]["autocomplete"] is True
    assert [c["value"] for c in chart_options["hour"]["choices"]] == list("子丑寅卯辰巳午未申酉戌亥")
    assert len(chart_options["yuejiang"]["choices"]) == 12
    assert names["lookup"]["options"][0]["autocomplete"] is True


async def test_second_start_with_the_same_commands_does_not_sync(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    first = await start_bot(clock=clock)
    await first.close()
    assert sync_state_path(db_path).exists()
    second = await start_bot(clock=clock)
    assert second.synced is False
    assert len(puts(standin)) == 1
    await second.close()
    # A changed command set (here: without the daily extension) is synced again.
    third = await start_bot(clock=clock, extensions=("bot.study",))
    assert third.synced is True
    assert len(puts(standin)) == 2


async def test_a_payload_discord_refuses_stops_the_start_as_tree_sync_would_and_is_not_recorded(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    # bot/core/sync.py sends the payload it hashed itself: a refusal must still be
    # discord.py's CommandSyncFailure, naming the commands, and leave nothing recorded as synced.
    standin.commands_refusal = {"2": {"name": {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME",
                                                            "message": "Command name is invalid"}]}}}
    with pytest.raises(app_commands.CommandSyncFailure) as refused:
        await start_bot(clock=clock)
    assert refused.value.status == 400 and refused.value.code == 50035
    [put] = standin.requests_to("PUT", f"/applications/{standin.application_id}/commands")
    third = put.body[2]["name"]  # the error names the command at the index Discord gave
    assert f"In command {third!r}" in str(refused.value) and "Command name is invalid" in str(refused.value)
    assert not sync_state_path(db_path).exists() and standin.global_commands == []
    standin.commands_refusal = None
    bot = await start_bot(clock=clock)  # the next start syncs them
    assert bot.synced is True and {c["name"] for c in standin.global_commands} >= {"cast", "chart"}


async def test_dev_guild_syncs_to_that_guild_only(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = standin.guilds[0].id
    monkeypatch.setenv("DISCORD_GUILD_ID", str(guild))
    await start_bot(clock=clock)
    assert puts(standin) == [f"/applications/{standin.application_id}/guilds/{guild}/commands"]
    callback = await standin.slash("cast", {"when": "now"})  # the guild command answers
    assert callback.type == 4 and callback.embeds


async def test_turning_the_dev_guild_off_removes_its_copy(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Otherwise every command would show twice in that server: the guild copy and the global one."""
    guild = standin.guilds[0].id
    monkeypatch.setenv("DISCORD_GUILD_ID", str(guild))
    first = await start_bot(clock=clock)
    assert standin.guild_commands[guild]
    await first.close()
    monkeypatch.delenv("DISCORD_GUILD_ID")
    await start_bot(clock=clock)
    assert standin.guild_commands[guild] == []
    assert {c["name"] for c in standin.global_commands} >= {"cast", "chart", "lookup", "help"}
    assert puts(standin)[-2:] == [f"/applications/{standin.application_id}/guilds/{guild}/commands",
                                  f"/applications/{standin.application_id}/commands"]


def test_guild_id_must_be_digits() -> None:
    with pytest.raises(ValueError, match="DISCORD_GUILD_ID"):
        make_bot(environ={"DISCORD_GUILD_ID": "my-server"})


def test_liuren_tz_must_be_a_zone() -> None:
    with pytest.raises(ValueError, match="LIUREN_TZ"):
        make_bot(environ={"LIUREN_TZ": "Tokyo"})


async def test_wrong_token_is_refused(standin: DiscordStandIn, bot_env: dict[str, str]) -> None:
    import discord

    bot = make_bot(guild_ready_timeout=0.05)
    with pytest.raises(discord.LoginFailure):
        await bot.start("not-the-token")
    await bot.close()


# -- /cast --------------------------------------------------------------------------------------


async def test_cast_now_answers_with_the_chart_for_the_clock(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "now"})
    assert callback.type == 4 and not callback.ephemeral
    expected = engine.cast(NOW, "Asia/Tokyo")
    embed = callback.embeds[0]
    assert embed["title"].startswith(expected.transmissions.name)
    assert "Asia/Tokyo" in embed["description"]
    assert "2026-11-29 14:00" in embed["description"]
    assert str(expected.day) in embed["description"]
    assert not message_errors(callback.data)
    assert "《心印賦》" in embed["footer"]["text"]
    no_400s(standin)


async def test_cast_a_date_in_a_given_zone(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "2026年11月29日 14時", "tz": "America/New_York",
                                             "question": "引っ越しは？"})
    expected = engine.cast(datetime(2026, 11, 29, 14, tzinfo=ZoneInfo("America/New_York")), "America/New_York")
    embed = callback.embeds[0]
    assert embed["title"].startswith(expected.transmissions.name)
    assert "America/New_York" in embed["description"]
    assert "引っ越しは？" in embed["description"]
    fields = embed["fields"]
    assert all(len(f["value"]) <= LIMITS["field.value"] for f in fields)
    # 引っ越し names the matter of travel: its section comes first, then the chart's fields
    assert fields[0]["name"].startswith(i18n.word("matter.title", "ja"))
    [steps] = [f for f in fields if f["name"].startswith(i18n.text("embed.transmissions", "ja"))]
    assert str(expected.steps[0].general) in steps["value"]


async def test_cast_without_tz_uses_the_server_default(standin: DiscordStandIn, start_bot: StartBot) -> None:
    bot = await start_bot(clock=clock)
    await bot.store.set_guild_options(standin.guilds[0].id, GuildOptions(timezone=calendar.zone("Europe/Paris")))
    callback = await standin.slash("cast", {})
    description = callback.embeds[0]["description"]
    assert "Europe/Paris" in description
    assert i18n.text("embed.zone.server", "ja") in description
    expected = engine.cast(NOW, "Europe/Paris")
    assert callback.embeds[0]["title"].startswith(expected.transmissions.name)


async def test_a_server_zone_the_zone_data_no_longer_knows_is_refused_by_name(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    bot = await start_bot(clock=clock)
    guild = standin.guilds[0].id
    await bot.store.set_guild_options(guild, GuildOptions(timezone=calendar.zone("Europe/Paris")))
    # as a zone name dropped by a later tzdata would be read
    await bot.store.driver.execute("UPDATE guild_options SET timezone = ? WHERE guild_id = ?", ("Mars/Base", guild))
    callback = await standin.slash("cast", {}, locale="en-US")
    assert callback.ephemeral and not callback.embeds
    assert callback.data["content"] == i18n.text("error.zone", "en", zone="Mars/Base")


async def test_cast_in_a_dm_uses_liuren_tz(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LIUREN_TZ", "Asia/Taipei")
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "now"}, guild_id=None, locale="zh-TW")
    description = callback.embeds[0]["description"]
    assert "Asia/Taipei" in description and i18n.text("embed.zone.bot", "zh-TW") in description


async def test_private_cast_is_ephemeral(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "14:00", "private": True})
    assert callback.type == 4
    assert callback.data["flags"] & 64
    assert callback.embeds


@pytest.mark.parametrize("when", ["bogus", "2026-11-29", "1800-01-01 12:00", "2150-05-05 10:00", "32:99"])
async def test_unreadable_moment_gets_an_ephemeral_list_of_forms(
    standin: DiscordStandIn, start_bot: StartBot, when: str
) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": when})
    assert callback.type == 4 and callback.ephemeral
    content = callback.data["content"]
    assert when in content
    for form in ACCEPTED_FORMS:
        assert form in content
    assert not callback.embeds


async def test_unknown_zone_gets_an_ephemeral_hint(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"tz": "Mars/Base"}, locale="en-US")
    assert callback.ephemeral
    assert callback.data["content"] == i18n.text("error.zone", "en", zone="Mars/Base")


async def test_lowercase_zone_is_forgiven(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"tz": "europe/london"})
    assert "Europe/London" in callback.embeds[0]["description"]


# -- /chart, /lookup, /help, autocomplete -------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "yuejiang", "hour"), [("甲子", "亥", "午"), ("丁丑", "未", "丑"), ("癸亥", "子", "子")]
)
async def test_chart_from_classical_inputs(
    standin: DiscordStandIn, start_bot: StartBot, day: str, yuejiang: str, hour: str
) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("chart", {"day": day, "yuejiang": yuejiang, "hour": hour}, locale="en-US")
    expected = engine.cast_classical(day, yuejiang, hour)
    title = callback.embeds[0]["title"]
    assert title.startswith(expected.transmissions.name)
    assert i18n.GLOSSES[expected.transmissions.method.name] in title
    assert f"日 **{day}**" in callback.embeds[0]["description"]
    no_400s(standin)


async def test_chart_with_a_bad_day_is_refused(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("chart", {"day": "甲丑", "yuejiang": "亥", "hour": "午"})
    assert callback.ephemeral
    assert "甲丑" in callback.data["content"]


async def test_lookup_shows_corpus_units(standin: DiscordStandIn, start_bot: StartBot) -> None:
    from texts.corpus import corpus

    await start_bot(clock=clock)
    units = corpus().search("元首")
    assert units
    callback = await standin.slash("lookup", {"term": "元首"}, locale="zh-TW")
    values = [f["value"] for e in callback.embeds for f in e["fields"]]
    assert values[0] == units[0].original.strip()  # the original alone for zh-TW
    ja = await standin.slash("lookup", {"term": "元首"})
    first = ja.embeds[0]["fields"][0]["value"]
    assert first.startswith(units[0].original.strip()) and units[0].translation.strip()[:20] in first


async def test_lookup_of_an_unknown_term_says_so(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("lookup", {"term": "量子計算"})
    assert "量子計算" in callback.embeds[0]["description"]


async def test_autocomplete(standin: DiscordStandIn, start_bot: StartBot) -> None:
    from texts.corpus import corpus

    await start_bot(clock=clock)
    terms = await standin.autocomplete("lookup", {"term": "元"}, "term")
    assert terms and len(terms) <= 25
    assert all("元" in c["value"] and c["value"] in corpus().terms() for c in terms)
    days = await standin.autocomplete("chart", {"day": "甲"}, "day")
    assert [c["value"] for c in days] == [str(p) for p in PILLARS if str(p).startswith("甲")]
    zones = await standin.autocomplete("cast", {"tz": "tokyo"}, "tz")
    assert "Asia/Tokyo" in [c["value"] for c in zones]
    moments = await standin.autocomplete("cast", {"when": "11/29 9:30"}, "when")
    assert moments[0]["value"].startswith("2026-11-29T09:30")
    assert moments[-1]["value"] == "now"


@pytest.mark.parametrize(("locale", "lang"), [("ja", "ja"), ("en-US", "en"), ("zh-CN", "zh-CN")])
async def test_help_in_the_users_language(standin: DiscordStandIn, start_bot: StartBot, locale: str, lang: str) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("help", locale=locale)
    embed = callback.embeds[0]
    assert embed["title"] == i18n.text("help.title", lang)  # type: ignore[arg-type]
    assert "Asia/Tokyo" in embed["description"]
    assert callback.ephemeral


# -- long replies and errors --------------------------------------------------------------------


@pytest.mark.slow  # over a second on the project's machine
async def test_long_reading_continues_in_followups(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.reply import chart as embeds
    from texts.reading import Reading, read

    def huge(chart: Any, known: Any = None) -> Reading:
        real = read(chart, known)
        return Reading(real.chart, real.facts, real.patterns, real.entries * 12)  # no key: never cached

    # bot.reply.chart is where every command turns a chart into its reading.
    monkeypatch.setattr(embeds, "read", huge)
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "now"})
    assert callback.type == 4

    chart = engine.cast(NOW, "Asia/Tokyo")
    expected = group_messages(embeds.build_embeds(
        chart, huge(chart), zone_note=i18n.text("embed.zone.bot", "ja")))
    assert len(expected) > 2
    followups = await standin.followups(callback, count=len(expected) - 1)
    assert [len(r.body["embeds"]) for r in followups] == [len(m) for m in expected[1:]]
    for recorded in [callback.data, *(r.body for r in followups)]:
        assert not message_errors(recorded)
        assert len(recorded["embeds"]) <= 10
    no_400s(standin)


async def test_unexpected_error_is_logged_and_the_user_gets_a_ref(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.reply import chart as embeds

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"boom with {standin.token}")

    monkeypatch.setattr(embeds, "build_embeds", broken)  # bot.commands imports it when loaded
    install_redaction([standin.token], [caplog.handler])
    await start_bot(clock=clock)
    with caplog.at_level(logging.ERROR, logger="bot"):
        callback = await standin.slash("cast", {"when": "now"}, locale="en-US")
    assert callback.ephemeral
    content = callback.data["content"]
    ref = content.split("ref ")[1].split(")")[0]
    assert content == i18n.text("error.internal", "en", ref=ref)
    logged = caplog.text
    assert f"ref {ref}" in logged and "Traceback" in logged and "RuntimeError" in logged
    assert standin.token not in logged and REDACTED in logged
    # Nothing the bot sent to "Discord" carries the token either.
    assert all(standin.token not in json.dumps(r.body) for r in standin.requests)


def test_redaction_covers_message_arguments_and_tracebacks() -> None:
    token = "MTIzNDU2Nzg5.secret.token"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    handler.addFilter(RedactSecrets([token]))
    logger = logging.getLogger("test.redaction.child")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("token is %s", token)
        logger.warning(f"inline {token}")
        try:
            raise ValueError(f"bad {token}")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    out = stream.getvalue()
    assert token not in out
    assert out.count(REDACTED) == 3
    assert "ValueError: bad [REDACTED]" in out


def test_redaction_reaches_records_from_child_loggers() -> None:
    token = "abc.def.ghi-secret"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    parent = logging.getLogger("test.parent")
    parent.addHandler(handler)
    parent.propagate = False
    install_redaction([token], [handler])
    try:
        logging.getLogger("test.parent.discord.http").error("GET with Authorization: Bot %s", token)
    finally:
        parent.removeHandler(handler)
    assert token not in stream.getvalue() and REDACTED in stream.getvalue()


def test_main_without_token_shows_the_chart_and_exits_zero(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["LIUREN_TZ"] = "Asia/Tokyo"
    env["LIUREN_DB"] = str(tmp_path / "db.sqlite3")
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    assert "DISCORD_TOKEN" in done.stderr and "developers" in done.stderr
    assert "課名" in done.stdout and "Asia/Tokyo" in done.stdout
    assert "《心印賦》" in done.stdout
    assert not (tmp_path / "db.sqlite3").exists()  # nothing written without a bot


def test_default_zone_reads_liuren_tz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIUREN_TZ", raising=False)
    assert default_zone() == "Asia/Tokyo"
    monkeypatch.setenv("LIUREN_TZ", "Europe/Berlin")
    assert default_zone() == "Europe/Berlin"


async def test_standin_enforces_discord_limits() -> None:
    body = {"embeds": [{"title": "t" * 257, "fields": [{"name": "n", "value": "v" * 1025}] * 26}]}
    errors = message_errors(body)
    assert errors["embeds"]["0"]["title"]["_errors"]
    assert errors["embeds"]["0"]["fields"]["_errors"]
    assert errors["embeds"]["0"]["fields"]["3"]["value"]["_errors"]
    assert not message_errors({"content": "ok", "embeds": [{"title": "t", "description": "d"}]})
    assert GuildSpec().channels  # a default guild has a text channel


# -- the chart as a picture ---------------------------------------------------------------------


async def test_cast_uploads_the_picture_and_the_embed_shows_it(standin: DiscordStandIn, start_bot: StartBot) -> None:
    import io as _io

    from PIL import Image

    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "2031-03-09 14:00", "tz": "Asia/Tokyo"}, locale="en-US")
    # A 時 not drawn yet (no other test casts it): the text goes out at once, and the picture follows as an edit of it.
    assert not callback.body.get("_multipart") and not callback.files and "image" not in callback.embeds[0]
    assert callback.data["components"]
    edit = await standin.original_edit(callback)
    assert edit.status == 200 and edit.body.get("_multipart") is True
    [upload] = edit.body["_files"]
    assert upload["filename"] == "liuren-20310309-1400.png" and upload["data"][:8] == b"\x89PNG\r\n\x1a\n"
    picture = Image.open(_io.BytesIO(upload["data"]))
    assert picture.format == "PNG" and picture.width >= 800
    assert edit.body["embeds"][0]["image"]["url"] == "attachment://liuren-20310309-1400.png"
    assert [e["title"] for e in edit.body["embeds"]] == [e["title"] for e in callback.embeds]
    # The alt text rides with the attachment for screen readers.
    [attachment] = edit.body["attachments"]
    assert attachment["filename"] == upload["filename"] and attachment["description"].startswith("Da Liu Ren chart")
    # Another minute of the 時, its picture kept: it goes with the first response, the same bytes.
    again = await standin.slash("cast", {"when": "2031-03-09 14:20", "tz": "Asia/Tokyo"}, locale="en-US")
    assert again.body.get("_multipart") is True
    [kept] = again.files
    assert kept["filename"] == "liuren-20310309-1420.png" and kept["data"] == upload["data"]
    assert again.embeds[0]["image"]["url"] == "attachment://liuren-20310309-1420.png"
    [attachment] = again.data["attachments"]
    assert attachment["filename"] == kept["filename"] and attachment["description"].startswith("Da Liu Ren chart")
    await asyncio.sleep(0.05)
    assert [r for r in standin.requests if r.method == "PATCH"] == [edit]  # no edit for a kept picture
    no_400s(standin)


def test_the_standin_reads_an_edits_files_as_discord_does() -> None:
    png = {"field": "files[0]", "filename": "a.png", "data": b"\x89PNG"}
    edit = {"embeds": [{"image": {"url": "attachment://a.png"}}], "attachments": [{"id": 0, "filename": "a.png"}],
            "_files": [png]}
    assert not attachment_errors(edit)
    dropped = attachment_errors({**edit, "attachments": []})  # an upload the list leaves out is dropped
    assert dropped["attachments"]["_errors"] and dropped["embeds"]["0"]["image"]["url"]["_errors"]
    assert attachment_errors({**edit, "embeds": [{"image": {"url": "attachment://b.png"}}]})["embeds"]
    assert attachment_errors({**edit, "attachments": [{"id": 0, "filename": "b.png"}]})["attachments"]["0"]


async def test_a_refused_picture_edit_is_logged_once_and_the_text_stands(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import discord

    from bot.reply import send

    def misnamed(picture: Any) -> discord.File:  # the embed's image then names no attachment
        return discord.File(io.BytesIO(picture.png), filename="other.png")

    monkeypatch.setattr(send, "picture_file", misnamed)
    await start_bot(clock=clock)
    # a 時 no other test draws, so its picture is not kept yet
    callback = await standin.slash("cast", {"when": "2031-03-07 10:00", "tz": "Asia/Tokyo"})
    assert callback.type == 4 and callback.embeds and not callback.files
    edit = await standin.original_edit(callback)
    assert edit.status == 400 and edit.body["embeds"][0]["image"]["url"] == "attachment://liuren-20310307-1000.png"
    await asyncio.sleep(0.1)
    assert [r for r in standin.requests if r.method == "PATCH"] == [edit]  # not retried
    assert any("picture could not be attached (400" in r.getMessage() for r in caplog.records)


async def test_image_false_replies_with_text_only(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("chart", {"day": "甲子", "yuejiang": "亥", "hour": "午", "image": False})
    assert not callback.body.get("_multipart") and not callback.files
    assert "image" not in callback.embeds[0]


@pytest.mark.slow  # over a second on the project's machine
async def test_a_refused_followup_ends_with_a_message_not_silence(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.reply import chart as embeds
    from texts.reading import Reading, read

    def huge(chart: Any, known: Any = None) -> Reading:
        real = read(chart, known)
        return Reading(real.chart, real.facts, real.patterns, real.entries * 12)

    monkeypatch.setattr(embeds, "read", huge)
    await start_bot(clock=clock)
    standin.fail_followups(400, times=1)  # a 5xx discord.py would retry itself
    callback = await standin.slash("cast", {"when": "now", "image": False})
    assert callback.type == 4
    refused, notice = await standin.followups(callback, count=2)
    assert refused.status == 400 and refused.body["embeds"]
    assert notice.body["content"] == i18n.text("error.followup", "ja") and notice.body["flags"] & 64


@pytest.mark.parametrize("option", ["when", "tz"])
async def test_a_raw_overlong_option_still_gets_a_short_answer(
    standin: DiscordStandIn, start_bot: StartBot, option: str
) -> None:
    """discord.py does not re-check Range limits on a raw payload: the reply must stay short anyway."""
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {option: "x" * 5000}, locale="fr")
    assert callback.ephemeral and len(callback.data["content"]) <= 2000
    assert "x" * 100 not in callback.data["content"]
    no_400s(standin)


@pytest.mark.parametrize("locale", ["fr", "de", "ko", "pt-BR"])
async def test_a_client_in_another_language_reads_english(standin: DiscordStandIn, start_bot: StartBot,
                                                          locale: str) -> None:
    """A fr/de/ko/pt-BR client used to get an all-Japanese reply."""
    await start_bot(clock=clock)
    callback = await standin.slash("chart", {"day": "甲子", "yuejiang": "亥", "hour": "午", "image": False},
                                   locale=locale)
    fields = callback.embeds[0]["fields"]
    assert fields[0]["name"] == i18n.text("embed.lessons", "en")
    assert i18n.text("embed.source", "en") in callback.embeds[0]["footer"]["text"]
