"""A reading as values: the sections a teacher gives, the entries, what each says (never sentences).

texts/reading/sentences.py writes them in the reader's language; texts/reading/match.py makes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TypeVar

from engine.chart import Chart
from engine.facts import Facts
from engine.patterns import Patterns
from engine.reasons import Value, Why
from engine.terms import Position, Role
from texts.corpus import Unit


class Section(IntEnum):
    """The parts of a reading, in the order a teacher gives them."""

    課名 = 1
    發用 = 2
    干支 = 3
    課体 = 4
    中末 = 5
    取法 = 6

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Note:
    """Something the reading states (not quotes): ``key`` names its template in reading.toml."""

    key: str
    values: tuple[tuple[str, Value | str], ...] = ()


Said = Note | Why  # what an entry says besides its quotation
_E = TypeVar("_E", bound=Enum)


def pairs(name: str, kind: type[_E]) -> dict[_E, tuple[str, _E]]:
    """A note's ``(name, member)`` value for each member of ``kind``, made once for the notes of
    every reading to share (texts/reading/match.py)."""
    return {member: (name, member) for member in kind}


@dataclass(frozen=True, slots=True)
class Entry:
    """One step of a reading: a classical line (``unit``, or ``None`` where the seed has none) and
    what the reading says with it (``notes``: stated facts and reasons, in order).

    ``position`` names the 伝 the entry is about (None for the chart as a whole). ``excluded`` marks
    a general's opening whose （不加…） names the 地盤 branch it stands on. ``same_as`` marks a 伝 that
    repeats an earlier one: its passage is not quoted again.
    """

    section: Section
    role: Role
    position: Position | None
    unit: Unit | None
    notes: tuple[Said, ...] = ()
    excluded: bool = False
    same_as: Position | None = None
    names: tuple[str, ...] = ()  # for a name line: the one name that applies to this branch


@dataclass(frozen=True, slots=True)
class Reading:
    """A chart's reading: the chart, its facts and 課体, and the entries in a teacher's order."""

    chart: Chart
    facts: Facts
    patterns: Patterns
    entries: tuple[Entry, ...]
    key: tuple[object, ...] = ()  # what the entries depend on: equal keys, equal entries (for caches)

    def units(self) -> tuple[Unit, ...]:
        """The units quoted, in entry order (each once: :func:`read` never quotes a unit twice)."""
        return tuple(e.unit for e in self.entries if e.unit is not None)

    def section(self, section: Section) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.section is section)
