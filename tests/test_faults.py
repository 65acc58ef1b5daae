"""Faults, through the bot's public interface: the real
bot against the local stand-in, on SQLite and PostgreSQL where both apply; what Discord received is
the stand-in's record, what was kept is the database.

Item 3 fills a real (tmpfs) disk, so it needs root (mount); item 6 kills the bot's own backends
(pg_terminate_backend, only those of this test's application_name).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import sqlite3
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core.cooldowns import RATES
from bot.core.words import text
from testkit.daily_harness import Clock, Harness, utc, wait_for_post
from testkit.discord_standin import (
    ATTACH_FILES,
    BOT_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    Callback,
    ChannelSpec,
    DiscordStandIn,
    GuildSpec,
    Recorded,
    snowflake,
)
from testkit.processes import due_now, finish, read_until, run_bot

StartBot = Any
# Discord's own OpenAPI spec, in shared/ beside the checkout (as CI lays it out).
SPEC_PATH = Path(__file__).resolve().parents[2] / "shared" / "discord-api-spec" / "openapi.json"
SPEC = json.loads(SPEC_PATH.read_text(encoding="utf-8")) if SPEC_PATH.exists() else None
CAST = {"when": "2026-11-29 14:00", "image": False}


def clock() -> datetime:
    return datetime(2026, 11, 29, 5, 0, tzinfo=UTC)


def webhooks(standin: DiscordStandIn, callback: Callback) -> list[Recorded]:
    """Followups and edits of the interaction's answer (POST/PATCH/DELETE /webhooks/{app}/{token}…)."""
    return [r for r in standin.requests if r.path.startswith(f"/webhooks/{standin.application_id}/{callback.token}")]


async def followup(standin: DiscordStandIn, callback: Callback, timeout: float = 15) -> Recorded:
    path = f"/webhooks/{standin.application_id}/{callback.token}"
    return await standin.wait_request(lambda r: r.method == "POST" and r.path == path, timeout=timeout)


async def answer_of(standin: DiscordStandIn, callback: Callback) -> dict[str, Any]:
    """The message an interaction was answered with: the callback's, or (deferred on a slow
    machine: bot.core.ack) the first followup's."""
    if callback.type == 5:
        body = (await followup(standin, callback)).body
        assert isinstance(body, dict)
        return body
    return callback.data


# -- item 3: a full disk -----------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs the test can fill (needs root: mount)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.decode().strip()}); run as root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill the disk under `folder` to the last byte; returns the filler file (delete it to free space)."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), filler.open("wb") as handle:
        while True:
            handle.write(b"\0" * 4096)
            handle.flush()
    return filler


async def test_a_full_disk_during_a_tick_is_logged_as_full_not_a_rollback_and_the_post_follows(
    small_disk: Path, standin: DiscordStandIn, caplog: pytest.LogCaptureFixture
) -> None:
    h = Harness(standin, small_disk / "liuren.sqlite3", Clock(utc(2026, 5, 1, 23, 0)))
    try:
        await h.start()
        channel = h.channel()
        await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
        await h.settle()
        filler = fill(small_disk)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            await h.at(utc(2026, 5, 2, 0, 0))
            h.cog.changed()
            await standin_until(lambda: any("tick failed" in r.getMessage() for r in caplog.records))
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert "full" in logged and "free space" in logged, logged
        assert "cannot rollback" not in logged and "no transaction is active" not in logged
        assert not [r for r in caplog.records if r.exc_info], "a full disk is one line, not a traceback"
        assert h.posts(channel) == []
        filler.unlink()  # space again: the next tick posts, once
        h.cog.changed()
        await wait_for_post(h, channel)
        assert len(h.posts(channel)) == 1
    finally:
        await h.stop()


@pytest.mark.slow
async def test_a_full_disk_at_start_says_free_space_and_the_bot_starts_once_there_is(
    small_disk: Path, standin: DiscordStandIn
) -> None:
    db = small_disk / "liuren.sqlite3"
    day = await due_now(db, standin.guilds[0].id, standin.guilds[0].channels[0].id)
    before = db.read_bytes()
    filler = fill(small_disk)
    process = await run_bot({**standin.env(), "DISCORD_TOKEN": standin.token, "LIUREN_DB": str(db)})
    seen: list[str] = []
    try:
        said = await read_until(process, "the database is unavailable", seen)
        assert "full" in said and "free space" in said and "not damaged" in said, said
        assert "restore" not in said.replace("do not restore", "")  # never the advice that loses data
        assert process.returncode is None and db.read_bytes() == before
        filler.unlink()
        await standin.wait_connected(timeout=30)  # waited, then started on the same file
        await standin_until(lambda: standin.messages.get(standin.guilds[0].channels[0].id))
    finally:
        process.send_signal(signal.SIGTERM)
    code, err = await finish(process)
    assert code == 0, "".join(seen) + err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT last_posted FROM schedules").fetchone() == (day,)


