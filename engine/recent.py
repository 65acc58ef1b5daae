"""The last few results worked out from an object, found again by the object itself (its identity).

A chart's facts and patterns are asked for again when one chart is shown several ways at once (the
chart text, the JSON, the reading): kept here, the second ask is a look-up. Keyed by identity, not
by value: a chart's hash walks all it holds, and keyed by identity equal values of different
IntEnums (``Branch.子 == Stem.甲``) cannot swap one result for another. Each entry holds its object,
so no other object can take its id while the entry is kept.

    >>> kept = Recent[tuple[int, ...], int](2)
    >>> a, b, c = (1,), (2,), (3,)
    >>> kept.put(a, 10), kept.put(b, 20), kept.get(a), kept.put(c, 30), kept.get(a), kept.get((1,))
    (10, 20, 10, 30, None, None)
"""

from __future__ import annotations

from threading import Lock
from typing import Generic, TypeVar

__all__ = ["Recent"]

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The results for the last ``size`` objects put, oldest forgotten first; safe between threads."""

    __slots__ = ("_items", "_lock", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: dict[int, tuple[K, V]] = {}
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        """The result kept for this very object, or ``None``."""
        kept = self._items.get(id(key))
        return kept[1] if kept is not None and kept[0] is key else None

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (replacing what was kept for it); returns ``value``."""
        at, items = id(key), self._items
        with self._lock:
            items.pop(at, None)
            items[at] = (key, value)
            while len(items) > self.size:
                del items[next(iter(items))]
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
