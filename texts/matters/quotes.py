"""Units as a matter section quotes them: each once per reply, and after that referred back to (→ above).

:class:`Quote` is the value a section holds. :class:`QuoteIndex` holds a corpus's units as the
matter reading looks them up — each as its two quotations, quoted and referred back to — indexed
by the engine's values as numbers, built once per corpus (a few corpora kept: the shipped one and
a test's own); nothing in it depends on a chart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.symbols import BRANCHES
from engine.terms import General, PatternName
from texts.corpus import Corpus, Unit
from texts.matters.recognise import Matter
from texts.matters.table import TABLE, Mention


@dataclass(frozen=True, slots=True)
class Quote:
    """A unit the matter section shows; ``above``: already quoted earlier in this reply, so it is
    referred to (→ above), not quoted again."""

    unit: Unit
    above: bool = False


Pair = tuple[Quote, Quote]  # a unit quoted, and referred back to


@dataclass(frozen=True, slots=True)
class QuoteIndex:
    """A corpus's units as the matter reading quotes them, built once per corpus: each as its two
    quotations, indexed by the engine's values as numbers (a lookup by name folds its text)."""

    openings: tuple[Pair, ...]  # by General
    lines: tuple[Pair | None, ...]  # by General × 12 + the 地盤 Branch
    excludes: tuple[bool, ...]  # by General × 12 + Branch: the opening's （不加…）
    verses: tuple[Pair | None, ...]  # by PatternName
    mentions: Mapping[Matter, tuple[tuple[Mention, Pair], ...]]  # the matter's R7 lines

    @classmethod
    def of(cls, texts: Corpus) -> QuoteIndex:
        held = _KEPT.get(id(texts))
        if held is not None and held[0] is texts:
            return held[1]

        def pair(unit: Unit | None) -> Pair | None:
            return None if unit is None else (Quote(unit), Quote(unit, above=True))

        openings = tuple((Quote(u), Quote(u, above=True)) for u in (texts.get(f"general.{g}") for g in General))
        index = cls(
            openings,
            tuple(pair(texts.general_on(g, b)) for g in General for b in BRANCHES),
            tuple(b.name in o[0].unit.excludes for o in openings for b in BRANCHES),
            tuple(pair(texts.pattern(n.name)) for n in PatternName),
            {r.matter: tuple((m, (Quote(u := texts.get(m.unit)), Quote(u, True))) for m in r.mentions) for r in TABLE},
        )
        if len(_KEPT) > 8:  # a test's own corpora: keep a few, not every one
            _KEPT.clear()
        _KEPT[id(texts)] = (texts, index)
        return index


_KEPT: dict[int, tuple[Corpus, QuoteIndex]] = {}


def quote(pair: Pair, quoted: set[str]) -> Quote:
    """The unit quoted, the first time in a reply; after that referred back to."""
    fresh = pair[0]
    if fresh.unit.id in quoted:
        return pair[1]
    quoted.add(fresh.unit.id)
    return fresh