async def standin_until(condition: Any, timeout: float = 15) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


# -- item 5: every interaction acknowledged within 3 s ------------------------------------------


@contextlib.asynccontextmanager
async def locked(location: str) -> AsyncIterator[None]:
    """Another client holds the cases table's write lock (SQLite: the file's; PostgreSQL: the table's)."""
    if location.startswith("postgresql://"):
        import psycopg

        conn = await psycopg.AsyncConnection.connect(location)
        try:
            await conn.execute("BEGIN")
            await conn.execute("LOCK TABLE cases IN ACCESS EXCLUSIVE MODE")
            yield
        finally:
            await conn.rollback()
            await conn.close()
    else:
        holder = sqlite3.connect(location, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()


@pytest.mark.slow  # over a second on the project's machine
async def test_a_locked_database_is_acknowledged_in_time_then_told_clearly(
    standin: DiscordStandIn, start_bot: StartBot, store_location: str, caplog: pytest.LogCaptureFixture
) -> None:
    await start_bot(clock=clock, store_path=store_location)
    assert (await standin.slash("cast", CAST)).type == 4  # warm: the chart path is loaded
    async with locked(store_location):
        callback = await standin.slash("cast", {**CAST, "question": "locked?"}, timeout=10)
        assert callback.elapsed < 3.0 and callback.type == 5, callback.body  # deferred before the deadline
        told = await followup(standin, callback)
    assert told.body["content"] == text("error.database", "ja")
    assert not [r for r in caplog.records if r.exc_info], "a busy database is not a bug"
    assert "database is unavailable" in caplog.text
    again = await standin.slash("cast", CAST)  # the lock is gone: served as usual
    assert again.type == 4 and again.embeds


# -- item 6: a pooled PostgreSQL connection is checked before use -------------------------------


@pytest.mark.slow  # over a second on the project's machine
async def test_killed_postgres_backends_are_replaced_before_a_cast_uses_them(
    standin: DiscordStandIn, start_bot: StartBot, postgres_url: str
) -> None:
    import psycopg

    name = f"liuren_fault_{uuid.uuid4().hex[:10]}"
    url = f"{postgres_url}&application_name={name}"
    await start_bot(clock=clock, store_path=url)
    assert (await standin.slash("cast", CAST)).type == 4
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        killed = admin.execute(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = %s) AS k", (name,)
        ).fetchone()
    assert killed is not None and killed[0] >= 1
    for _ in range(3):
        callback = await standin.slash("cast", CAST, timeout=10)
        assert (await answer_of(standin, callback)).get("embeds"), callback.body  # a chart, not an error


# -- item 7: the daily post degrades and tells who set it ---------------------------------------


@pytest.fixture
def harness_db(store_location: str) -> str:
    return store_location


@pytest.fixture
def guilds() -> list[GuildSpec]:
    return [GuildSpec(channels=[ChannelSpec(name="general"), ChannelSpec(name="daily")])]


def deny_from_start(h: Harness, index: int, permission: int) -> None:
    """The bot's role is denied `permission` in channel `index` before it connects (its cache knows)."""
    h.guild.channels[index].overwrites = [{"id": str(h.guild.bot_role_id), "type": 0, "allow": "0",
                                           "deny": str(permission)}]


