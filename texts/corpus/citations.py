"""Every quotation and ¶ reference of a text (an assistant's draft, an essay), each judged.

A quotation is what stands in 「」, 『』, “” or "" and has at least ``MIN_QUOTE`` characters to
compare (shorter ones name a term, not a passage). A ¶ reference (``¶139``, ``¶ 139``) right after
a quotation, or right before it, is the ¶ the quotation claims (within ``NEAR`` characters, e.g.
``「…」（¶139）`` or ``¶139「…」``); each quotation is judged by ``verify_quote``. At most
``MAX_QUOTES`` quotations and ``MAX_QUOTED`` characters of them are judged; the rest are counted
(``unchecked``), and a text over ``MAX_TEXT`` is refused. A ¶ reference that claims no quotation
is judged on its own: the seed has that ¶ with text of the 《心印賦》, or not.

    >>> report = check_citations("「元首象天，重審法地」（¶139）と「元首象天，重審法海」。Compare ¶999 and ¶141.")
    >>> [q.judgement.verdict for q in report.quotes], [(r.paragraph, r.exists) for r in report.references]
    (['verbatim', 'altered'], [(999, False), (141, True)])
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from texts.corpus.book import corpus
from texts.corpus.sources import fold
from texts.corpus.verify import MAX_QUOTE, Judgement, QuoteError, verify_quote

MAX_TEXT = 100_000  # characters of a text checked at once (a long essay); longer texts are refused
MAX_QUOTES = 200  # quotations judged in one text; the rest are counted, not judged
MAX_QUOTED = 20_000  # characters of quotations judged in one text (bounds the work); the rest are counted
MIN_QUOTE = 4  # characters (as compared) a quotation needs to be checked as a passage
NEAR = 8  # characters between a quotation and the ¶ reference it carries

_QUOTE = re.compile(r"「([^「」]*)」|『([^『』]*)』|“([^“”]*)”|\"([^\"]*)\"")
_PARAGRAPH = re.compile(r"¶\s*(\d{1,6})")


@dataclass(frozen=True, slots=True)
class Quoted:
    """A quotation of the text: where it stands (``start``, ``end``: the marks included) and its judgement."""

    start: int
    end: int
    judgement: Judgement


@dataclass(frozen=True, slots=True)
class Reference:
    """A ¶ reference that claims no quotation: its place, its number, and whether the seed has that ¶."""

    start: int
    paragraph: int
    exists: bool


@dataclass(frozen=True, slots=True)
class Report:
    """The judged quotations and the lone ¶ references of a text, in order; ``unchecked``: the
    quotations past ``MAX_QUOTES`` or ``MAX_QUOTED``, counted only."""

    quotes: tuple[Quoted, ...]
    references: tuple[Reference, ...]
    unchecked: int = 0


def _claim(text: str, start: int, end: int, refs: list[re.Match[str]], taken: set[int]) -> re.Match[str] | None:
    refs = [r for r in refs if r.start() not in taken]  # a ¶ after one quotation is not the next one's
    after = [r for r in refs if 0 <= r.start() - end <= NEAR and "\n" not in text[end : r.start()]]
    before = [r for r in refs if 0 <= start - r.end() <= NEAR and "\n" not in text[r.end() : start]]
    return after[0] if after else (before[-1] if before else None)


def check_citations(text: str) -> Report:
    """The report on ``text``; QuoteError when it is longer than MAX_TEXT characters."""
    if len(text) > MAX_TEXT:
        raise QuoteError(f"the text is {len(text)} characters long; check at most {MAX_TEXT} at once")
    refs = list(_PARAGRAPH.finditer(text))
    claimed: set[int] = set()
    quotes: list[Quoted] = []
    unchecked = 0
    budget = MAX_QUOTED
    for match in _QUOTE.finditer(text):
        inner = next(g for g in match.groups() if g is not None)
        if len(fold(inner)) < MIN_QUOTE or len(inner) > MAX_QUOTE:
            continue  # a term, not a passage; or longer than a quotation is checked
        if len(quotes) == MAX_QUOTES or len(inner) > budget:
            unchecked += 1
            continue
        budget -= len(inner)
        ref = _claim(text, match.start(), match.end(), refs, claimed)
        if ref is not None:
            claimed.add(ref.start())
        judgement = verify_quote(inner, None if ref is None else int(ref.group(1)))
        quotes.append(Quoted(match.start(), match.end(), judgement))
    lone = tuple(
        Reference(r.start(), int(r.group(1)), bool(corpus().paragraph(int(r.group(1)))))
        for r in refs
        if r.start() not in claimed
    )
    return Report(tuple(quotes), lone, unchecked)


__all__ = ["MAX_TEXT", "QuoteError", "Quoted", "Reference", "Report", "check_citations"]
