"""Folding of character variants, so a lookup accepts simplified, traditional and Japanese forms.

The seed writes its classical text in traditional forms (三傳, 八專, 遙克, 青龍) and its translation
in Japanese forms (三伝, 八専, 遥剋, 青竜); the engine and docs/rules.md use the Japanese ones, and a reader
of 简体中文 types 三传, 八专, 青龙. Lookups compare ``normalize(a) == normalize(b)`` (or look for
``normalize(a)`` inside ``normalize(b)``): the folded string is only ever compared, never shown.

How a character folds: NFKC, then the domain's own table (the pairs below), then OpenCC's
Japanese → traditional and traditional → simplified dictionaries. OpenCC is the converter the
Chinese-language world maintains for exactly this (the ``opencc`` package on PyPI is the project's
own binding, with wheels; the pure-Python re-implementations lag its dictionaries by years).

Each character is folded on its own, never as part of a phrase. OpenCC's phrase tables pick a
form by context (乾 stays 乾 in one phrase and becomes 干 in another), which would make a term
fold differently alone than inside the text that contains it; character by character,
``normalize(a + b) == normalize(a) + normalize(b)`` holds, so a substring of the text is always
found. The folded form of each character is computed once and kept.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from texts.memo import remember

if TYPE_CHECKING:
    import opencc

# The domain's own table: variant → the form it folds to, applied before OpenCC. These are the
# pairs OpenCC's character tables do not join (each is checked in tests/test_corpus_lookup.py);
# the first group are the casting terms, listed even where OpenCC also joins them, so that they
# fold whatever OpenCC's dictionaries become.
_DOMAIN: tuple[tuple[str, str], ...] = (
    # the terms of the casting rules
    ("克", "剋"), ("尅", "剋"), ("傳", "伝"), ("传", "伝"), ("將", "将"), ("专", "専"), ("專", "専"),
    ("發", "発"), ("发", "発"), ("龍", "竜"), ("龙", "竜"), ("遙", "遥"), ("涉", "渉"), ("彈", "弾"),
    ("弹", "弾"), ("醜", "丑"),  # ¶159 九丑 is docs/rules.md §7 九醜
    # names of ¶91–¶131 whose variants OpenCC leaves apart (classical / translation / simplified)
    ("篷", "蓬"), ("劔", "剣"), ("劒", "剣"), ("妝", "粧"), ("妆", "粧"), ("戶", "戸"), ("户", "戸"),
    ("躶", "裸"), ("偷", "偸"), ("舉", "挙"), ("擧", "挙"), ("举", "挙"), ("鬥", "闘"), ("鬭", "闘"),
    ("鄉", "郷"), ("乡", "郷"), ("齧", "嚙"),
)
_DOMAIN_MAP = dict(_DOMAIN)


@remember()
def _converters() -> tuple[opencc.OpenCC, opencc.OpenCC]:
    # Loaded on first use (a few ms), not at import: `import texts` stays cheap (the
    # module too, which a cast that folds no text never needs).
    import opencc

    return opencc.OpenCC("jp2t.json"), opencc.OpenCC("t2s.json")


def fold_char(ch: str) -> str:
    """The form one character is compared in (``fold_char("傳") == fold_char("传") == fold_char("伝")``)."""
    ch = _DOMAIN_MAP.get(ch, ch)
    jp2t, t2s = _converters()
    folded: str = t2s.convert(jp2t.convert(ch))
    return folded


class _FoldTable(dict[int, str]):
    """A ``str.translate`` table that folds each character the first time it is seen."""

    def __missing__(self, code: int) -> str:
        folded = fold_char(chr(code))
        self[code] = folded
        return folded


_FOLD = _FoldTable()


def normalize(term: str) -> str:
    """The form ``term`` is compared in: NFKC, no white space, each character's variants folded.

    ``normalize("三傳") == normalize("三伝") == normalize("三传")``,
    ``normalize("八專") == normalize("八専") == normalize("八专")``,
    ``normalize("遙克") == normalize("遥剋")``, ``normalize("青龍") == normalize("青竜") == normalize("青龙")``.
    """
    text = unicodedata.normalize("NFKC", term)
    return "".join(text.split()).translate(_FOLD)
