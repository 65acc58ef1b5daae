"""The texts a quotation is checked against, each folded once for comparison: the original of the
《心印賦》, the seed's Japanese translation, and the project's English.

A text is every unit's field in seed order, one after the other. Folding drops what a quotation may
leave out or write otherwise (punctuation, symbols, spaces: Unicode categories P, S, Z and C) and
folds each remaining character as a look-up does (texts/corpus/normalize.py: 繁/简/日 forms alike,
then case), so a quotation is found by a plain substring search. Each folded character remembers
where it stands in the text as written, to show a passage as written and to say which unit holds it.

    >>> fold("元首象天，重審法地。") == fold("元首象天 重审法地")
    True
    >>> hit = source("original").units_at(*source("original").find(fold("元首象天"))[0])
    >>> hit[0].id
    'pattern.元首重審'
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from texts.corpus.book import corpus
from texts.corpus.normalize import normalize
from texts.corpus.translations import translations
from texts.corpus.units import Unit
from texts.memo import remember

Source = Literal["original", "translation-ja", "translation-en"]
SOURCES: tuple[Source, ...] = ("original", "translation-ja", "translation-en")
_IGNORED = frozenset("PSZC")  # Unicode major categories a quotation may drop or write otherwise


@remember(4096)
def fold_char(ch: str) -> str:
    """The form ``ch`` is compared in ('' for punctuation, symbols and spaces)."""
    if unicodedata.category(ch)[0] in _IGNORED:
        return ""
    return "".join(c for c in normalize(ch).casefold() if unicodedata.category(c)[0] not in _IGNORED)


def fold(text: str) -> str:
    """``text`` as compared: each character folded (``fold_char``), the ignored ones dropped."""
    return "".join(map(fold_char, text))


@dataclass(frozen=True, slots=True)
class Text:
    """One source, folded: ``folded[i]`` comes from ``raw[origin[i]]``; unit ``units[k]`` holds
    ``raw[starts[k]:starts[k + 1]]`` (the last one to the end)."""

    source: Source
    raw: str
    folded: str
    origin: tuple[int, ...]
    starts: tuple[int, ...]
    units: tuple[Unit, ...]

    def find(self, needle: str, limit: int = 20) -> tuple[tuple[int, int], ...]:
        """Up to ``limit`` (start, end) spans of ``folded`` that equal the folded ``needle``."""
        found: list[tuple[int, int]] = []
        at = self.folded.find(needle) if needle else -1
        while at >= 0 and len(found) < limit:
            found.append((at, at + len(needle)))
            at = self.folded.find(needle, at + 1)
        return tuple(found)

    def units_at(self, start: int, end: int) -> tuple[Unit, ...]:
        """The units the folded span [start, end) draws from, in order."""
        first = bisect.bisect_right(self.starts, self.origin[start]) - 1
        last = bisect.bisect_right(self.starts, self.origin[max(end - 1, start)]) - 1
        return self.units[first : last + 1]

    def written(self, start: int, end: int) -> str:
        """The folded span [start, end) as the text writes it (its punctuation inside kept)."""
        return self.raw[self.origin[start] : self.origin[end - 1] + 1] if end > start else ""


@remember(len(SOURCES))
def pairs(which: Source) -> Mapping[str, tuple[int, ...]]:
    """Every two folded characters side by side in source ``which``, with where they start."""
    folded = source(which).folded
    found: dict[str, list[int]] = {}
    for i in range(len(folded) - 1):
        found.setdefault(folded[i : i + 2], []).append(i)
    return MappingProxyType({pair: tuple(at) for pair, at in found.items()})


def paragraph(unit: Unit, source: Source) -> int | None:
    """The seed ¶ of ``unit``'s field a source quotes (the original's line for the English)."""
    return unit.translation_line if source == "translation-ja" else unit.original_line


def _field(unit: Unit, source: Source) -> str:
    if source == "original":
        return unit.original
    if source == "translation-ja":
        return unit.translation
    english = translations("en").get(unit.id)
    return "" if english is None else english.text


@remember(len(SOURCES))
def source(which: Source) -> Text:
    """The source ``which``, folded once."""
    raw: list[str] = []
    folded: list[str] = []
    origin: list[int] = []
    starts: list[int] = []
    units: list[Unit] = []
    at = 0
    for unit in corpus().units:
        written = _field(unit, which)
        if not written:
            continue
        starts.append(at)
        units.append(unit)
        for i, ch in enumerate(written):
            for c in fold_char(ch):
                folded.append(c)
                origin.append(at + i)
        raw.append(written)
        at += len(written)
    return Text(which, "".join(raw), "".join(folded), tuple(origin), tuple(starts), tuple(units))
