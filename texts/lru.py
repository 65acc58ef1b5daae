"""A bounded cache that forgets the least recently used entry: for values whose key says all they depend on.

    >>> kept = LRU[str, int](2)
    >>> kept.put("a", 1), kept.put("b", 2), kept.get("a"), kept.put("c", 3)
    (1, 2, 1, 3)
    >>> kept.get("b") is None, len(kept)
    (True, 2)

Sized by measured bytes instead (``weigh`` says what an entry holds), it keeps entries while their
weights sum to at most ``size``:

    >>> pngs = LRU[str, bytes](10, weigh=len)
    >>> _ = pngs.put("a", b"1234"), pngs.put("b", b"123456"), pngs.put("c", b"12")
    >>> sorted(pngs.keys()), pngs.weight
    (['b', 'c'], 8)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["LRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most ``size`` entries (with ``weigh``: entries weighing at most ``size`` together, e.g. bytes);
    ``get`` marks an entry as used, ``put`` drops the least recently used."""

    __slots__ = ("_items", "_weigh", "_weights", "size", "weight")

    def __init__(self, size: int, weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self._weigh = weigh
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}
        self.weight = 0  # what the entries weigh together (their number without ``weigh``)

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or ``None``."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key``, forgetting the oldest entries beyond ``size``; returns ``value``."""
        weight = 1 if self._weigh is None else self._weigh(value)
        self.weight += weight - self._weights.get(key, 0)
        self._items[key] = value
        self._weights[key] = weight
        self._items.move_to_end(key)
        while self.weight > self.size and len(self._items) > 1:
            old, _ = self._items.popitem(last=False)
            self.weight -= self._weights.pop(old)
        return value

    def keys(self) -> Iterator[K]:
        return iter(self._items)

    def clear(self) -> None:
        self._items.clear()
        self._weights.clear()
        self.weight = 0

    def __len__(self) -> int:
        return len(self._items)
