"""The one cache mechanism above the engine: every value the texts (and the bot) keep goes through here.

Each cache is listed, with its key, bound and reason, in docs/performance.md. A function whose
arguments say all its result depends on is kept with ``remember`` (C's ``functools.lru_cache``
underneath, the fastest look-up Python has, for the many small hot calls):

    >>> @remember(2)
    ... def square(n: int) -> int:
    ...     return n * n
    >>> square(3), square(3), square.cache_info().hits
    (9, 9, 1)

Values built from a value, bounded by what they weigh, are kept in an ``LRU``, a bounded cache that
forgets the least recently used entry:

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

``size_of`` measures what a value of tuples, dicts and slotted objects holds, for ``weigh``:

    >>> size_of(("ab", "ab")) == sys.getsizeof(("ab", "ab")) + sys.getsizeof("ab")  # each object once
    True

``Sampled`` measures a sample of a cache's entries and gives the others the mean:

    >>> weigh = Sampled(first=2, every=3)
    >>> [weigh("x" * n) - sys.getsizeof("") for n in (10, 30, 1000, 50, 7)]  # 3rd, 5th: the moving mean
    [10, 30, 20, 50, 35]
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from enum import Enum
from functools import lru_cache, wraps
from operator import attrgetter
from threading import Lock
from typing import Any, Generic, Protocol, TypeVar, cast

__all__ = ["LRU", "CacheInfo", "Hashed", "Recurring", "Remembered", "Sampled", "last_one", "remember", "size_of"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
A = TypeVar("A")
R = TypeVar("R", covariant=True)


class CacheInfo(Protocol):
    """What ``Remembered.cache_info()`` tells: hits, misses and the entries held."""

    @property
    def hits(self) -> int: ...
    @property
    def misses(self) -> int: ...
    @property
    def maxsize(self) -> int | None: ...
    @property
    def currsize(self) -> int: ...


class Remembered(Protocol[R]):
    """A function kept by ``remember``: called with hashable arguments; its cache can be read and emptied."""

    def __call__(self, *args: Hashable, **kwargs: Hashable) -> R: ...
    def cache_info(self) -> CacheInfo: ...
    def cache_clear(self) -> None: ...


def remember(size: int | None = None) -> Callable[[Callable[..., V]], Remembered[V]]:
    """Keep a function's results by its arguments: the ``size`` most recently used (``None``: all of
    them, for functions of a few fixed values such as a language or a school)."""

    def wrap(compute: Callable[..., V]) -> Remembered[V]:
        return lru_cache(maxsize=size)(compute)

    return wrap


class Hashed(tuple[int, tuple[object, ...]]):
    """A cache key of values hashed once: the parts, with their hash worked out when the key is made.

    A key of dataclasses (a chart's steps, its facts) is hashed in Python at every look-up, put and
    drop; this one hashes its parts once. Equal parts give equal keys:

    >>> Hashed(1, "a") == Hashed(1, "a"), hash(Hashed(1, "a")) == hash((1, "a")), Hashed(1, "a").parts
    (True, True, (1, 'a'))
    >>> import copy, pickle
    >>> copy.copy(Hashed(1, "a")) == pickle.loads(pickle.dumps(Hashed(1, "a"))) == Hashed(1, "a")
    True
    """

    __slots__ = ()

    def __new__(cls, *parts: object) -> Hashed:
        return super().__new__(cls, (hash(parts), parts))

    def __getnewargs__(self) -> tuple[object, ...]:  # a copy or a pickle is made again from the parts
        return self[1]

    def __hash__(self) -> int:
        return self[0]

    @property
    def parts(self) -> tuple[object, ...]:
        return self[1]


class LRU(Generic[K, V]):
    """At most ``size`` entries (with ``weigh``, or weights given to ``put``: entries weighing at most
    ``size`` together, e.g. bytes); ``get`` marks an entry as used, ``put`` drops the least recently used.
    Safe to share between threads (the daily posts are composed on the worker threads while /cast
    reads the same caches on the event loop)."""

    __slots__ = ("_items", "_lock", "_weigh", "_weights", "size", "weight")

    def __init__(self, size: int, weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self._weigh = weigh
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}
        self._lock = Lock()
        self.weight = 0  # what the entries weigh together (their number without ``weigh``)

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V, weight: int | None = None) -> V:
        """Keep ``value`` for ``key``, forgetting the oldest entries beyond ``size``; returns ``value``.
        ``weight``: what the entry weighs as the caller measured it (key included), else ``weigh(value)``."""
        if weight is None:
            weight = 1 if self._weigh is None else self._weigh(value)
        with self._lock:
            items = self._items
            before = self._weights.get(key)
            self._weights[key] = weight
            items[key] = value  # a new key goes last; a kept one is moved there
            if before is None:
                self.weight += weight
            else:
                self.weight += weight - before
                items.move_to_end(key)
            while self.weight > self.size and len(self._items) > 1:
                old, _ = self._items.popitem(last=False)
                self.weight -= self._weights.pop(old)
        return value

    def keys(self) -> Iterator[K]:
        """The keys, least recently used first (a copy: the cache may change meanwhile)."""
        with self._lock:
            return iter(list(self._items))

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._weights.clear()
            self.weight = 0

    def __len__(self) -> int:
        return len(self._items)


class Recurring(Generic[K, V]):
    """Values kept by measured size once their key was asked for a second time; up to ``budget``
    together (least recently used first out). The keys asked for once are remembered, the last
    ``seen`` of them, without their values. Safe to share between the drawing threads (as ``LRU``)."""

    def __init__(self, budget: int, seen: int = 512) -> None:
        self._kept: LRU[K, V] = LRU(budget)
        self._seen: LRU[K, bool] = LRU(seen)

    def get(self, key: K, make: Callable[[], V], weigh: Callable[[V], int]) -> V:
        """The value kept for ``key``, else ``make()`` (kept when ``key`` was asked for before)."""
        found = self._kept.get(key)
        if found is not None:
            return found
        made = make()
        if self._seen.get(key) is None:
            self._seen.put(key, True)
        else:
            self._kept.put(key, made, weigh(made))
        return made

    @property
    def weight(self) -> int:
        return self._kept.weight

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()
        self._seen.clear()


def last_one(compute: Callable[[A], V]) -> Callable[[A], V]:
    """``compute``, remembering its last argument (by identity, as immutable values are passed on
    unchanged) and what it gave: for a value asked of one object several times in a row.

    >>> calls = []
    >>> double = last_one(lambda x: calls.append(x) or 2 * x)
    >>> one = (1,)
    >>> double(one), double(one), double((1,)), len(calls)  # an equal but other object is computed again
    ((1, 1), (1, 1), (1, 1), 2)
    """
    last: tuple[object, V | None] = (_NOTHING, None)

    @wraps(compute)
    def remembered(argument: A) -> V:
        nonlocal last
        seen = last
        if seen[0] is argument:
            return cast(V, seen[1])
        found = compute(argument)
        last = (argument, found)  # one tuple: a thread reading it sees an argument with its own result
        return found

    return remembered


_NOTHING = object()

# Values every cache shares with the rest of the process: they cost an entry nothing.
_FREE = (Enum, bool, int, float, type(None), type)
# How to walk a type: skip it, count it alone, its items, its keys and values; else a getter of its
# slots' values (operator.attrgetter: one C call for all of them).
_SKIP, _LEAF, _ITEMS, _MAP = 0, 1, 2, 3
_Plan = int | Callable[[object], tuple[object, ...]]
# Plans kept per ``shared`` across calls (working them out on every put was a third of size_of's
# time). Types are few and live as long as the process.
_PLANS: dict[tuple[type, ...], dict[type, _Plan]] = {}


def _plan(kind: type, shared: tuple[type, ...]) -> _Plan:
    if issubclass(kind, _FREE) or issubclass(kind, shared):
        return _SKIP
    if issubclass(kind, (str, bytes)):
        return _LEAF
    if issubclass(kind, (tuple, list, set, frozenset)):
        return _ITEMS
    if issubclass(kind, dict):
        return _MAP
    names: list[str] = []
    for cls in kind.__mro__:
        slots = getattr(cls, "__slots__", ())
        names += [slots] if isinstance(slots, str) else slots
    if not names:
        return _LEAF
    every = attrgetter(*names)
    one = len(names) == 1  # attrgetter of one name gives the value, not a tuple

    def values(item: object) -> tuple[object, ...]:
        try:
            found: Any = every(item)  # Any, not typing.cast: this runs for every slotted object walked
        except AttributeError:  # a slot never set holds nothing
            return tuple(getattr(item, name, None) for name in names)
        return (found,) if one else found

    return values


def size_of(value: object, shared: tuple[type, ...] = ()) -> int:
    """The bytes ``value`` holds (``sys.getsizeof`` of it and of every object it reaches through
    tuples, lists, sets, dicts and ``__slots__``), each object counted once. Enum members, numbers,
    None and instances of ``shared`` (owned elsewhere: the corpus's units, a chart) count nothing;
    a string shared with another entry is counted in both, so the sum errs on the heavy side."""
    plans = _PLANS.setdefault(shared, {})
    seen: set[int] = set()
    todo: list[Any] = [value]  # Any: no typing.cast in the loop (it runs for every object walked)
    pop, extend, getsizeof, plan_of, mark = todo.pop, todo.extend, sys.getsizeof, plans.get, seen.add
    total = 0
    while todo:
        item = pop()
        plan = plan_of(type(item))
        if plan is None:
            plan = plans[type(item)] = _plan(type(item), shared)
        if plan is _SKIP:
            continue
        key = id(item)  # each object once
        if key in seen:
            continue
        mark(key)
        total += getsizeof(item)
        if plan is _LEAF:
            continue
        if plan is _ITEMS:
            extend(item)
        elif plan is _MAP:
            extend(item.keys())
            extend(item.values())
        elif callable(plan):
            extend(plan(item))
    return total


class Sampled:
    """``size_of`` (with ``shared``), or ``measure``, on a sample of a cache's entries, for entries much alike: the
    first ``first`` values and every ``every``-th after are measured, each other value weighs the
    moving mean of those measured (each new measure counts a half, so the mean follows a change of
    the mix within a few samples; tests/test_memory_caches.py checks the sum stays within 5 % of
    the exact one). Measuring walks every object of an entry, so measuring each would cost a fifth
    of the time it takes to read a new chart."""

    __slots__ = ("_count", "_every", "_first", "_lock", "_mean", "_measure", "shared")

    def __init__(self, shared: tuple[type, ...] = (), *, first: int = 16, every: int = 8,
                 measure: Callable[[Any], int] | None = None) -> None:
        self.shared = shared
        self._measure = measure  # another measure than size_of's (which then ignores ``shared``)
        self._first, self._every = first, every
        self._count = 0
        self._mean: float | None = None
        self._lock = Lock()

    def __call__(self, value: object) -> int:
        with self._lock:
            count = self._count
            self._count += 1
            if count >= self._first and count % self._every and self._mean is not None:
                return round(self._mean)
        weight = size_of(value, self.shared) if self._measure is None else self._measure(value)
        with self._lock:
            self._mean = weight if self._mean is None else (self._mean + weight) / 2
        return weight
