"""Every output of every classical chart is in the reader's script: the general reading and the
matter section of each of the 15 matters, in zh-TW, zh-CN and English (tests/test_scripts.py's
check, over all 1,440 charts × 15 matters).

A Chinese reader is not shown the seed's Japanese translation, so in zh-TW and zh-CN only the
classical original may be quoted as written, and the translation's words only where marked as the
translation's (〔譯〕); an English reader is shown the Japanese translation whole, and its words quoted
where the line says they are the Japanese. A name quoted bare ("Named 「焼身」") is checked like any
other word.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from engine.classical import classical_charts
from engine.facts import facts
from engine.school import DEFAULT_SCHOOL
from texts.corpus import corpus
from texts.corpus.scripts import foreign, foreign_char
from texts.matters.recognise import MATTERS
from texts.matters.sentences import render_matters
from texts.matters.values import answer
from texts.reading.sentences import render_reading
from texts.words import LANGS, Lang, text, words

CHINESE_AND_ENGLISH: tuple[Lang, ...] = ("zh-TW", "zh-CN", "en")
QUOTE = re.compile(r"「([^「」]*)」")


@cache
def _shown(lang: Lang) -> tuple[str, ...]:
    """The seed texts a reader of ``lang`` is shown whole: the originals (with each language's
    slip mark), and for English also the Japanese translations."""
    units = corpus().units
    shown = [t for u in units for t in (u.original, u.display_original)]
    if lang == "en":
        shown += [t for u in units for t in (u.translation, u.display_translation)]
    for each in LANGS:
        sic = words()[each]["reading.sic"]
        shown += [t.replace("〔ママ〕", sic) for t in shown if "〔ママ〕" in t]
    return tuple(sorted(dict.fromkeys(t for t in shown if len(t) > 3), key=len, reverse=True))


@cache
def _whole(lang: Lang) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, _shown(lang))))


@cache
def _haystacks() -> tuple[str, str]:
    """The originals, and the Japanese translations, each joined by 「 (no fragment holds one)."""
    units = corpus().units
    return "「".join(u.original for u in units), "「".join(u.translation for u in units)


@cache
def _translated_marks() -> tuple[str, ...]:
    """What every language writes before a fragment of the Japanese translation it quotes."""
    return tuple(dict.fromkeys(text("matter.translated", lang) for lang in LANGS))


def _from(fragment: str, haystack: str) -> bool:
    parts = [p for p in re.split(r"[…〔〕]", fragment) if p]
    return bool(parts) and all(p in haystack for p in parts)


def unquoted(said: str, lang: Lang) -> str:
    """``said`` without what the reader is shown of the seed as written: the whole texts, a
    fragment of the original in 「…」, and (English) a fragment of the translation after its mark."""
    said = _whole(lang).sub("", said)
    originals, translations = _haystacks()

    def keep(m: re.Match[str]) -> str:
        fragment = m.group(1)
        if _from(fragment, originals):
            return ""
        line = said[said.rfind("\n", 0, m.start()) + 1 : m.start()].rstrip()
        marked = line.endswith(_translated_marks()) or (lang == "en" and "Japanese" in line)
        return "" if marked and _from(fragment, translations) else m.group(0)

    return QUOTE.sub(keep, said)


def _wrong_lines(shown: str, lang: Lang) -> list[str]:
    return [f"{foreign(line, lang)}: {line.strip()}" for line in shown.splitlines() if foreign(line, lang)]


def test_the_check_finds_a_japanese_name_in_a_matter_line() -> None:
    assert _wrong_lines(unquoted("※ 名曰「焼身」", "zh-TW"), "zh-TW")
    assert _wrong_lines(unquoted("※ Named 「焼身」", "en"), "en")
    assert not _wrong_lines(unquoted("※ Named 「燒身」", "en"), "en")
    assert not _wrong_lines(unquoted("¶117 [the seed's Japanese translation] 「人物の類神は婦人」", "en"), "en")
    assert _wrong_lines(unquoted("¶117 「人物の類神は婦人」", "zh-TW"), "zh-TW")


@pytest.mark.slow  # about 20 s: 1,440 charts × 15 matters × 3 languages
def test_every_output_of_every_chart_and_matter_speaks_the_readers_script() -> None:
    wrong: dict[tuple[Lang, str], str] = {}
    in_script: dict[Lang, set[str]] = {lang: set() for lang in CHINESE_AND_ENGLISH}
    for chart in classical_charts(DEFAULT_SCHOOL):
        known = facts(chart)
        replies = [answer(chart, known, matter=m) for m in MATTERS]
        for lang in CHINESE_AND_ENGLISH:
            said = [render_reading(replies[0].reading, lang)]
            said += [render_matters(r.matters, lang) for r in replies]
            shown = unquoted("\n".join(said), lang)
            new = set(shown) - in_script[lang]
            if not any(foreign_char(ch, lang) for ch in new):
                in_script[lang] |= new
                continue
            for line in _wrong_lines(shown, lang):
                wrong.setdefault((lang, line.split(":")[0]), f"{chart.day} {chart.yuejiang} {chart.hour}: {line}")
    assert not wrong, "\n".join(f"{lang}: {where}" for (lang, _), where in wrong.items())
