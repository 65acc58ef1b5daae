"""Rows the bot reads on every interaction and rarely changes, kept in memory (issue 21): the
server's options and the reader's profile, read once per /cast from the database otherwise.

The store forgets a key whenever it writes it, so a change made through this process is seen at
once. Another process on the same database (shards on PostgreSQL) writes behind this one's back:
what it changed is seen after at most ``TTL_S`` seconds. Bounded: the least recently used keys
go first beyond ``size``.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["TTL_S", "Remembered"]

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
