"""The delivery guarantee under faults, on both store backends: every scheduled local day is posted
exactly once through crashes, lost and slow answers, shutdowns, rate limits and clock jumps.

The bot's clock is test-controlled (leases and due times follow it); Discord is the local
stand-in, which implements ``enforce_nonce`` as Discord documents it.
"""

from __future__ import annotations

import asyncio
import time
from datetime import date, timedelta
from typing import Any

import pytest

from bot.store import epoch, open_store
from testkit.daily_harness import Harness, put, restore_before, utc
from testkit.discord_standin import ChannelSpec, GuildSpec

NINE = utc(2026, 5, 2, 0, 0)  # 09:00 JST, when every schedule here is due
LEASE = timedelta(minutes=10)


@pytest.fixture
def guilds() -> list[GuildSpec]:
    return [GuildSpec(channels=[ChannelSpec(name=f"c{n}") for n in range(6)])]


@pytest.fixture
def harness_db(store_location: str) -> str:
    """Every fault once per backend."""
    return store_location


@pytest.fixture
def harness_config() -> dict[str, Any]:
    return {"lease": LEASE}


async def schedule(h: Harness, *channels: int) -> dict[int, int]:
    """Daily 09:00 Asia/Tokyo schedules for `channels` (set the day before); channel → schedule id."""
    store = await open_store(h.db)
    try:
        return {c: await put(store, h.guild.id, c, "09:00", "Asia/Tokyo", "ja", utc(2026, 5, 1)) for c in channels}
    finally:
        await store.close()


async def row_of(h: Harness, channel: int) -> Any:
    return next(r for r in await h.stored() if r.channel_id == channel)


