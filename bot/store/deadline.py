"""The one deadline on every store call, as its caller experiences it (see docs/admin.md).

A call is bounded from the moment it is made: waiting for a pool connection, for SQLite's worker
thread, for a batch of casts to commit, and the database's own work all count. Past ``DEADLINE``
the caller gets ``StoreUnavailable`` ("the database is not answering") at once. The call itself is
cancelled. A driver whose clean-up after a cancelled query may take seconds runs its queries
``detached``: psycopg sends the server a cancel request and closes a connection that does not
answer it (the pool then discards that connection), and the caller does not wait for that.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from .driver import StoreUnavailable

__all__ = ["DEADLINE", "bounded", "deadlined", "detached"]

UNBOUNDED = ("close", "seal_plaintext")  # waits for the writes under way; a one-off pass at the upgrade
DEADLINE = 5.0  # seconds, queue time included; Discord's 3 s is bridged by a deferral (bot/core/ack.py)

T = TypeVar("T")
P = ParamSpec("P")
C = TypeVar("C", bound=type)
log = logging.getLogger("bot")
# Calls given up on and still ending (strong references: the loop keeps only weak ones to tasks).
_LEFT: set[asyncio.Task[Any]] = set()


def _ended(task: asyncio.Task[Any]) -> None:
    _LEFT.discard(task)
    if not task.cancelled() and (error := task.exception()) is not None:
        log.debug("a store call given up on ended later: %s", error)


async def bounded(call: Coroutine[Any, Any, T], seconds: float | None = None) -> T:
    """``call``'s result, or StoreUnavailable once ``seconds`` (``DEADLINE``) have passed (the call
    cancelled). The call starts at once, in the caller's task (a write it queues is queued before the
    caller's next await)."""
    seconds = DEADLINE if seconds is None else seconds
    limit = asyncio.timeout(seconds)
    try:
        async with limit:
            return await call
    except TimeoutError:
        if not limit.expired():
            raise  # the call's own TimeoutError, not the deadline's
        raise StoreUnavailable(f"the database is not answering (no answer within {seconds:g} s)") from None


async def detached(call: Coroutine[Any, Any, T]) -> T:
    """``call`` run as a task of its own, so a caller cancelled while it waits (its deadline passed)
    leaves at once: the call is cancelled and ends on its own, cleaning up as long as it needs
    (a driver mid-query: module doc)."""
    task = asyncio.ensure_future(call)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.cancel()
        _LEFT.add(task)
        task.add_done_callback(_ended)
        raise


def _bounded_method(method: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Awaitable[T]]:
    @functools.wraps(method)
    async def call(*args: P.args, **kwargs: P.kwargs) -> T:
        return await bounded(method(*args, **kwargs))

    return call


def deadlined(cls: C) -> C:
    """The class with every public coroutine method (but those ``UNBOUNDED``) bounded by ``DEADLINE``:
    the deadline is written once, for every operation and both drivers."""
    for klass in reversed(cls.__mro__[:-1]):  # the operations it inherits, then its own (which win)
        for name, member in list(vars(klass).items()):
            if name.startswith("_") or name in UNBOUNDED or not inspect.iscoroutinefunction(member):
                continue
            setattr(cls, name, _bounded_method(member))
    return cls
