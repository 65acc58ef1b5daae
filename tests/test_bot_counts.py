"""Each value is read once: one cast, one read of the server's settings and one zone parse per
/cast and per daily post, counted on the real path against the stand-in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

import engine
import texts.when
from bot.store import GuildOptions, Profile, Store
from engine import calendar
from testkit.daily_harness import Harness, utc
from testkit.discord_standin import DiscordStandIn
from tests.conftest import StartBot

F = TypeVar("F", bound=Callable[..., Any])


class Counts:
    """Calls of the engine's casts, the store's settings read and the one zone parser."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: Counter[str] = Counter()
        self.monkeypatch = monkeypatch
        self._wrap(engine, "cast", "cast")
        self._wrap(engine, "cast_classical", "cast")
        self._wrap(calendar, "zone", "zone")  # engine.calendar's own callers look it up here
        self._wrap(texts.when, "calendar_zone", "zone")  # texts.when bound it at import

    def _wrap(self, owner: object, name: str, key: str) -> None:
        original = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.seen[key] += 1
            return original(*args, **kwargs)

        self.monkeypatch.setattr(owner, name, counted)

    def store(self, store: Store) -> None:
        original = store.reader

        async def counted(guild_id: int | None, user_id: int | None) -> tuple[GuildOptions, Profile | None]:
            self.seen["options"] += guild_id is not None  # guild_options reads through it too
            return await original(guild_id, user_id)

        self.monkeypatch.setattr(store, "reader", counted)

    def reset(self) -> None:
        self.seen.clear()


NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)


@pytest.mark.parametrize("options", [{}, {"tz": "America/New_York", "when": "2026-11-29 14:00"}])
async def test_cast_casts_once_reads_settings_once_parses_the_zone_once(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, options: dict[str, str]
) -> None:
    bot = await start_bot(clock=lambda: NOW)
    await bot.store.set_guild_options(standin.guilds[0].id, GuildOptions(timezone=calendar.zone("Europe/Paris")))
    counts = Counts(monkeypatch)
    counts.store(bot.store)
    callback = await standin.slash("cast", options)
    assert callback.embeds and (options.get("tz") or "Europe/Paris") in callback.embeds[0]["description"]
    assert await standin.picture(callback)  # with it or by an edit of it: drawing it casts nothing again
    # Each zone parsed once: the server's stored one as the store decodes its row, and a typed one
    zones = 1 + ("tz" in options)
    assert counts.seen == {"cast": 1, "options": 1, "zone": zones}, counts.seen


async def test_chart_casts_once_and_reads_settings_once(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await start_bot(clock=lambda: NOW)
    counts = Counts(monkeypatch)
    counts.store(bot.store)
    callback = await standin.slash("chart", {"day": "甲子", "yuejiang": "亥", "hour": "午"})
    assert callback.embeds
    assert counts.seen == {"cast": 1, "options": 1}, counts.seen


async def test_a_daily_post_casts_once_reads_settings_once_parses_the_zone_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    bot = await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    await h.settle()
    counts = Counts(monkeypatch)
    counts.store(bot.store)
    await h.tick(utc(2026, 5, 2, 0, 0))  # 09:00 JST: the post is due
    assert len(h.posts(channel)) == 1
    assert counts.seen == {"cast": 1, "options": 1, "zone": 1}, counts.seen