async def test_crash_after_claim_before_send_is_posted_once_after_the_lease_expires(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    (sid,) = (await schedule(h, channel)).values()
    # Another process claimed the post at 09:00 and died before sending anything.
    dead = await open_store(h.db)
    try:
        (claimed,) = await dead.claim_due(NINE, NINE + LEASE, "dead-process", None, 10)
        assert claimed.row.id == sid
    finally:
        await dead.close()
    await h.start()
    await h.tick(NINE + timedelta(minutes=1))
    await h.tick(NINE + LEASE - timedelta(seconds=1))
    assert h.posts(channel) == []  # the lease still holds: nobody doubles a post in flight
    await h.tick(NINE + LEASE)
    (post,) = h.posts(channel)
    assert "2026-05-02 09:00" in post["content"]  # the chart of the scheduled moment, not of the takeover
    for minutes in (11, 30, 600):
        await h.tick(NINE + timedelta(minutes=minutes))
    assert len(h.posts(channel)) == 1
    row = await row_of(h, channel)
    assert (row.last_posted, row.message_id) == ("2026-05-02", int(post["id"]))
    # The takeover searched the channel first (the dead process might have sent).
    assert h.standin.requests_to("GET", f"/channels/{channel}/messages")


async def test_answer_lost_after_discord_stored_the_message_gives_one_message(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    await h.start()
    h.standin.lose_answer(channel, times=1)  # stored, then the connection drops before the answer
    await h.tick(NINE)
    (post,) = h.posts(channel)  # the retry carried the same nonce: Discord answered with the stored one
    assert h.attempts(channel) == 2
    sent = [r.body for r in h.standin.requests_to("POST", f"/channels/{channel}/messages")]
    assert sent[0]["nonce"] == sent[1]["nonce"] and sent[0]["enforce_nonce"] is True
    row = await row_of(h, channel)
    assert (row.last_posted, row.message_id) == ("2026-05-02", int(post["id"]))


async def test_every_answer_lost_then_a_later_tick_finds_the_post_in_the_channel(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    await h.start()
    h.standin.lose_answer(channel, times=3)
    await h.tick(NINE)
    assert h.attempts(channel) == 3 and len(h.posts(channel)) == 1  # one stored; two repeats answered by nonce
    h.standin.nonce_window = 0.0  # by the next try Discord has forgotten the nonce: only a search helps
    row = await row_of(h, channel)
    assert row.last_posted is None and row.unsure  # released, marked "may have been sent"
    await h.tick(NINE + timedelta(minutes=1))
    assert len(h.posts(channel)) == 1  # found in the channel and recorded: nothing new sent
    assert h.attempts(channel) == 3
    row = await row_of(h, channel)
    assert row.last_posted == "2026-05-02" and not row.unsure
    assert row.message_id == int(h.posts(channel)[-1]["id"])


@pytest.mark.slow  # over a second on the project's machine
async def test_slow_answer_and_shutdown_gives_one_message(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    await h.start()
    await h.settle()
    h.standin.slow_answer(channel, 1.0)
    h.clock.now = NINE
    await h.cog.run_due(wait=False)
    await asyncio.wait_for(_until(lambda: h.posts(channel)), 5)  # stored; the answer is on its way
    await h.stop()  # what SIGTERM does: the send in flight is let finish (within the grace period)
    assert len(h.posts(channel)) == 1
    row = await row_of(h, channel)
    assert row.last_posted == "2026-05-02" and row.due_at == epoch(utc(2026, 5, 3, 0, 0))
    await h.start()
    await h.tick(NINE + LEASE + timedelta(minutes=1))
    assert len(h.posts(channel)) == 1


@pytest.mark.slow  # over a second on the project's machine
async def test_answer_slower_than_the_grace_period_keeps_the_lease_and_is_found_later(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    h.config = {"lease": LEASE, "stop_grace": 0.2}
    await h.start()
    await h.settle()
    h.standin.slow_answer(channel, 3.0)
    h.clock.now = NINE
    await h.cog.run_due(wait=False)
    await asyncio.wait_for(_until(lambda: h.posts(channel)), 5)  # stored; the answer is on its way
    await h.stop()  # the send is cut off: it may have been stored, so the lease is not given back
    row = await row_of(h, channel)
    assert row.last_posted is None and row.unsure and row.due_at == epoch(NINE + LEASE)
    await h.start()
    await h.tick(NINE + LEASE - timedelta(seconds=1))
    assert h.attempts(channel) == 0  # (the cut-off request was never answered, so never recorded)
    await h.tick(NINE + LEASE)
    assert len(h.posts(channel)) == 1 and h.attempts(channel) == 0  # found, not sent again
    assert h.standin.requests_to("GET", f"/channels/{channel}/messages")
    assert (await row_of(h, channel)).last_posted == "2026-05-02"


async def test_five_rate_limited_channels_do_not_delay_the_sixth(harness: Harness) -> None:
    h = harness
    channels = [h.channel(n) for n in range(6)]
    await schedule(h, *channels)
    h.config = {"lease": LEASE, "stop_grace": 0.2}  # at the end, do not wait out the 20 s rate limits
    await h.start()
    await h.settle()
    for channel in channels[:5]:
        h.standin.fail_channel(channel, 429, retry_after=20.0)
    h.clock.now = NINE
    started = time.perf_counter()
    await h.cog.run_due(wait=False)
    sixth = await h.standin.wait_request(
        lambda r: r.method == "POST" and r.path == f"/channels/{channels[5]}/messages" and r.status == 200
    )
    assert sixth.at - started < 1.0
    assert len(h.posts(channels[5])) == 1
    assert all(h.posts(c) == [] for c in channels[:5])


async def test_clock_jump_across_the_due_time_gives_one_post(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    await h.start()
    await h.tick(NINE - timedelta(minutes=1))
    assert h.posts(channel) == []
    await h.tick(NINE + timedelta(hours=2))  # the clock jumps past 09:00
    (post,) = h.posts(channel)
    assert "2026-05-02 09:00" in post["content"]
    await h.tick(NINE - timedelta(minutes=30))  # …back to before it
    await h.tick(NINE)  # …and across it again
    await h.tick(NINE + timedelta(hours=3))
    assert len(h.posts(channel)) == 1
    await h.tick(NINE + timedelta(days=1))
    assert len(h.posts(channel)) == 2


async def test_the_loop_sleeps_until_the_next_due_time(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    await h.start()
    await h.settle()
    upcoming = await h.cog.run_due()
    assert upcoming == NINE  # the next due time, read from the index
    h.clock.now = NINE
    h.cog.changed()
    await asyncio.wait_for(_until(lambda: len(h.posts(channel)) == 1), 10)
    # The stand-in holds the post before the bot has its answer and moves the row on: wait for that.
    await asyncio.wait_for(_until_row(h, channel, lambda row: row.due_day != "2026-05-02"), 10)
    assert (await row_of(h, channel)).due_day == date(2026, 5, 3).isoformat()
    assert len(h.posts(channel)) == 1


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.02)


async def _until_row(h: Harness, channel: int, condition: Any) -> None:
    while not condition(await row_of(h, channel)):
        await asyncio.sleep(0.02)


async def test_a_database_restored_from_before_todays_post_does_not_post_it_again(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    await h.start()
    await h.tick(NINE)
    assert len(h.posts(channel)) == 1
    await h.stop()
    # The backup was taken before 09:00: it knows nothing of today's post.
    await restore_before(h, channel, NINE, date(2026, 5, 2))
    (row,) = await h.stored()
    assert row.last_posted is None and not row.unsure
    h.standin.nonce_window = 0.0  # hours later: Discord no longer remembers the nonce
    h.clock.now = NINE + timedelta(hours=3)
    await h.start()
    await h.tick(NINE + timedelta(hours=3, minutes=1))
    assert len(h.posts(channel)) == 1 and h.attempts(channel) == 1
    assert (await row_of(h, channel)).last_posted == "2026-05-02"


async def test_test_posts_carry_no_daily_nonce(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    await h.start()
    for _ in range(2):  # two /daily now in a row are two messages, never folded into one
        assert await h.cog.post_now(_plan(await row_of(h, channel)), NINE) == ("posted", "")
    assert len(h.posts(channel)) == 2
    bodies = [r.body for r in h.standin.requests_to("POST", f"/channels/{channel}/messages")]
    assert all("nonce" not in body for body in bodies)


def _plan(row: Any) -> Any:
    from bot.daily.schedule import plan_of

    return plan_of(row)


async def test_due_times_are_recomputed_when_the_zone_data_changes(harness: Harness) -> None:
    h = harness
    channel = h.channel()
    await schedule(h, channel)
    store = await open_store(h.db)
    try:  # as if computed with other zone rules: a due time an hour off, and older zone data
        (row,) = await store.schedules()
        await store.reschedule(row.id, epoch(NINE + timedelta(hours=1)), date(2026, 5, 2))
        await store.set_meta("zone-data", "tzdata 1999a")
    finally:
        await store.close()
    await h.start()
    await h.settle()
    row = await row_of(h, channel)
    assert row.due_at == epoch(NINE)  # recomputed with today's rules
    await h.tick(NINE)
    assert len(h.posts(channel)) == 1
