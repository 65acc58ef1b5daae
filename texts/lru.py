"""A bounded cache that forgets the least recently used entry: for values whose key says all they depend on.

    >>> kept = LRU[str, int](2)
    >>> kept.put("a", 1), kept.put("b", 2), kept.get("a"), kept.put("c", 3)
    (1, 2, 1, 3)
    >>> kept.get("b") is None, len(kept)
    (True, 2)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["LRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most ``size`` entries; ``get`` marks an entry as used, ``put`` drops the least recently used."""

    __slots__ = ("_items", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or ``None``."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key``, forgetting the oldest entries beyond ``size``; returns ``value``."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
