"""Helpers for tests that run the real ``python -m bot`` as a child process against the stand-in."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.zones import parse_time, parse_zone
from bot.daily.schedule import next_post
from bot.store import epoch, open_store

__all__ = ["ROOT", "due_now", "environment", "finish", "read_until", "run_bot", "until"]

ROOT = Path(__file__).resolve().parents[1]


# The stand-in writes READY and its GUILD_CREATEs back to back, so a child bot has every server
# within milliseconds of READY; 0.2 s instead of discord.py's 2 s leaves margin for a loaded machine
# and saves most of two seconds at every start (figures in docs/performance.md).
GUILD_READY_TIMEOUT = "0.2"


def environment(extra: Mapping[str, str]) -> dict[str, str]:
    """This process's environment without any DISCORD_/LIUREN_ setting, plus `extra` (which may
    give LIUREN_GUILD_READY_TIMEOUT; else GUILD_READY_TIMEOUT)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LIUREN_"))}
    env.update({"PYTHONPATH": str(ROOT), "LIUREN_TZ": "Asia/Tokyo",
                "LIUREN_GUILD_READY_TIMEOUT": GUILD_READY_TIMEOUT, **extra})
    return env


async def run_bot(env: Mapping[str, str], *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env=environment(env),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


async def finish(process: asyncio.subprocess.Process, timeout: float = 30) -> tuple[int, str]:
    """Wait for the process to end; its exit code and what it wrote to stderr."""
    _, err = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return process.returncode, err.decode()


async def until(condition: Callable[[], object], timeout: float = 20) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


async def due_now(db: Path | str, guild: int, channel: int) -> str:
    """Store a schedule whose post for today (UTC) is due now, as /daily set would; returns the day."""
    now = datetime.now(UTC)
    at = f"{now:%H:%M}"
    since = now - timedelta(days=2)
    due = next_post(now, parse_time(at), parse_zone("UTC"), since=since)  # today's, at this minute: due
    assert due.instant <= now
    store = await open_store(db)
    try:
        await store.put_schedule(guild, channel, at, "UTC", "en-US", since, epoch(due.instant), due.day)
    finally:
        await store.close()
    return due.day.isoformat()


async def read_until(process: asyncio.subprocess.Process, words: str, seen: list[str], timeout: float = 30) -> str:
    """Read the process's stderr line by line until one has ``words`` (kept in ``seen``)."""
    stream = process.stderr
    assert stream is not None

    async def scan() -> str:
        while True:
            line = (await stream.readline()).decode()
            if not line:
                raise AssertionError(f"the process ended without saying {words!r}:\n{''.join(seen)}")
            seen.append(line)
            if words in line:
                return line

    return await asyncio.wait_for(scan(), timeout)
