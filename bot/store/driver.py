"""What the one SQL store (bot.store.store.Store) needs from a database: a small driver interface.

A driver runs the store's SQL (``?`` placeholders) and owns what truly differs by backend: how a
connection is held (SQLite: one connection on one worker thread, and one on the event loop's
thread for the writes that wait for nothing; PostgreSQL: a pool), how a
transaction is opened, and the claim of due schedules (SQLite takes the write lock first;
PostgreSQL locks rows with ``FOR UPDATE SKIP LOCKED``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .location import Location
from .values import Claimed, Shards, StoreError

__all__ = ["Driver", "Params", "Rows", "StoreUnavailable"]

Params = Sequence[Any]
Rows = list[tuple[Any, ...]]


class StoreUnavailable(StoreError):
    """The database cannot answer now but may later: locked or busy past the timeouts, a full disk,
    a disk I/O error, a server down or restarting. Nothing was written; the same call may succeed
    in a moment (a damaged file or a wrong setting is a plain ``StoreError``)."""


class Driver(Protocol):
    """A database the store runs on. Every method is safe to call from the event loop; after
    ``close`` every call raises ``RuntimeError``."""

    @property
    def location(self) -> Location:
        """Where the data lives."""
        ...

    async def fetch(self, statement: str, params: Params = ()) -> Rows:
        """The rows a statement returns (a SELECT, or a write with RETURNING); [] for none."""
        ...

    async def execute(self, statement: str, params: Params = ()) -> int:
        """Run a write; returns how many rows it changed."""
        ...

    async def transaction(self, steps: Sequence[tuple[str, Params]]) -> list[int]:
        """Run the statements in one transaction (all or nothing); the rows each changed."""
        ...

    async def execute_many(self, statement: str, rows: Sequence[Params]) -> None:
        """One statement for many parameter rows, in one transaction."""
        ...

    async def fetch_batch(self, steps: Sequence[tuple[str, Params]], *, atomic: bool = True,
                          flushed: bool = True) -> list[Rows]:
        """The statements in one trip to the database, in one transaction (all or nothing) unless
        not ``atomic`` (reads: each on its own); the rows each returned ([] for none).

        Not ``flushed``: the commit returns once the database has the transaction, before its log
        is on the disk (SQLite's ``synchronous = NORMAL`` in WAL mode, PostgreSQL's
        ``synchronous_commit = off``, for that transaction alone). It survives the bot's process
        ending, crashing or restarting; a crash of the machine or a power cut within moments of it
        may roll it back, whole, never half (the next flushed commit or checkpoint flushes it too).
        Every other write waits for the disk. (SQLite writes these from the event loop's thread, on a
        connection that waits for no lock: bot.store.sqlite.)"""
        ...

    async def claim(self, now: int, until: int, token: str, shards: Shards | None,
                    limit: int) -> tuple[Claimed, ...]:
        """Lease up to `limit` enabled schedules due at `now` (of `shards`' guilds) until `until`,
        each to exactly one caller, earliest first (the one dialect-specific operation)."""
        ...

    async def note_used(self) -> None:
        """The database now holds rows worth keeping (SQLite leaves a marker beside its file)."""
        ...

    async def close(self) -> None:
        ...
