"""Rows the bot reads on every interaction and rarely changes, kept in memory: the
server's options and the reader's profile, read once per /cast from the database otherwise; and
those not remembered, read together (``Readers``).

The store forgets a key whenever it writes it, so a change made through this process is seen at
once. Another process on the same database (shards on PostgreSQL) writes behind this one's back:
what it changed is seen after at most ``TTL_S`` seconds. Bounded: the least recently used keys
go first beyond ``size``.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from . import sql as q
from .batch import Batched
from .driver import Driver, Params, Rows
from .rows import options_of, profile_of
from .values import GuildOptions, Profile

__all__ = ["REMEMBERED", "TTL_S", "Readers", "Remembered"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
TTL_S = 30.0
_MISSING = object()


class Remembered(Generic[K, V]):
    """At most ``size`` values, each for ``ttl`` seconds after it was read."""

    __slots__ = ("_clock", "_items", "size", "ttl")

    def __init__(self, size: int, ttl: float = TTL_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.ttl, self._clock = size, ttl, clock
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()

    def get(self, key: K) -> tuple[bool, V | None]:
        """(True, the value) when one is kept and fresh; (False, None) otherwise."""
        found = self._items.get(key)
        if found is None or self._clock() - found[0] > self.ttl:
            return False, None
        self._items.move_to_end(key)
        return True, found[1]

    def put(self, key: K, value: V, read_at: float) -> None:
        """Keep ``value`` (read from the database at ``read_at``, from ``now()``)."""
        self._items[key] = (read_at, value)
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def now(self) -> float:
        return self._clock()

    def forget(self, key: K) -> None:
        self._items.pop(key, None)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


REMEMBERED = 4096  # servers' options and readers' profiles kept in memory (< 1 KB each)


class Readers:
    """The servers' options and the readers' profiles, each remembered (``options``, ``profiles``:
    the store forgets what it writes); those not remembered, of the interactions of one moment,
    read in one trip to the database."""

    __slots__ = ("_driver", "_reads", "options", "profiles")

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self.options: Remembered[int, GuildOptions] = Remembered(REMEMBERED)
        self.profiles: Remembered[int, Profile | None] = Remembered(REMEMBERED)
        self._reads = Batched(self._read_together)

    async def close(self) -> None:
        await self._reads.close()

    async def read(self, guild_id: int | None, user_id: int | None) -> tuple[GuildOptions, Profile | None]:
        """``Store.reader``: both, the ones not remembered read in one trip."""
        options, profile = GuildOptions(), None
        options_rows = profile_rows = None
        if guild_id is not None:
            kept, remembered = self.options.get(guild_id)
            if kept and remembered is not None:
                options = remembered
            else:
                options_rows = self._reads.submit(q.GUILD_OPTIONS, (guild_id,))
        if user_id is not None:
            kept, profile = self.profiles.get(user_id)
            if not kept:
                profile_rows = self._reads.submit(q.PROFILE, (user_id,))
        waiting = [rows for rows in (options_rows, profile_rows) if rows is not None]
        if not waiting:
            return options, profile
        read_at = self.options.now()  # before the reads run (both caches keep the store's clock)
        await asyncio.gather(*waiting)  # either's error, and neither left unread
        if guild_id is not None and options_rows is not None:
            found = options_rows.result()
            options = options_of(found[0] if found else None)
            self.options.put(guild_id, options, read_at)
        if user_id is not None and profile_rows is not None:
            found = profile_rows.result()
            profile = profile_of(found[0]) if found else None
            self.profiles.put(user_id, profile, read_at)
        return options, profile

    async def row(self, statement: str, key: object) -> tuple[Any, ...] | None:
        """The row of a ``KEYED`` read by ``key`` (None: no such row), read in the same trip as the
        other reads of the moment and not remembered."""
        rows = await self._reads.fetch(statement, (key,))
        return rows[0] if rows else None

    async def _read_together(self, steps: Sequence[tuple[str, Params]]) -> list[Rows]:
        """The reads gathered (each a ``KEYED`` read of one row by its key) in one trip: the keys of
        each read in a few statements (``keyed_many``, sized by ``pieces``), each step's row found
        again by its key."""
        if len(steps) == 1:  # a lone read, as any other
            return [await self._driver.fetch(*steps[0])]
        keys: dict[str, list[Any]] = {}
        for statement, params in steps:
            keys.setdefault(statement, []).append(params[0])
        read: list[str] = []  # the read each statement is of
        statements: list[tuple[str, Params]] = []
        for statement, wanted in keys.items():
            for part in q.pieces(list(dict.fromkeys(wanted))):
                read.append(statement)
                statements.append((q.keyed_many(statement, len(part)), tuple(part)))
        found: dict[tuple[str, Any], tuple[Any, ...]] = {}
        for statement, rows in zip(read, await self._driver.fetch_batch(statements, atomic=False), strict=True):
            for row in rows:
                found[statement, row[0]] = row
        return [[hit] if (hit := found.get((statement, params[0]))) is not None else [] for statement, params in steps]
