"""End to end: the real discord.py client, pointed at the local Discord stand-in, runs /daily and posts.

The bot's clock is a test-controlled value; after moving it, a test either calls the service's
``run_due()`` (deterministic: it returns when the posts it started are done) or calls
``bot.delivery.changed()`` and waits for the loop's request.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.store import epoch, open_store
from engine import calendar
from testkit.daily_harness import (
    ATTEMPTS,
    BACKOFF,
    MANAGE_GUILD,
    MANAGER,
    Clock,
    Harness,
    content,
    put,
    utc,
    wait_for_post,
)
from testkit.discord_standin import (
    BOT_PERMISSIONS,
    MEMBER_PERMISSIONS,
    VIEW_CHANNEL,
    ChannelSpec,
    DiscordStandIn,
    GuildSpec,
)


@pytest.fixture
def guilds() -> list[GuildSpec]:
    hidden = ChannelSpec(name="hidden")
    guild = GuildSpec(channels=[ChannelSpec(name="daily"), ChannelSpec(name="second"), hidden])
    # The bot's role may not view the hidden channel.
    hidden.overwrites = [{"id": str(guild.bot_role_id), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)}]
    return [guild]


# --- the main path ---------------------------------------------------------------------


async def test_set_then_one_post_at_the_time_and_none_after_restart(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    reply = await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    assert reply.type == 4 and reply.ephemeral
    assert f"<#{channel}>" in content(reply) and "09:00" in content(reply) and "Asia/Tokyo" in content(reply)
    (row,) = h.rows()
    assert (row["guild_id"], row["channel_id"], row["post_time"], row["timezone"]) == (
        h.guild.id,
        channel,
        "09:00",
        "Asia/Tokyo",
    )
    assert row["last_posted"] is None

    await h.tick(utc(2026, 5, 1, 23, 59, 59))  # 08:59:59 JST
    assert h.posts(channel) == []

    # The loop itself picks the post up once the clock reaches 09:00 JST.
    await h.at(utc(2026, 5, 2, 0, 0))
    assert h.bot is not None
    h.cog.changed()
    await wait_for_post(h, channel)
    (post,) = h.posts(channel)
    assert "2026-05-02 09:00" in post["content"] and "Asia/Tokyo" in post["content"]
    assert post["embeds"] and post["embeds"][0]["title"]
    fields = post["embeds"][0].get("fields", [])
    assert any("四課" in f["name"] and f["value"] for f in fields)  # the chart itself, in Japanese
    # The chart's picture rides with the post, shown as the first embed's image, described for screen readers.
    [sent] = [r.body for r in h.standin.requests_to("POST", f"/channels/{channel}/messages") if r.status == 200]
    [upload] = sent["_files"]
    assert upload["data"][:8] == b"\x89PNG\r\n\x1a\n"
    assert sent["embeds"][0]["image"]["url"] == f"attachment://{upload['filename']}"
    assert sent["attachments"][0]["description"]

    for minutes in (0, 1, 60, 600):  # the rest of the local day: nothing more
        await h.tick(utc(2026, 5, 2, 0, 0) + timedelta(minutes=minutes))
    assert len(h.posts(channel)) == 1
    assert h.rows()[0]["last_posted"] == "2026-05-02"

    # Restart on the same database, same day: no second post.
    await h.stop()
    await h.start()
    await h.tick(utc(2026, 5, 2, 0, 5))  # after the loop's own first tick (tick settles first)
    assert len(h.posts(channel)) == 1
    assert h.attempts(channel) == 1

    # The next local day posts again, once.
    await h.tick(utc(2026, 5, 3, 0, 0))
    await h.tick(utc(2026, 5, 3, 0, 1))
    assert len(h.posts(channel)) == 2
    assert "2026-05-03 09:00" in h.posts(channel)[1]["content"]


async def test_missed_post_is_sent_on_start_if_still_the_same_local_day(harness: Harness) -> None:
    h = harness
    morning, night = h.channel(0), h.channel(1)
    store = await open_store(h.db)
    try:
        set_at = utc(2026, 4, 30, 0, 0)
        await put(store, h.guild.id, morning, "09:00", "Asia/Tokyo", "ja", set_at)
        await put(store, h.guild.id, night, "23:30", "Asia/Tokyo", "en-US", set_at)
    finally:
        await store.close()
    with sqlite3.connect(h.db) as conn:  # 1 May was posted before the bot went down
        conn.execute("UPDATE schedules SET last_posted = '2026-05-01', due_at = NULL")
    # Down over 1 May 23:30 JST and 2 May 09:00 JST; back at 15:00 JST on 2 May.
    h.clock.now = utc(2026, 5, 2, 6, 0)
    await h.start()
    await wait_for_post(h, morning)  # nobody calls run_due: the loop's first tick catches up
    await h.settle()
    (post,) = h.posts(morning)
    assert "2026-05-02 09:00" in post["content"]  # the chart of the scheduled moment
    assert h.posts(night) == []  # 1 May's 23:30 belonged to a day that is over
    rows = h.rows()
    assert [r["last_posted"] for r in rows] == ["2026-05-02", "2026-05-01"]
    # 2 May's own 23:30 still comes, in English (the locale of who set it).
    await h.tick(utc(2026, 5, 2, 14, 30))
    evening, *more = h.posts(night)  # in English the post may go on in a second message
    assert evening["content"].startswith("📅 Daily chart 2026-05-02 23:30") and not any(m["content"] for m in more)


async def test_schedule_set_after_its_time_waits_for_tomorrow(harness: Harness) -> None:
    h = harness
    await h.start()
    await h.at(utc(2026, 5, 2, 1, 0))  # 10:00 JST
    channel = h.channel()
    reply = await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    assert "2026-05-03 09:00" in content(reply)
    await h.tick(utc(2026, 5, 2, 1, 1))
    assert h.posts(channel) == []
    await h.tick(utc(2026, 5, 3, 0, 0))
    assert len(h.posts(channel)) == 1


# --- failures --------------------------------------------------------------------------


async def test_deleted_channel_disables_the_schedule_with_the_reason(harness: Harness) -> None:
    h = harness
    await h.start()
    gone, fine = h.channel(0), h.channel(1)
    for channel in (gone, fine):
        await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(gone, 404)  # as Discord answers for a deleted channel
    await h.tick(utc(2026, 5, 2, 0, 0))
    assert h.attempts(gone) == 1  # not retried: a 404 will not heal
    assert h.posts(gone) == []
    assert len(h.posts(fine)) == 1  # the other channel is unaffected
    rows = {r["channel_id"]: r for r in h.rows()}
    assert "404" in rows[gone]["disabled_reason"] and "Unknown Channel" in rows[gone]["disabled_reason"]
    assert rows[gone]["last_posted"] is None  # the claim was given back: nothing was posted
    assert rows[fine]["disabled_reason"] is None

    for day in (3, 4):  # disabled: no more attempts, day after day
        await h.tick(utc(2026, 5, day, 0, 0))
    assert h.attempts(gone) == 1
    assert len(h.posts(fine)) == 3

    shown = await h.slash("daily show")
    assert shown.ephemeral
    text = content(shown)
    assert f"<#{gone}>" in text and "404" in text and "Unknown Channel" in text and "停止中" in text
    shown_en = await h.slash("daily show", locale="en-US")
    assert "stopped" in content(shown_en) and "Unknown Channel" in content(shown_en)

    # Setting it again (after fixing the channel) re-enables it.
    h.standin.failures.clear()
    await h.at(utc(2026, 5, 4, 1, 0))  # 10:00 JST: today's 09:00 is not owed
    await h.slash("daily set", {"channel": gone, "time": "09:00", "tz": "Asia/Tokyo"})
    assert {r["channel_id"]: r for r in h.rows()}[gone]["disabled_reason"] is None
    await h.tick(utc(2026, 5, 4, 1, 1))
    assert h.posts(gone) == []
    await h.tick(utc(2026, 5, 5, 0, 0))
    assert len(h.posts(gone)) == 1


async def test_missing_permission_disables_the_schedule(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(channel, 403)
    await h.tick(utc(2026, 5, 2, 0, 0))
    await h.tick(utc(2026, 5, 2, 0, 1))
    # A 403 on the upload may be a withdrawn Attach Files, so the post is tried once more
    # as text only (tests/test_faults.py); refused again, the schedule stops. No third try.
    assert h.attempts(channel) == 2
    reason = h.rows()[0]["disabled_reason"]
    assert "403" in reason and "Missing Permissions" in reason


async def test_transient_error_is_retried_with_backoff(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(channel, 503, times=1)  # 503: discord.py raises at once, we retry
    await h.tick(utc(2026, 5, 2, 0, 0))
    assert h.attempts(channel) == 2
    assert len(h.posts(channel)) == 1
    assert h.sleeps == [BACKOFF[0]]
    assert h.rows()[0]["last_posted"] == "2026-05-02"
    assert h.rows()[0]["disabled_reason"] is None


async def test_persistent_transient_error_releases_the_claim_for_the_next_tick(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(channel, 503)
    await h.tick(utc(2026, 5, 2, 0, 0))
    assert h.attempts(channel) == ATTEMPTS  # bounded
    assert h.sleeps == list(BACKOFF[: ATTEMPTS - 1])
    row = h.rows()[0]
    assert row["last_posted"] is None  # released: still owed today
    assert row["disabled_reason"] is None  # transient: not disabled
    assert "503" in row["last_error"]
    shown = await h.slash("daily show")
    assert "503" in content(shown)

    await h.tick(utc(2026, 5, 2, 0, 0, 30))  # next tick tries again
    assert h.attempts(channel) == 2 * ATTEMPTS
    h.standin.failures.clear()  # Discord recovers
    await h.tick(utc(2026, 5, 2, 0, 1))
    assert len(h.posts(channel)) == 1
    row = h.rows()[0]
    assert (row["last_posted"], row["last_error"]) == ("2026-05-02", None)


async def test_rate_limit_429_counts_as_transient(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(channel, 429, retry_after=0.01)
    await h.tick(utc(2026, 5, 2, 0, 0))
    row = h.rows()[0]
    assert row["last_posted"] is None and row["disabled_reason"] is None
    assert "429" in row["last_error"]
    assert h.posts(channel) == []


async def test_connection_error_counts_as_transient(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    await h.settle()
    real = discord.http.Route.BASE
    discord.http.Route.BASE = "http://127.0.0.1:9/api/v10"  # nothing listens on the discard port
    try:
        await h.tick(utc(2026, 5, 2, 0, 0))
    finally:
        discord.http.Route.BASE = real
    row = h.rows()[0]
    assert row["last_posted"] is None and row["disabled_reason"] is None
    assert "Connect" in row["last_error"] and f"after {ATTEMPTS} attempts" in row["last_error"]
    await h.tick(utc(2026, 5, 2, 0, 0, 30))
    assert len(h.posts(channel)) == 1


async def test_chart_failure_is_recorded_and_retried(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})

    def broken(*args: object) -> None:
        raise ValueError("engine exploded")

    with monkeypatch.context() as patch:
        # The running service's own module: discord.py loads an extension afresh on each start.
        patch.setattr(sys.modules[type(h.cog).__module__], "compose", broken)
        await h.tick(utc(2026, 5, 2, 0, 0))
    row = h.rows()[0]
    assert h.attempts(channel) == 0
    assert (row["last_posted"], row["disabled_reason"]) == (None, None)
    assert "engine exploded" in row["last_error"]
    await h.tick(utc(2026, 5, 2, 0, 0, 30))
    assert len(h.posts(channel)) == 1


async def test_rejected_request_is_not_retried_the_same_day(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(channel, 400, times=1)  # Discord refuses this request as malformed
    await h.tick(utc(2026, 5, 2, 0, 0))
    await h.tick(utc(2026, 5, 2, 0, 1))
    assert h.attempts(channel) == 1  # the same request would be refused again: no loop of retries
    row = h.rows()[0]
    assert row["last_posted"] == "2026-05-02" and row["disabled_reason"] is None
    assert "400" in row["last_error"]
    await h.tick(utc(2026, 5, 3, 0, 0))  # tomorrow is tried afresh
    assert len(h.posts(channel)) == 1
    assert h.rows()[0]["last_error"] is None


async def test_two_processes_on_one_database_post_once(standin: DiscordStandIn, tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    clock = Clock(utc(2026, 5, 1, 23, 0))
    first, second = Harness(standin, db, clock), Harness(standin, db, clock)
    await first.start()
    await second.start()
    try:
        channel = first.channel()
        await first.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
        await first.settle()
        await second.settle()
        clock.now = utc(2026, 5, 2, 0, 0)
        await asyncio.gather(first.cog.run_due(), second.cog.run_due(), first.cog.run_due(), second.cog.run_due())
        assert len(first.posts(channel)) == 1
        assert first.attempts(channel) == 1
    finally:
        await first.stop()
        await second.stop()


# --- daylight saving -------------------------------------------------------------------


async def test_new_york_spring_forward_and_fall_back(harness: Harness) -> None:
    h = harness
    h.clock.now = utc(2026, 3, 7, 12, 0)
    await h.start()
    spring, autumn = h.channel(0), h.channel(1)
    await h.slash("daily set", {"channel": spring, "time": "02:30", "tz": "America/New_York"})
    # 02:30 does not exist on 8 March 2026: the first instant after the gap is 03:00 EDT = 07:00 UTC.
    for minute in range(0, 24 * 60, 15):
        await h.tick(utc(2026, 3, 8, 0, 0) + timedelta(minutes=minute))
        expected = 1 if utc(2026, 3, 8, 0, 0) + timedelta(minutes=minute) >= utc(2026, 3, 8, 7, 0) else 0
        assert len(h.posts(spring)) == expected
    assert "2026-03-08 03:00" in h.posts(spring)[0]["content"]
    await h.tick(utc(2026, 3, 9, 6, 30))  # 02:30 EDT the next day
    assert len(h.posts(spring)) == 2 and "2026-03-09 02:30" in h.posts(spring)[1]["content"]

    await h.at(utc(2026, 10, 31, 12, 0))
    await h.slash("daily set", {"channel": autumn, "time": "01:30", "tz": "America/New_York"})
    # 01:30 happens twice on 1 Nov 2026 (05:30 UTC EDT, 06:30 UTC EST): one post only.
    for minute in range(0, 24 * 60, 15):
        await h.tick(utc(2026, 11, 1, 0, 0) + timedelta(minutes=minute))
    (post,) = h.posts(autumn)
    assert "2026-11-01 01:30" in post["content"]
    assert h.standin.requests_to("POST", f"/channels/{autumn}/messages")[0].status == 200


# --- commands: show, off, now, settings ------------------------------------------------


async def test_show_off_now_and_server_zone(harness: Harness) -> None:
    h = harness
    await h.start()
    first, second = h.channel(0), h.channel(1)
    empty = await h.slash("daily show")
    assert empty.ephemeral and "設定されていません" in content(empty)

    zone = await h.slash("settings timezone", {"zone": "europe/paris"}, locale="en-GB")
    assert zone.ephemeral and "Europe/Paris" in content(zone) and "default time zone" in content(zone)
    assert h.guild_zone(h.guild.id) == "Europe/Paris"
    assert h.bot is not None
    assert (await h.bot.store.guild_options(h.guild.id)).timezone == calendar.zone("Europe/Paris")

    await h.slash("daily set", {"channel": first, "time": "07:15"})  # no tz: the server's zone
    await h.slash("daily set", {"channel": second, "time": "21:00", "tz": "Asia/Tokyo"})
    rows = {r["channel_id"]: r for r in h.rows()}
    assert rows[first]["timezone"] == "Europe/Paris" and rows[second]["timezone"] == "Asia/Tokyo"

    shown = content(await h.slash("daily show"))
    assert "Europe/Paris" in shown and f"<#{first}>" in shown and "07:15" in shown
    assert f"<#{second}>" in shown and "21:00" in shown

    now = await h.slash("daily now")
    assert now.type == 5  # deferred: casting and posting may take a moment
    (followup,) = await h.standin.followups(now)
    assert f"<#{first}>" in followup.body["content"] and f"<#{second}>" in followup.body["content"]
    assert followup.body["flags"] & 64
    assert len(h.posts(first)) == 1 and len(h.posts(second)) == 1
    assert [r["last_posted"] for r in h.rows()] == [None, None]  # a test post is not the daily post

    off_one = await h.slash("daily off", {"channel": second})
    assert off_one.ephemeral and "1" in content(off_one)
    assert [r["channel_id"] for r in h.rows()] == [first]
    off_all = await h.slash("daily off")
    assert "1" in content(off_all)
    assert h.rows() == []
    assert "ありません" in content(await h.slash("daily off"))


async def test_daily_now_reports_a_forbidden_channel(harness: Harness) -> None:
    h = harness
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    h.standin.fail_channel(channel, 403)
    now = await h.slash("daily now", locale="en-US")
    (followup,) = await h.standin.followups(now)
    assert "403" in followup.body["content"] and "stopped" in followup.body["content"]
    assert "403" in h.rows()[0]["disabled_reason"]
    h.standin.failures.clear()  # permission fixed: a successful test post restarts it
    again = await h.slash("daily now", locale="en-US")
    (followup,) = await h.standin.followups(again)
    assert "running again" in followup.body["content"]
    assert h.rows()[0]["disabled_reason"] is None


# --- bad input changes nothing ---------------------------------------------------------


def snapshot(h: Harness) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in h.rows()]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"time": "25:00", "tz": "Asia/Tokyo"}, ["25:00", "HH:MM"]),
        ({"time": "9am", "tz": "Asia/Tokyo"}, ["9am"]),
        ({"time": "09:00", "tz": "Mars/Olympus"}, ["Mars/Olympus", "IANA"]),
        ({"time": "09:00"}, ["/settings timezone"]),  # no tz and no server default
    ],
)
async def test_bad_input_gets_an_ephemeral_error_and_changes_nothing(
    harness: Harness, options: dict[str, str], words: list[str]
) -> None:
    h = harness
    await h.start()
    await h.slash("daily set", {"channel": h.channel(1), "time": "21:00", "tz": "Asia/Tokyo"})
    before = snapshot(h)
    reply = await h.slash("daily set", {"channel": h.channel(0), **options})
    assert reply.type == 4 and reply.ephemeral and reply.data["flags"] & 64
    for word in words:
        assert word in content(reply)
    assert snapshot(h) == before


async def test_channel_the_bot_cannot_see_is_refused(harness: Harness) -> None:
    h = harness
    await h.start()
    hidden = h.channel(2)
    reply = await h.slash("daily set", {"channel": hidden, "time": "09:00", "tz": "Asia/Tokyo"})
    assert reply.ephemeral and reply.data["flags"] & 64
    # Permissions named as the reader's Discord client names them, never as raw flags.
    assert f"<#{hidden}>" in content(reply) and "チャンネルを見る" in content(reply)
    assert "view_channel" not in content(reply) and "view channel" not in content(reply)
    unknown = await h.slash("daily set", {"channel": 4242, "time": "09:00", "tz": "Asia/Tokyo"}, locale="en-US")
    assert unknown.ephemeral and "cannot be found" in content(unknown)
    assert h.rows() == []


async def test_members_without_manage_server_are_refused(harness: Harness) -> None:
    h = harness
    await h.start()
    reply = await h.slash(
        "daily set",
        {"channel": h.channel(), "time": "09:00", "tz": "Asia/Tokyo"},
        member_permissions=MEMBER_PERMISSIONS,
    )
    assert reply.ephemeral
    assert h.rows() == []
    zone = await h.slash("settings timezone", {"zone": "Asia/Tokyo"}, member_permissions=MEMBER_PERMISSIONS)
    assert zone.ephemeral
    assert h.guild_zone(h.guild.id) is None
    bad_zone = await h.slash("settings timezone", {"zone": "Nowhere/Land"})
    assert bad_zone.ephemeral and "Nowhere/Land" in content(bad_zone)
    assert h.guild_zone(h.guild.id) is None


async def test_commands_are_registered_server_only_for_managers(harness: Harness) -> None:
    h = harness
    await h.start()
    commands = {c["name"]: c for c in h.standin.global_commands}
    for name in ("daily", "settings"):
        assert int(commands[name]["default_member_permissions"]) == MANAGE_GUILD
        assert commands[name].get("contexts") == [0] or commands[name].get("dm_permission") is False
    subcommands = {o["name"]: o for o in commands["daily"]["options"]}
    assert set(subcommands) == {"set", "show", "off", "now"}
    channel_option = next(o for o in subcommands["set"]["options"] if o["name"] == "channel")
    assert channel_option["type"] == 7 and set(channel_option["channel_types"]) == {0, 5}
    choices = await h.standin.autocomplete(
        "daily set", {"channel": str(h.channel()), "time": "09:00", "tz": "tokyo"}, "tz", member_permissions=MANAGER
    )
    assert {"name": "Asia/Tokyo", "value": "Asia/Tokyo"} in choices


# --- a bad row in the database ---------------------------------------------------------


async def test_bad_row_is_reported_by_show_and_skipped_by_the_loop(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    await h.start()
    good = h.channel(1)
    await h.slash("daily set", {"channel": good, "time": "09:00", "tz": "Asia/Tokyo"})
    conn = sqlite3.connect(h.db)
    conn.execute(  # as a broken writer might have left it: due, with a zone that does not exist
        "INSERT INTO schedules (guild_id, channel_id, post_time, timezone, due_at) "
        "VALUES (?, ?, '09:00', 'Mars/Olympus', ?)",
        (h.guild.id, h.channel(0), epoch(utc(2026, 5, 2, 0, 0))),
    )
    conn.commit()
    conn.close()
    with caplog.at_level("ERROR", logger="bot.daily.delivery"):
        await h.tick(utc(2026, 5, 2, 0, 0))
    assert len(h.posts(good)) == 1  # one bad row does not stop the others
    assert h.posts(h.channel(0)) == []
    assert any("id=2" in r.getMessage() and "Mars/Olympus" in r.getMessage() for r in caplog.records)
    shown = content(await h.slash("daily show"))
    assert "#2" in shown and "Mars/Olympus" in shown
    assert len(h.rows()) == 2  # reported, never dropped


# --- sharding --------------------------------------------------------------------------


async def test_each_process_posts_only_for_its_shards(tmp_path: Path) -> None:
    guilds = [GuildSpec(id=(1000 << 22) + 1), GuildSpec(id=(1001 << 22) + 1)]  # shards 0 and 1 of 2
    async with DiscordStandIn(guilds=guilds) as server:
        db = tmp_path / "shared.sqlite3"
        store = await open_store(db)
        for guild in guilds:
            await put(store, guild.id, guild.channels[0].id, "09:00", "Asia/Tokyo", "ja", utc(2026, 5, 1))
        await store.close()
        h = Harness(server, db, Clock(utc(2026, 5, 1, 23, 0)))
        await h.start(shard_ids=[1], shard_count=2)
        try:
            await h.tick(utc(2026, 5, 2, 0, 0))
            assert h.posts(guilds[0].channels[0].id) == []
            assert len(h.posts(guilds[1].channels[0].id)) == 1
        finally:
            await h.stop()


def test_bot_permission_fixture_is_what_daily_needs() -> None:
    # Guards the e2e tests' premise: the stand-in's default bot role can post embeds.
    perms = discord.Permissions(BOT_PERMISSIONS)
    assert perms.view_channel and perms.send_messages and perms.embed_links


# --- with the whole bot ----------------------------------------------------------------


async def test_cast_uses_the_server_zone_set_by_settings(harness: Harness) -> None:
    h = harness
    await h.start(extensions=("bot.study", "bot.daily", "bot.settings"))
    await h.slash("settings timezone", {"zone": "America/New_York"})
    cast_reply = await h.slash("cast", {"when": "now"}, member_permissions=MEMBER_PERMISSIONS)
    shown = str(cast_reply.body)
    assert "America/New_York" in shown
    assert "Asia/Tokyo" not in shown
