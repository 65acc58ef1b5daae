"""The daily-post test harness: a controllable clock, one stand-in, one database, and a real bot
that can be started and stopped on them. Shared by tests/ (not shipped in the wheel)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, cast

from bot.core.config import DeliveryConfig
from bot.core.host import LiurenBot, make_bot
from bot.core.zones import parse_time, parse_zone
from bot.daily.delivery import Delivery
from bot.daily.schedule import next_post
from bot.store import ScheduleRow, Store, epoch, open_store
from testkit.discord_standin import MEMBER_PERMISSIONS, Callback, DiscordStandIn, GuildSpec

__all__ = ["ATTEMPTS", "BACKOFF", "MANAGER", "MANAGE_GUILD", "Clock", "Harness", "content", "put", "restore_before",
           "utc", "wait_for_post"]

ATTEMPTS = DeliveryConfig().attempts
BACKOFF = DeliveryConfig().backoff
MANAGE_GUILD = 1 << 5
MANAGER = MEMBER_PERMISSIONS | MANAGE_GUILD


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


class _Daily(Protocol):
    delivery: Delivery


class Clock:
    """The bot's clock: whatever the test says it is."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Harness:
    """One stand-in, one database file, and a bot that can be started and stopped on them."""

    def __init__(self, standin: DiscordStandIn, db: Path | str, clock: Clock) -> None:
        """`db` is a SQLite file (``rows()`` reads it directly) or a postgresql:// URL."""
        self.standin = standin
        self.db = db
        self.clock = clock
        self.bot: LiurenBot | None = None
        self._task: asyncio.Task[None] | None = None
        self.sleeps: list[float] = []
        self.config: dict[str, Any] = {}  # DeliveryConfig fields for the next start
        self.env: dict[str, str] = {}  # more environment for the next start (e.g. LIUREN_SITE_URL)

    @property
    def guild(self) -> GuildSpec:
        return self.standin.guilds[0]

    def channel(self, index: int = 0) -> int:
        return self.guild.channels[index].id

    @property
    def cog(self) -> Delivery:
        """The daily-post service (named for the cog it was split from)."""
        assert self.bot is not None
        # By name: discord.py drops an unloaded extension's modules, so a later start has new classes.
        daily = self.bot.get_cog("Daily")
        assert daily is not None, "the daily extension is not loaded"
        return cast(_Daily, daily).delivery

    async def start(self, **client_kwargs: Any) -> LiurenBot:
        # The stand-in writes READY and every GUILD_CREATE in one burst on this loop, so the bot has them
        # all queued before its ready timer starts: 0.05 s (as tests/conftest.py's start_bot) loses no
        # guild; 0.3 s here was a quarter of a second of waiting at every start and restart.
        client_kwargs.setdefault("guild_ready_timeout", 0.05)
        client_kwargs.setdefault("extensions", ("bot.daily", "bot.settings"))

        async def no_wait(seconds: float) -> None:
            self.sleeps.append(seconds)

        client_kwargs.setdefault("delivery_config", DeliveryConfig(sleep=no_wait, **self.config))
        bot = make_bot(
            store_path=self.db,
            clock=self.clock,
            environ={**self.standin.env(), **self.env},
            **client_kwargs,
        )
        self.bot = bot
        self._task = asyncio.create_task(bot.start(self.standin.token))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._task}, timeout=15, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if self._task in done:
                self._task.result()  # the start failed: raise why
            raise TimeoutError("the bot did not become ready")
        return bot

    async def settle(self) -> None:
        """Until the scheduler loop has made its first tick and is asleep, so ticks do not race it."""

        async def idle() -> None:
            while self.cog.ticks < 1 or self.cog.busy:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(idle(), 10)

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            await asyncio.wait_for(self._task, 10)
        self.bot, self._task = None, None

    async def slash(self, name: str, options: Mapping[str, Any] | None = None, **kwargs: Any) -> Callback:
        """Run a slash command; an option called ``channel`` is sent as a CHANNEL option, resolved."""
        kwargs.setdefault("member_permissions", MANAGER)
        values = dict(options or {})
        channel_id = values.pop("channel", None)
        if channel_id is not None:
            values["channel"] = str(channel_id)
        payload = self.standin.interaction_payload(name, values, **kwargs)
        if channel_id is not None:
            leaf = payload["data"]["options"]
            while leaf and leaf[0]["type"] in (1, 2):
                leaf = leaf[0]["options"]
            for option in leaf:
                if option["name"] == "channel":
                    option["type"] = 7
            found = self.standin.channel(int(channel_id))
            if found is not None:
                guild, spec = found
                resolved = spec.payload(guild.id, 0)
                resolved["permissions"] = str(MANAGER)
                payload["data"]["resolved"] = {"channels": {str(channel_id): resolved}}
        return await self.standin.interact(payload, timeout=10)

    async def at(self, now: datetime) -> None:
        """Move the clock once the loop is asleep."""
        await self.settle()
        self.clock.now = now

    async def tick(self, now: datetime) -> None:
        """Move the clock and run the scheduler once, synchronously."""
        await self.settle()
        self.clock.now = now
        await self.cog.run_due()

    async def stored(self) -> tuple[ScheduleRow, ...]:
        """The schedules as the store has them (either backend), through a connection of its own."""
        store = await open_store(self.db)
        try:
            return await store.schedules()
        finally:
            await store.close()

    def posts(self, channel_id: int) -> list[dict[str, Any]]:
        return list(self.standin.messages.get(channel_id, []))

    def attempts(self, channel_id: int) -> int:
        return len(self.standin.requests_to("POST", f"/channels/{channel_id}/messages"))

    def rows(self) -> list[sqlite3.Row]:
        conn = sqlite3.connect(self.db)
        conn.row_factory = sqlite3.Row
        try:
            return conn.execute("SELECT * FROM schedules ORDER BY id").fetchall()
        finally:
            conn.close()

    def guild_zone(self, guild_id: int) -> str | None:
        conn = sqlite3.connect(self.db)
        try:
            row = conn.execute("SELECT timezone FROM guild_options WHERE guild_id = ?", (guild_id,)).fetchone()
            return None if row is None else str(row[0])
        finally:
            conn.close()


async def restore_before(h: Harness, channel: int, due: datetime, day: date) -> None:
    """The database as a backup taken before ``due`` left it (the bot stopped): the server's one
    schedule, 09:00 Asia/Tokyo in ``channel`` set the day before, knows nothing of ``day``'s post."""
    store = await open_store(h.db)
    try:
        assert await store.delete_schedules(h.guild.id) == 1
        await store.put_schedule(h.guild.id, channel, "09:00", "Asia/Tokyo", "ja", due - timedelta(days=1),
                                 epoch(due), day)
    finally:
        await store.close()


async def put(store: Store, guild: int, channel: int, at: str, zone: str, locale: str, since: datetime) -> int:
    """Store a schedule as /daily set would, due at its next post after `since`."""
    due = next_post(since, parse_time(at), parse_zone(zone), since=since)
    return await store.put_schedule(guild, channel, at, zone, locale, since, epoch(due.instant), due.day)


def content(callback: Callback) -> str:
    return str(callback.data.get("content", ""))


async def wait_for_post(h: Harness, channel_id: int, count: int = 1, timeout: float = 10) -> None:
    async def until() -> None:
        while len(h.posts(channel_id)) < count:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(until(), timeout)


