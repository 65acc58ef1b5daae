"""Shared fixtures: a local Discord stand-in and a real bot connected to it.

``standin`` is a started ``DiscordStandIn`` (one guild with one text channel unless a test builds
its own). ``bot_env`` points the process at it (DISCORD_API_BASE, DISCORD_GATEWAY_URL) with a
fresh database under tmp_path. ``start_bot`` starts the real bot against it and stops it after
the test: ``bot = await start_bot(clock=...)``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.discord_standin import DiscordStandIn

StartBot = Callable[..., Awaitable[Any]]


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    server = DiscordStandIn()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "liuren.sqlite3"


@pytest.fixture
def bot_env(monkeypatch: pytest.MonkeyPatch, standin: DiscordStandIn, db_path: Path) -> dict[str, str]:
    """Environment of a bot run against the stand-in; returns the variables set."""
    env = {**standin.env(), "LIUREN_DB": str(db_path), "LIUREN_TZ": "Asia/Tokyo"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DISCORD_GUILD_ID", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return env


@pytest.fixture
async def start_bot(bot_env: dict[str, str], standin: DiscordStandIn) -> AsyncIterator[StartBot]:
    """A factory that starts a bot on the stand-in and waits until it is ready; all are closed after."""
    from bot.app import make_bot

    running: list[tuple[Any, asyncio.Task[None]]] = []

    async def start(*, timeout: float = 10.0, **kwargs: Any) -> Any:
        kwargs.setdefault("guild_ready_timeout", 0.05)
        bot = make_bot(**kwargs)
        task = asyncio.create_task(bot.start(standin.token))
        running.append((bot, task))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not bot.is_ready():
            if task.done():
                task.result()  # re-raises why the bot stopped
                raise RuntimeError("the bot stopped before it was ready")
            if loop.time() > deadline:
                raise TimeoutError("the bot did not become ready on the stand-in")
            await asyncio.sleep(0.01)
        return bot

    yield start
    for bot, task in reversed(running):
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
