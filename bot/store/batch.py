"""Writes gathered into shared transactions (group commit): the cases every /cast records;
and reads gathered into one trip to the database (the options and profiles not remembered).

Each caller still awaits its own write: it gets the rows its statement returned once the
transaction holding it has committed, or the error the database raised. Nothing is reported as
stored before it is, so no write is lost to the bot's process crashing or restarting, or to a
failure, and a failure reaches the caller who made the write (a /cast then says the database is
busy, as for a write of its own). What "committed" promises against a crash of the machine is the
``write`` function's (the store's cases: ``Driver.fetch_batch``; on SQLite, on the disk).

The time a write waits for the transaction before it counts against its deadline: a batch is
written with ``CALLED_AT`` set to when its oldest write was made, so the database's deadline for
the whole batch counts from then (every caller of a batch is answered alike, by that deadline).

A write made while no transaction is being written starts one at the loop's next turn, with the
other writes made by then; writes made while one is being written go into the next, which starts
as soon as that one is done. So a lone write waits for nothing more than before, and under load
one transaction, one commit and one trip to the database's thread carry many writes. A batch the
database refuses for a reason other than "not now" (``StoreUnavailable``) is written again one
write at a time, so a bad row fails alone. ``close`` waits for every write made before it.
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Awaitable, Callable, Sequence

from .driver import CALLED_AT, Params, Rows, StoreUnavailable

__all__ = ["BATCH_MAX", "Batched"]

BATCH_MAX = 256  # writes per transaction (64 casts in flight fill a quarter of it)
Write = Callable[[Sequence[tuple[str, Params]]], Awaitable[list[Rows]]]
_Pending = tuple[str, Params, "asyncio.Future[Rows]", float]  # ..., when it was made (time.monotonic())


class Batched:
    """Statements run together through ``write`` (a driver's ``fetch_batch``: for writes, in one
    transaction)."""

    __slots__ = ("_closed", "_pending", "_running", "_write", "most")

    def __init__(self, write: Write, most: int = BATCH_MAX) -> None:
        self._write, self.most = write, most
        self._pending: list[_Pending] = []
        self._running: asyncio.Task[None] | None = None
        self._closed = False

    async def fetch(self, statement: str, params: Params) -> Rows:
        """The rows ``statement`` returned, once the transaction holding it has committed."""
        return await self.submit(statement, params)

    def submit(self, statement: str, params: Params) -> asyncio.Future[Rows]:
        """``fetch``'s rows as a future, the statement queued now: several submitted before the
        first is awaited go to the database together."""
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Rows] = loop.create_future()
        self._pending.append((statement, params, done, time.monotonic()))
        if self._running is None:
            self._running = loop.create_task(self._drain(), name="liuren-batched")
        return done

    async def close(self) -> None:
        """Refuse new writes and wait until every write made before is committed (or has failed)."""
        self._closed = True
        if self._running is not None:
            await asyncio.shield(self._running)

    async def _drain(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending[: self.most], self._pending[self.most:]
                await self._commit(batch)
        finally:
            self._running = None

    async def _commit(self, batch: list[_Pending]) -> None:
        called = CALLED_AT.set(min(made for *_, made in batch))
        try:
            results = await self._write([(statement, params) for statement, params, *_ in batch])
        except StoreUnavailable as error:  # "not now" for every write alike: each caller is told
            for _, _, done, _ in batch:
                _fail(done, error)
        except Exception as error:
            if len(batch) == 1:
                _fail(batch[0][2], error)
            else:  # one bad row must not fail the others: each on its own
                for item in batch:
                    await self._commit([item])
        except BaseException:  # cancelled (the loop is closing): the callers must not wait forever
            for _, _, done, _ in batch:
                done.cancel()
            raise
        else:
            for (_, _, done, _), rows in zip(batch, results, strict=True):
                if not done.done():  # a caller that stopped waiting (cancelled) has its row stored anyway
                    done.set_result(rows)
        finally:
            CALLED_AT.reset(called)


def _fail(done: asyncio.Future[Rows], error: Exception) -> None:
    """Give the caller the error (its own copy, so the tracebacks of callers do not pile up on one)."""
    if not done.done():
        try:
            own = copy.copy(error)
        except Exception:  # an exception that cannot be copied: shared
            own = error
        own.__cause__ = error.__cause__
        done.set_exception(own)
