"""How a failed send is read (gone, transient, maybe stored) and the pace of sends: the daily
service's judgement of Discord's answers, apart from its bookkeeping."""

from __future__ import annotations

import asyncio

import aiohttp
import discord

__all__ = ["Pace", "describe", "is_gone", "is_transient", "may_have_arrived"]


def describe(error: BaseException) -> str:
    """One line for the log and for /daily show."""
    if isinstance(error, discord.HTTPException):
        code = f" (code {error.code})" if error.code else ""
        return f"{error.status} {error.text or error.response.reason}{code}".strip()
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def is_transient(error: BaseException) -> bool:
    if isinstance(error, discord.RateLimited):
        return True
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError)


def is_gone(error: BaseException) -> bool:
    """A post to this channel will keep failing until a human acts: deleted or forbidden."""
    return isinstance(error, discord.NotFound | discord.Forbidden)


def may_have_arrived(error: BaseException) -> bool:
    """Whether Discord may have stored the message although the send failed.

    A 5xx, a timeout or a dropped connection can come after the message was stored; a 4xx
    (429 included) or a connection that never opened cannot.
    """
    if isinstance(error, discord.RateLimited | aiohttp.ClientConnectorError):
        return False
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return True


class Pace:
    """Spaces the starts of message sends (real time): at most `per_second` a second."""

    def __init__(self, per_second: float) -> None:
        self._interval = 1.0 / per_second
        self._next = 0.0

    async def wait(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        start = max(now, self._next)
        self._next = start + self._interval
        if start > now:
            await asyncio.sleep(start - now)
