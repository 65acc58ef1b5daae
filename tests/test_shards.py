"""Two real bot processes on different shard ranges, one PostgreSQL, the local Discord stand-in with a
guild on each of four shards: every channel gets exactly one post; a process killed with SIGKILL in
the middle of a send and started again loses nothing and doubles nothing."""

from __future__ import annotations

import asyncio
import signal

import pytest

from bot.core.config import parse_shard_ids, shard_settings
from bot.core.identify import WINDOW
from bot.store import Shards, open_store
from testkit.discord_standin import ChannelSpec, DiscordStandIn, GuildSpec
from testkit.processes import due_now, finish, read_until, run_bot, until
from tests.conftest import StartBot

COUNT = 4


@pytest.fixture
def guilds() -> list[GuildSpec]:
    return [GuildSpec(id=((1000 + n) << 22) + 7, channels=[ChannelSpec(name=f"s{n}")]) for n in range(COUNT)]


def test_shard_settings_from_the_environment() -> None:
    assert shard_settings({}) == {}
    assert shard_settings({"LIUREN_SHARD_COUNT": "4", "LIUREN_SHARD_IDS": "0-1"}) == {
        "shard_count": 4, "shard_ids": [0, 1]}
    assert shard_settings({"LIUREN_SHARD_COUNT": "3"}) == {"shard_count": 3, "shard_ids": [0, 1, 2]}
    assert parse_shard_ids("0-1,5, 3", 6) == (0, 1, 3, 5)
    for bad in (
        {"LIUREN_SHARD_IDS": "0-1"},
        {"LIUREN_SHARD_COUNT": "two"},
        {"LIUREN_SHARD_COUNT": "4", "LIUREN_SHARD_IDS": "2-5"},
        {"LIUREN_SHARD_COUNT": "4", "LIUREN_SHARD_IDS": "3-1"},
    ):
        with pytest.raises(ValueError, match="LIUREN_SHARD"):
            shard_settings(bad)


@pytest.mark.slow
async def test_two_processes_post_each_channel_once_through_a_kill(
    standin: DiscordStandIn, postgres_url: str
) -> None:
    guilds = standin.guilds
    channel = {n: g.channels[0].id for n, g in enumerate(guilds)}
    assert [Shards(COUNT, (n,)).holds(g.id) for n, g in enumerate(guilds)] == [True] * COUNT
    for g in guilds:
        await due_now(postgres_url, g.id, g.channels[0].id)
    standin.max_concurrency = COUNT  # every shard its own IDENTIFY bucket: no process waits 5 s per shard
    # Shard 0's answer is slow, so process A is killed with its post stored but unanswered.
    standin.slow_answer(channel[0], 3.0)
    common = {**standin.env(), "DISCORD_TOKEN": standin.token, "LIUREN_DB": postgres_url,
              "LIUREN_SHARD_COUNT": str(COUNT), "LIUREN_LEASE_MINUTES": "0.03"}  # 1.8 s leases
    first = await run_bot({**common, "LIUREN_SHARD_IDS": "0-1"})
    second = await run_bot({**common, "LIUREN_SHARD_IDS": "2-3"})
    restarted = None
    try:
        await until(lambda: all(standin.messages.get(channel[n]) for n in range(COUNT)), timeout=30)
        first.send_signal(signal.SIGKILL)  # shard 0's send is in flight
        await finish(first)
        restarted = await run_bot({**common, "LIUREN_SHARD_IDS": "0-1"})
        # Up to its login, which comes after its SIGTERM handler: on a slow machine the posts could
        # all be recorded (A's slow answer in before the kill) while it was still importing, and the
        # SIGTERM below then ended it before it could stop cleanly (exit -15, nothing on stderr).
        await read_until(restarted, "logging in", [])

        async def recorded() -> bool:
            store = await open_store(postgres_url)
            try:
                return all(r.last_posted is not None for r in await store.schedules())
            finally:
                await store.close()

        async def all_recorded() -> None:
            while not await recorded():
                await asyncio.sleep(0.2)

        await asyncio.wait_for(all_recorded(), 40)
    finally:
        for process in (first, second, restarted):
            if process is not None and process.returncode is None:
                process.send_signal(signal.SIGTERM)
        codes = [await finish(p) for p in (second, restarted) if p is not None]
    assert [code for code, _ in codes] == [0] * len(codes), [err[-2000:] for _, err in codes]
    # One post per channel, none doubled: an English post is several messages (the project's English
    # joined it), so count the posts by their heading and the messages by their nonce.
    posted = {n: standin.messages.get(channel[n], []) for n in range(COUNT)}
    headings = {n: sum(m["content"].startswith("📅") for m in ms) for n, ms in posted.items()}
    assert headings == dict.fromkeys(range(COUNT), 1)
    assert all(len({m["nonce"] for m in ms}) == len(ms) for ms in posted.values())
    assert all(ms[0]["content"].startswith("📅") for ms in posted.values())
    shards = sorted(tuple(i["shard"]) for i in standin.identifies)
    assert shards == [(0, 4), (0, 4), (1, 4), (1, 4), (2, 4), (3, 4)]  # A twice (restarted), B once
    store = await open_store(postgres_url)
    try:
        rows = {r.guild_id: r for r in await store.schedules()}
    finally:
        await store.close()
    for n, g in enumerate(guilds):
        assert rows[g.id].message_id == int(standin.messages[channel[n]][0]["id"])


# -- IDENTIFY pacing (bot/core/identify.py): Discord's max_concurrency, read from GET /gateway/bot ----------


def _gaps(standin: DiscordStandIn) -> dict[int, float]:
    """Seconds from the first IDENTIFY to each shard's."""
    first = standin.identified_at[0]
    return {i["shard"][0]: t - first for i, t in zip(standin.identifies, standin.identified_at, strict=True)}


async def test_shards_in_different_identify_buckets_identify_together(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    standin.max_concurrency = 2
    await start_bot(shard_count=2, timeout=4)
    assert any(r.method == "GET" and r.path == "/gateway/bot" for r in standin.requests)
    gaps = _gaps(standin)
    assert sorted(gaps) == [0, 1] and gaps[1] < 1.0, gaps  # discord.py's own hook would wait 5 s


@pytest.mark.slow  # a 5 s window, waited for real
async def test_a_second_shard_in_the_same_bucket_waits_its_window_and_no_more(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    standin.max_concurrency = 2  # shards 0 and 2 share bucket 0; shard 1 has its own
    await start_bot(shard_count=3, timeout=15)
    gaps = _gaps(standin)
    assert gaps[1] < 1.0 and WINDOW <= gaps[2] < WINDOW + 1.5, gaps
