"""The 1,440 classical charts and their readings, cast and read once per test process.

Several test files check a promise over every classical chart (60 days × 12 plates, at 午 (晝)
and 子 (夜), as ``engine.classical.classical_charts`` lists them), some under several schools. Reading
them costs one to two seconds a sweep; these share one reading of each chart across the files of
a run (and of an xdist worker), made on first use, so a run that selects none of those tests
(``-m "not slow"``, ``-k``) pays nothing at collection.

Charts and readings are frozen values, so sharing them cannot carry one test's changes into
another. What a test asserts about them is unchanged: they are what ``engine.classical.classical_charts``
and ``texts.reading.read`` return, called the same way (``read`` with anything more than the chart
is not shared).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any, TypeVar, overload

from engine import classical
from engine.chart import Chart
from engine.school import DEFAULT_SCHOOL, School
from texts import reading as _reading
from texts.reading import Reading

__all__ = ["charts", "read", "readings"]

T = TypeVar("T")


class Lazy(Sequence[T]):
    """A tuple made on first use (len, an index, iteration, ``+``)."""

    __slots__ = ("_items", "_make")

    def __init__(self, make: Callable[[], Sequence[T]]) -> None:
        self._make = make
        self._items: tuple[T, ...] | None = None

    def _all(self) -> tuple[T, ...]:
        if self._items is None:
            self._items = tuple(self._make())
        return self._items

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[T]:
        return iter(self._all())

    def __add__(self, other: Sequence[Any]) -> list[Any]:
        """``READINGS + [more…]`` is a list, as it was when READINGS was one."""
        return [*self._all(), *other]

    def __radd__(self, other: Sequence[Any]) -> list[Any]:
        return [*other, *self._all()]

    def __repr__(self) -> str:
        return f"Lazy({'not made yet' if self._items is None else f'{len(self._items)} items'})"


@cache
def _charts(school: School) -> tuple[Chart, ...]:
    return tuple(classical.classical_charts(school))


@cache
def _read(chart: Chart) -> Reading:
    return _reading.read(chart)


def read(chart: Chart, known: Any = None, **options: Any) -> Reading:
    """``texts.reading.read(chart, known, **options)``; with the chart alone, each chart is read
    once per process (a Chart is a frozen value: equal charts, one reading)."""
    if known is None and not options:
        return _read(chart)
    return _reading.read(chart, known, **options)


def charts(school: School = DEFAULT_SCHOOL) -> Lazy[Chart]:
    """The 1,440 classical charts under ``school``, in ``engine.classical.classical_charts``'s order."""
    return Lazy(lambda: _charts(school))


def readings(school: School = DEFAULT_SCHOOL) -> Lazy[Reading]:
    """``read(chart)`` for each of ``charts(school)``, in the same order."""
    return Lazy(lambda: tuple(_read(chart) for chart in _charts(school)))
