"""Is a quotation of the 《心印賦》 verbatim, and where does it stand?

``verify_quote`` judges one quotation (any of 繁/简/日 forms; punctuation and spaces ignored,
texts/corpus/sources.py) against the original, optionally at the seed ¶ it claims:

- ``verbatim``: in the original, at the claimed ¶ (or none was claimed);
- ``elsewhere``: in the original, but not at the claimed ¶ (``paragraphs`` says where);
- ``translation``: not in the original but in a translation, the seed's Japanese or the project's
  English (``source`` says which): a translation quoted as the original;
- ``altered``: close to a passage (at least ``CLOSE`` of its characters agree) but not the same;
  ``diff`` marks the characters that differ;
- ``absent``: nothing in the text is close.

    >>> verify_quote("元首象天，重審法地。", 139).verdict
    'verbatim'
    >>> verify_quote("元首象天，重审法地", 141).verdict, verify_quote("元首象天", 1).paragraphs
    ('verbatim', (139,))
    >>> j = verify_quote("元首象天，重審法海。")
    >>> j.verdict, j.diff.marked_quote, j.diff.marked_passage
    ('altered', '元首象天，重審法【海】。', '元首象天，重審法【地】')
    >>> verify_quote("天下無難事", None).verdict
    'absent'
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from texts.corpus.sources import SOURCES, Source, Text, fold, fold_char, pairs, paragraph, source

MAX_QUOTE = 2000  # characters of a quotation (a page of the text); longer ones are refused
CLOSE = 0.6  # the share of characters a passage and a quotation share to be "altered", not "absent"
_COMMON = 300  # a pair of characters found more often than this is no clue where a quotation stands
_TRIES = 3  # the places (by shared pairs of characters) compared in full with a quotation


class QuoteError(ValueError):
    """A quotation that cannot be checked (empty, or too long); the message says which."""


@dataclass(frozen=True, slots=True)
class Diff:
    """Where a quotation and the closest passage differ, each with its differing characters in 【】."""

    marked_quote: str
    marked_passage: str
    similarity: float


@dataclass(frozen=True, slots=True)
class Judgement:
    """What a quotation is: ``verdict`` (see the module), the ``source`` it was found in, the
    ``passage`` as written there, the ``units`` (ids) and seed ``paragraphs`` that hold it, the
    ¶ it ``claimed``, and for ``altered`` the ``diff``."""

    quote: str
    verdict: str
    source: Source | None
    passage: str
    units: tuple[str, ...]
    paragraphs: tuple[int, ...]
    claimed: int | None
    diff: Diff | None = None


def _where(text: Text, start: int, end: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
    units = text.units_at(start, end)
    found = (paragraph(u, text.source) for u in units)
    return tuple(u.id for u in units), tuple(dict.fromkeys(p for p in found if p is not None))


def _at_claimed(text: Text, span: tuple[int, int], claimed: int) -> bool:
    return any(claimed in u.lines for u in text.units_at(*span))


def _verbatim(quote: str, needle: str, claimed: int | None) -> Judgement | None:
    for which in SOURCES:
        text = source(which)
        spans = text.find(needle)
        if not spans:
            continue
        if which == "original":
            at = [s for s in spans if claimed is not None and _at_claimed(text, s, claimed)]
            span = at[0] if at else spans[0]
            verdict = "verbatim" if claimed is None or at else "elsewhere"
        else:
            span, verdict = spans[0], "translation"
        units, paragraphs = _where(text, *span)
        if verdict == "elsewhere":  # every place it stands, not only the first
            places = [_where(text, *s) for s in spans]
            units = tuple(dict.fromkeys(u for us, _ in places for u in us))
            paragraphs = tuple(dict.fromkeys(p for _, ps in places for p in ps))
        return Judgement(quote, verdict, which, text.written(*span), units, paragraphs, claimed)
    return None


def _offsets(text: Text, needle: str) -> list[tuple[int, int]]:
    """Where ``needle`` most likely starts in ``text``: (shared pairs of characters, offset), the
    offsets most of its pairs agree on first."""
    votes: Counter[int] = Counter()
    index = pairs(text.source)
    for i in range(len(needle) - 1):
        places = index.get(needle[i : i + 2], ())
        if len(places) <= _COMMON:
            votes.update(start - i for start in places)
    return [(count, offset) for offset, count in votes.most_common(_TRIES)]


def _closest(needle: str) -> tuple[float, Source, int, int]:
    """The best (similarity, source, start, end) of a passage against ``needle``: only the places
    most pairs of characters point to are compared in full (difflib), so a long quotation costs a
    few comparisons, not one per source and place."""
    places = sorted(((votes, which, offset) for which in SOURCES for votes, offset in _offsets(source(which), needle)),
                    reverse=True)[:_TRIES]
    best: tuple[float, Source, int, int] = (0.0, "original", 0, 0)
    slack = max(2, len(needle) // 8)
    for votes, which, offset in places:
        if votes < (len(needle) - 1) * CLOSE / 2:  # too few shared pairs to reach CLOSE
            break
        text = source(which)
        lo, hi = max(0, offset - slack), min(len(text.folded), offset + len(needle) + slack)
        matcher = difflib.SequenceMatcher(None, needle, text.folded[lo:hi], autojunk=False)
        shared = sum(b.size for b in matcher.get_matching_blocks())
        if not shared:
            continue
        start, end = _trimmed(matcher.get_opcodes())
        score = 2 * shared / (len(needle) + end - start)
        if score > best[0]:
            best = (score, which, lo + start, lo + end)
    return best


def _trimmed(opcodes: Sequence[tuple[str, int, int, int, int]]) -> tuple[int, int]:
    """The span of the window a quotation covers: the window's characters before its first and
    after its last are left out, and a change at either end takes no more than the quotation has."""
    ops = [op for op in opcodes if op[0] != "insert"] or opcodes
    tag, a1, a2, b1, _ = ops[0]
    start = b1 if tag != "replace" else max(b1, ops[0][4] - (a2 - a1))
    tag, a1, a2, _, b2 = ops[-1]
    end = b2 if tag != "replace" else min(b2, ops[-1][3] + (a2 - a1))
    return start, end


def _marked(quote: str, text: Text, needle: str, start: int, end: int, score: float) -> Diff:
    """The quotation and the passage, each with the characters the other lacks in 【】."""
    matcher = difflib.SequenceMatcher(None, needle, text.folded[start:end], autojunk=False)
    quote_kept = [i for i, ch in enumerate(quote) if fold_char(ch)]  # quote[kept[k]] is needle[k]
    same_quote = [False] * len(needle)
    same_passage = [False] * (end - start)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            same_quote[block.a + k] = True
            same_passage[block.b + k] = True
    differs_quote = {quote_kept[k] for k, same in enumerate(same_quote) if not same}
    differs_passage = {text.origin[start + k] for k, same in enumerate(same_passage) if not same}
    first, last = text.origin[start], text.origin[end - 1] + 1
    return Diff(_bracket(quote, 0, differs_quote), _bracket(text.raw[first:last], first, differs_passage), score)


def _bracket(written: str, base: int, differs: set[int]) -> str:
    # a bracket opens before a differing character and closes after the last of a run, so the
    # punctuation after a run stays outside it
    kept = [i for i, ch in enumerate(written) if fold_char(ch)]
    marked = {i for i in kept if base + i in differs}
    opens = {i for n, i in enumerate(kept) if i in marked and (n == 0 or kept[n - 1] not in marked)}
    closes = {i for n, i in enumerate(kept) if i in marked and (n + 1 == len(kept) or kept[n + 1] not in marked)}
    out: list[str] = []
    for i, ch in enumerate(written):
        if i in opens:
            out.append("【")
        out.append(ch)
        if i in closes:
            out.append("】")
    return "".join(out)


def verify_quote(quote: str, claimed_paragraph: int | None = None) -> Judgement:
    """The judgement of ``quote`` (at the seed ¶ ``claimed_paragraph``, if given); QuoteError when
    it holds no character to compare or is longer than MAX_QUOTE."""
    if len(quote) > MAX_QUOTE:
        raise QuoteError(f"the quotation is {len(quote)} characters long; give at most {MAX_QUOTE}")
    needle = fold(quote)
    if not needle:
        raise QuoteError("the quotation is empty: give the words quoted (punctuation and spaces are ignored)")
    found = _verbatim(quote, needle, claimed_paragraph)
    if found is not None:
        return found
    score, which, start, end = _closest(needle)
    if score < CLOSE:
        return Judgement(quote, "absent", None, "", (), (), claimed_paragraph)
    text = source(which)
    units, paragraphs = _where(text, start, end)
    diff = _marked(quote, text, needle, start, end, round(score, 3))
    return Judgement(quote, "altered", which, text.written(start, end), units, paragraphs, claimed_paragraph, diff)