async def test_without_attach_files_the_daily_post_goes_out_as_text_and_says_so(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel(1)
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.deny_bot(channel, ATTACH_FILES)  # withdrawn after /daily set; the gateway did not say
    await h.tick(utc(2026, 5, 2, 0, 0))
    [post] = h.posts(channel)
    assert post["content"].startswith("📅") and post["embeds"]
    assert "image" not in post["embeds"][0]  # no picture, no broken attachment link
    uploads = [r for r in h.standin.requests_to("POST", f"/channels/{channel}/messages") if r.body.get("_files")]
    assert [r.status for r in uploads] == [403]  # the upload was refused once, then text went out
    [row] = await h.stored()
    assert row.disabled_reason is None and row.last_posted is not None
    shown = await h.slash("daily show", {})
    assert "Attach Files" in shown.data["content"]  # why there was no picture, where the admin looks
    await h.tick(utc(2026, 5, 3, 0, 0))  # the next day too: still posted
    assert len(h.posts(channel)) == 2


async def test_a_channel_known_without_attach_files_is_warned_at_set_and_posted_without_a_failed_upload(
    harness: Harness,
) -> None:
    h = harness
    channel = h.channel(1)
    deny_from_start(h, 1, ATTACH_FILES)
    await h.start()
    reply = await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"}, locale="en-US")
    assert "without the chart's picture" in reply.data["content"] and "Attach Files" in reply.data["content"]
    await h.tick(utc(2026, 5, 2, 0, 0))
    assert h.posts(channel) and h.posts(channel)[0]["content"].startswith("📅")
    sent = h.standin.requests_to("POST", f"/channels/{channel}/messages")
    assert [r.status for r in sent] == [200] * len(h.posts(channel))  # nothing refused on the way
    assert not [r for r in sent if r.body.get("_files")]


async def test_a_transient_error_is_retried_within_the_next_minute(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel(1)
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(channel, 503, times=3)  # every attempt of this claim fails
    await h.tick(utc(2026, 5, 2, 0, 0))
    assert h.posts(channel) == []
    [row] = await h.stored()
    assert row.disabled_reason is None and row.due_at is not None
    assert row.due_at - int(utc(2026, 5, 2, 0, 0).timestamp()) <= 60  # due again within the minute
    await h.tick(utc(2026, 5, 2, 0, 1))
    assert len(h.posts(channel)) == 1


async def test_a_forbidden_channel_stops_the_post_and_tells_who_set_it_where_they_set_it(harness: Harness) -> None:
    h = harness
    await h.start()
    general, daily = h.channel(0), h.channel(1)
    setter = h.standin.user_id
    await h.slash("daily set", {"channel": daily, "time": "09:00", "tz": "Asia/Tokyo"}, channel_id=general)
    h.standin.fail_channel(daily, 403)
    await h.tick(utc(2026, 5, 2, 0, 0))
    [row] = await h.stored()
    assert row.disabled_reason is not None and "403" in row.disabled_reason
    [told] = h.posts(general)
    assert f"<@{setter}>" in told["content"] and f"<#{daily}>" in told["content"] and "403" in told["content"]
    [request] = [r for r in h.standin.requests_to("POST", f"/channels/{general}/messages")]
    mentions = request.body["allowed_mentions"]
    assert mentions["parse"] == [] and [int(u) for u in mentions["users"]] == [setter]  # the setter only
    shown = await h.slash("daily show", {})
    assert "⛔" in shown.data["content"] and "403" in shown.data["content"]


async def test_a_setter_who_set_it_from_the_refused_channel_is_told_by_dm(harness: Harness) -> None:
    h = harness
    await h.start()
    daily = h.channel(1)
    await h.slash("daily set", {"channel": daily, "time": "09:00", "tz": "Asia/Tokyo"}, channel_id=daily)
    h.standin.fail_channel(daily, 404)
    await h.tick(utc(2026, 5, 2, 0, 0))
    dm = h.standin.dm_channel_of(h.standin.user_id)
    assert dm is not None
    [told] = h.standin.messages[dm]
    assert f"<#{daily}>" in told["content"] and "404" in told["content"]


async def test_a_process_leaving_shards_unheld_says_so_at_start(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    harness.standin.max_concurrency = 2  # both shards identify at once (bot/core/identify.py)
    with caplog.at_level(logging.WARNING, logger="bot.daily"):
        await harness.start(shard_count=4, shard_ids=[0, 1])
        await harness.settle()
    said = [r.getMessage() for r in caplog.records if r.name == "bot.daily"]
    assert any("shards 0,1 of 4" in m and "2,3" in m for m in said), said
    assert any("no process has run shards 2,3" in m for m in said), said


# -- item 11: per-user cooldowns --------------------------------------------------------------


async def test_casting_faster_than_a_person_is_answered_with_the_wait_and_only_for_that_user(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    rate = RATES["cast"]
    for _ in range(rate.uses):
        assert (await standin.slash("cast", CAST)).type == 4
    refused = await standin.slash("cast", CAST)
    assert refused.type == 4 and refused.ephemeral and not refused.embeds
    content = refused.data["content"]
    seconds = int("".join(c for c in content if c.isdigit()))
    assert 1 <= seconds <= rate.per and content == text("error.cooldown", "ja", seconds=seconds)
    assert (await standin.slash("chart", {"day": "甲子", "yuejiang": "子", "hour": "子"})).ephemeral  # same kind
    other = await standin.slash("cast", CAST, user_id=snowflake())
    assert other.type == 4 and other.embeds and not other.ephemeral
    assert (await standin.slash("help", {})).embeds  # a command without a cooldown is not held


async def test_pressing_buttons_faster_than_a_person_is_answered_with_the_wait(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    cast = await standin.slash("cast", CAST)
    footer = cast.embeds[0]["footer"]["text"]
    why = next(c["custom_id"] for row in cast.data["components"] for c in row["components"]
               if c["custom_id"].startswith("lr:c:why:"))
    message = {"id": str(snowflake()), "channel_id": str(standin.guilds[0].channels[0].id), "type": 20,
               "content": "", "embeds": cast.embeds, "components": cast.data["components"],
               "author": {"id": str(standin.bot_user_id), "username": "liuren", "discriminator": "0000",
                          "global_name": None, "avatar": None, "bot": True},
               "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
               "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "pinned": False,
               "flags": 0}
    assert footer
    answers = [await standin.press(message, why) for _ in range(RATES["button"].uses + 1)]
    assert all(a.embeds for a in answers[:-1])
    last = answers[-1]
    assert last.ephemeral and not last.embeds and "秒" in last.data["content"]


async def test_quiz_answers_faster_than_a_person_are_answered_with_the_wait(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    channel = standin.guilds[0].channels[0].id
    started = await standin.slash("quiz start", {"level": "easy", "questions": 1, "seconds": 300})
    assert started.type == 4
    await standin_until(lambda: standin.messages.get(channel))
    question = standin.messages[channel][0]
    choice = standin.buttons(question)[0]["custom_id"]
    presses = [await standin.press(question, choice) for _ in range(RATES["button"].uses + 1)]
    assert presses[0].data["content"].startswith(text("quiz.recorded", "ja", choice="").split(":")[0][:4])
    assert all("秒" not in p.data["content"] for p in presses[:-1])
    assert presses[-1].ephemeral and presses[-1].data["content"].startswith(text("error.cooldown", "ja", seconds=1)[:6])


# -- item 12: past the deadline, a raw long term, contexts --------------------------------------


@pytest.mark.slow  # over a second on the project's machine
async def test_an_answer_past_discords_deadline_is_logged_once_and_not_retried(
    standin: DiscordStandIn, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    await start_bot(clock=clock)
    standin.callback_deadline = 0.0  # every answer arrives too late
    callback = await standin.slash("cast", CAST)
    await asyncio.sleep(2.5)  # past the watchdog's defer: anything else the bot would try has had its time
    tries = [r for r in standin.requests if f"/{callback.interaction_id}/" in r.path or callback.token in r.path]
    assert [(r.method, r.status) for r in tries] == [("POST", 404)]
    late = [r for r in caplog.records if "too late" in r.getMessage()]
    assert len(late) == 1 and not late[0].exc_info
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_raw_six_thousand_character_lookup_is_a_clear_answer(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    answer = await standin.slash("lookup", {"term": "騰" * 6000}, locale="en-US")
    assert answer.type == 4 and answer.ephemeral
    assert answer.data["content"] == text("lookup.too_long", "en", length=6000, max=50)
    assert not standin.errors


def _spec_const(schema: str, title: str) -> int:
    assert SPEC is not None
    return next(int(o["const"]) for o in SPEC["components"]["schemas"][schema]["oneOf"] if o["title"] == title)


@pytest.mark.skipif(SPEC is None, reason="Discord's OpenAPI spec is not in /work/shared")
async def test_server_commands_declare_the_guild_context_and_guild_install(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    commands = {c["name"]: c for c in standin.global_commands}
    guild, guild_install = _spec_const("InteractionContextType", "GUILD"), \
        _spec_const("ApplicationIntegrationType", "GUILD_INSTALL")
    for name in ("daily", "settings", "quiz"):
        assert commands[name]["contexts"] == [guild], name
        assert commands[name]["integration_types"] == [guild_install], name


# -- item 13: Read Message History; one process syncs ---------------------------------------------


async def test_daily_set_asks_for_read_message_history_which_the_standin_models(harness: Harness) -> None:
    h = harness
    channel = h.channel(1)
    deny_from_start(h, 1, READ_MESSAGE_HISTORY)
    await h.start()
    refused = await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"}, locale="en-US")
    assert refused.ephemeral and "Read Message History" in refused.data["content"]
    assert await h.stored() == ()
    # The stand-in answers as Discord does: without the permission, no messages are returned.
    h.standin.messages[channel] = [h.standin._message(channel, {"content": "kept"})]
    headers = {"Authorization": f"Bot {h.standin.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{h.standin.api_base}/channels/{channel}/messages", headers=headers) as answer:
            assert answer.status == 200 and await answer.json() == []
        other = h.channel(0)
        h.standin.messages[other] = [h.standin._message(other, {"content": "seen"})]
        async with session.get(f"{h.standin.api_base}/channels/{other}/messages", headers=headers) as answer:
            assert [m["content"] for m in await answer.json()] == ["seen"]
    assert BOT_PERMISSIONS & READ_MESSAGE_HISTORY


async def test_only_the_process_with_shard_0_syncs_the_commands(
    standin: DiscordStandIn, start_bot: StartBot, tmp_path: Path
) -> None:
    second = await start_bot(store_path=tmp_path / "b.sqlite3", shard_count=2, shard_ids=[1])
    first = await start_bot(store_path=tmp_path / "a.sqlite3", shard_count=2, shard_ids=[0])
    puts = [r for r in standin.requests_to("PUT", f"/applications/{standin.application_id}/commands")]
    assert len(puts) == 1
    assert (first.synced, second.synced) == (True, False)
