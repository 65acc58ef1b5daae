"""Recognition's faster scan reads every question as the plain scan of §9.4 does.

texts/matters/recognise.py normalises a question of PLAIN characters one character at a time, and finds the
places a word may start with one regular expression instead of looking at every character. Here
the first is checked against unicodedata for every such character and for random strings, and the
scan against the plain left-to-right scan (written out below as the reference) on questions made
of keywords, their neighbours and Latin words.
"""

from __future__ import annotations

import random
import re
import sys
import unicodedata

import pytest

from texts.matters.recognise import MATTERS, PLAIN, Found, Matter, _folded, _is_latin, keywords, nfkc, recognise


def _plain_characters() -> list[str]:
    return [c for c in map(chr, range(0x10000)) if re.fullmatch(PLAIN, c)]


def _composition_seconds() -> set[str]:
    """Every character that canonical composition joins to the one before it: the second of each
    two-character canonical decomposition, and the Hangul vowels and final consonants."""
    seconds = {chr(c) for c in (*range(0x1161, 0x1176), *range(0x11A8, 0x11C3))}
    for code in range(sys.maxunicode + 1):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            seconds.add(chr(int(parts[1], 16)))
    return seconds


def test_plain_characters_normalise_one_by_one() -> None:
    plain = _plain_characters()
    assert len(plain) > 20000
    seconds = _composition_seconds()
    for c in plain:
        shown = unicodedata.normalize("NFKC", c)
        assert nfkc(c) == shown and len(shown) == 1, hex(ord(c))
        assert unicodedata.combining(c) == 0 and unicodedata.combining(shown) == 0, hex(ord(c))
        assert c not in seconds and shown not in seconds, hex(ord(c))  # nothing composes with them


def test_nfkc_is_unicodedatas_on_random_strings() -> None:
    rng = random.Random(18)
    plain = _plain_characters()
    others = ["\u0301", "\u3099", "ｶ", "ﾞ", "ㄱ", "ㅏ", "é", "e", "Å", "ﬁ", "①", "\u00a0", "가", "\u11a8"]
    for _ in range(3000):
        pool = plain if rng.random() < 0.6 else plain[:200] + others
        text = "".join(rng.choice(pool) for _ in range(rng.randrange(0, 12)))
        assert nfkc(text) == unicodedata.normalize("NFKC", text), ascii(text)


def _reference(question: str) -> tuple[Found, ...]:
    """§9.4's scan as first written: every place, the longest word starting there."""
    table = keywords()
    lengths: dict[str, set[int]] = {}
    for w in table.words:
        lengths.setdefault(w.folded[0], set()).add(len(w.folded))
    longest = {c: sorted(n, reverse=True) for c, n in lengths.items()}
    by_folded = {w.folded: w for w in table.words}
    shown = unicodedata.normalize("NFKC", question)
    text, source = _folded(shown)
    found: dict[Matter, dict[str, None]] = {}
    i = 0
    while i < len(text):
        starting = longest.get(text[i])
        if starting is None or (i and _is_latin(text[i - 1]) and _is_latin(text[i])):
            i += 1
            continue
        w = None
        for n in starting:
            w = by_folded.get(text[i : i + n])
            if w is not None and w.latin:
                end = i + n
                if (i and _is_latin(text[i - 1])) or (end < len(text) and _is_latin(text[end])):
                    w = None
            if w is not None:
                break
        if w is None:
            i += 1
            continue
        end = i + len(w.folded)
        if w.matter is not None:
            words = shown[i:end] if source is None else shown[source[i] : source[end - 1] + 1]
            found.setdefault(w.matter, {})[words] = None
        i = end
    return tuple(Found(m, tuple(found[m])) for m in MATTERS if m in found)


def _pieces() -> list[str]:
    table = keywords()
    written = [w.written for w in table.words]
    wide = ["".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in w) for w in written if w.isascii()]
    return [*written, *wide, *(w[:-1] for w in written if len(w) > 1), *(w[1:] for w in written if len(w) > 1),
            "a", "x", "ing", "s", "7", "é", "-", "'", " ", "  ", "\u3000", "、", "？", "?", "。", "の", "ー", "\t",
            "\u0301", "ｶﾞ", "Ⅻ", "ﬁ", "Straße", "ŉ"]


@pytest.mark.slow  # 9,000 questions, over a second
@pytest.mark.parametrize("seed", range(6))
def test_the_scan_reads_questions_as_the_plain_scan(seed: int) -> None:
    rng = random.Random(seed)
    pieces = _pieces()
    for _ in range(1500):
        question = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 7)))
        assert recognise(question) == _reference(question), question


def test_full_width_words_are_given_as_nfkc_writes_them() -> None:
    assert recognise("Ｗｉｌｌ my father ｒｅｃｏｖｅｒ from his ｉｌｌｎｅｓｓ？") == (
        Found(Matter.illness, ("recover", "illness")),
    )
    assert recognise("財布をなくしました。見つかりますか？") == _reference("財布をなくしました。見つかりますか？")
