"""What the one SQL store (bot.store.store.Store) needs from a database: a small driver interface.

A driver runs the store's SQL (``?`` placeholders) and owns what truly differs by backend: how a
connection is held (SQLite: a writer thread with its connection, and reader threads with theirs;
PostgreSQL: a pool), how a transaction is opened, and the claim of due schedules (SQLite takes
the write lock first; PostgreSQL locks rows with ``FOR UPDATE SKIP LOCKED``).

Every call is answered within its driver's deadline counted from when the caller made it:
``CALLED_AT`` says when that was, for a call made on a caller's behalf later (bot.store.batch).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol

from .location import Location
from .values import Shards, StoreError

if TYPE_CHECKING:
    from .schedule_values import Claimed

__all__ = ["CALLED_AT", "Driver", "Params", "Rows", "StoreUnavailable"]

Params = Sequence[Any]
Rows = list[tuple[Any, ...]]
# When (time.monotonic()) the caller this task's driver calls serve made its call, if earlier than
# the driver call itself: the deadline counts from it (None: from the driver call).
CALLED_AT: ContextVar[float | None] = ContextVar("liuren_store_called_at", default=None)


class StoreUnavailable(StoreError):
    """The database cannot answer now but may later: locked or busy past the timeouts, not answering
    by the call's deadline, a full disk, a disk I/O error, a server down or restarting. Nothing was
    written — but for a commit already under way when the deadline passed, which may still land, as
    with any timeout (docs/admin.md); the same call may succeed in a moment (a damaged file or a
    wrong setting is a plain ``StoreError``)."""


class Driver(Protocol):
    """A database the store runs on. Every method is safe to call from the event loop and never
    waits there for a file or a socket; each call is answered, or refused with ``StoreUnavailable``,
    within the driver's deadline counted from ``CALLED_AT`` (else from the call); after ``close``
    every call raises ``RuntimeError``."""

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

        Not ``flushed``: the commit may return before its log is on the disk (PostgreSQL's
        ``synchronous_commit = off``, for that transaction alone). It survives the bot's process
        ending, crashing or restarting; a crash of the machine or a power cut within moments of it
        may roll it back, whole, never half. SQLite ignores it: every commit there waits for the
        disk (bot.store.sqlite)."""
        ...

    async def claim(self, now: int, until: int, token: str, shards: Shards | None,
                    limit: int) -> tuple[Claimed, ...]:
        """Lease up to `limit` enabled schedules due at `now` (of `shards`' guilds) until `until`,
        each to exactly one caller, earliest first (the one dialect-specific operation)."""
        ...

    async def note_used(self, kind: str | None = None) -> None:
        """The database now holds rows worth keeping, of `kind` ("cases", "schedules"; None: look at
        every kind), so SQLite leaves a marker beside its file."""
        ...

    async def close(self) -> None:
        ...
