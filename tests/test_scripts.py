"""Every CJK string the project writes is in the reader's script: zh-TW traditional,
zh-CN simplified, English the classical original's forms; no Japanese-only form and no kana outside
the quotations of the seed (its original and its Japanese translation, shown as written)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest

from engine.calendar import TERM_NAMES
from engine.classical import classical_charts
from engine.facts import facts
from engine.school import DEFAULT_SCHOOL
from engine.terms import GENERALS, PatternName
from texts.cli.cast import chart_json
from texts.cli.find import find_charts
from texts.corpus import corpus
from texts.corpus.normalize import normalize
from texts.corpus.scripts import foreign, foreign_char, japanese_only, japanese_only_characters, simplified_ok
from texts.picture.alt import alt_text
from texts.picture.glyphs import measure
from texts.picture.layout import layout, texts_of
from texts.reading import read
from texts.reading.sentences import render_reading
from texts.render import render_text
from texts.words import LANGS, Lang, corpus_name, short, solar_term, words

CHINESE_AND_ENGLISH: tuple[Lang, ...] = ("zh-TW", "zh-CN", "en")
# The locale files of the terminal, the picture, the reading, the bot, the quiz board and the
# matter asked, the corpus lookup (tests/test_lookup_words.py: its output and notes).
CHECKED_FILES = ("terms", "core", "render", "picture", "cli", "reading", "why", "bot", "quiz", "matter", "lookup")
QUOTE = re.compile(r"「([^「」]*)」")


@cache
def seed_texts() -> tuple[str, ...]:
    """The seed as the corpus holds it and shows it: originals and translations, with their marks
    (a slip's 〔ママ〕 also as each language writes it, the reading's ``reading.sic``)."""
    shown = [t for u in corpus().units for t in (u.original, u.translation, u.display_original, u.display_translation)]
    for lang in LANGS:
        sic = words()[lang].get("reading.sic")
        if sic is not None:
            shown += [t.replace("〔ママ〕", sic) for t in shown if "〔ママ〕" in t]
    return tuple(sorted(dict.fromkeys(t for t in shown if len(t) > 3), key=len, reverse=True))


@cache
def _seed_pattern() -> re.Pattern[str]:
    """The seed texts as one alternation, longest first, so at each place the longest shown text
    there goes before the texts inside it; grouped by first character, which matches as the flat
    alternation does (a place's other groups cannot match). Quicker than a
    ``str.replace`` per seed text, which it differs from only where two seed texts overlap in a text
    or taking one out joins another; on every text these tests check both give the same."""
    groups: dict[str, list[str]] = {}
    for seed in seed_texts():
        groups.setdefault(seed[0], []).append(seed[1:])
    alternatives = (f"{re.escape(first)}(?:{'|'.join(map(re.escape, rest))})" for first, rest in groups.items())
    return re.compile("|".join(alternatives))


@cache
def _seed_haystack() -> str:
    """The seed texts joined by 「, which no quoted fragment holds: a fragment is in one of them
    exactly when it is in this."""
    return "「".join(seed_texts())


def _quoted_from_seed(fragment: str) -> bool:
    parts = [p for p in re.split(r"[…〔〕]", fragment) if p]
    return bool(parts) and all(p in _seed_haystack() for p in parts)


def unquoted(text: str) -> str:
    """``text`` without the seed's own words: every shown original and translation, every 「…」 quoting them."""
    text = _seed_pattern().sub("", text)
    return QUOTE.sub(lambda m: "" if _quoted_from_seed(m.group(1)) else m.group(0), text)


def test_the_check_knows_the_forms_the_issue_names() -> None:
    for ch in "焼渉専伝体将歳戸駆内昼蔵髪抜鋳":
        assert japanese_only(ch) and foreign(ch, "zh-TW") == ch == foreign(ch, "en")
    for ch in "燒涉專傳體將歲戶驅內晝藏髮拔鑄為並即貴龍陰":
        assert not japanese_only(ch), ch
    assert foreign("貴龍陰焼戸駆渉", "zh-CN") == "貴龍陰焼戸駆渉"
    assert foreign("贵龙阴烧户驱涉内昼", "zh-CN") == ""
    assert foreign("伏吟・自任 とする", "en") == "・とする"
    assert foreign("焼身", "ja") == ""
    only = japanese_only_characters()
    assert 300 < len(only) < 400 and {"伝", "内", "戸"} <= only and not {"為", "並", "即"} & only


def _flat(lang: Lang) -> Iterator[tuple[str, str]]:
    from texts.words import LOCALES, read_file

    for name in CHECKED_FILES:
        for key, value in read_file(LOCALES / lang / f"{name}.toml").items():
            yield f"{name}.toml {key}", value


@pytest.mark.parametrize("lang", CHINESE_AND_ENGLISH)
def test_every_word_is_in_the_readers_script(lang: Lang) -> None:
    wrong = {key: bad for key, value in _flat(lang) if (bad := foreign(unquoted(value), lang))}
    assert not wrong, wrong


def test_the_name_tables_cover_every_name_in_its_script() -> None:
    names = {n: u for u in corpus().units for n in u.names}
    assert len(names) > 100
    for lang in LANGS:
        table = {k.split(".", 1)[1]: v for k, v in words()[lang].items() if k.startswith("name.")}
        assert table.keys() == names.keys(), lang
        for key, form in table.items():
            assert normalize(form) == normalize(key), (lang, key, form)
            assert corpus_name(key, lang) == form
            if lang == "ja":
                assert form == key
            elif lang == "zh-CN":
                assert all(simplified_ok(c) for c in form), (key, form)
            else:  # zh-TW and English: the name as the classical original writes it
                assert form in names[key].original, (lang, key, form)
    assert corpus_name("焼身", "zh-TW") == "燒身" == corpus_name("焼身", "en")
    assert corpus_name("焼身", "zh-CN") == "烧身"


def test_the_one_character_generals_and_the_solar_terms_have_a_form_in_each_script() -> None:
    for lang in LANGS:
        assert {k.split(".", 1)[1] for k in words()[lang] if k.startswith("short.")} == {g.name for g in GENERALS}
        assert {k.split(".", 1)[1] for k in words()[lang] if k.startswith("solar_term.")} == set(TERM_NAMES)
    assert [short(g, "zh-CN") for g in GENERALS] == list("贵蛇雀合勾龙空虎常玄阴后")
    assert [short(g, "ja") for g in GENERALS] == [g.short for g in GENERALS]
    assert [solar_term(t, "zh-TW") for t in ("処暑", "小満", "穀雨")] == ["處暑", "小滿", "穀雨"]
    assert [solar_term(t, "zh-CN") for t in ("処暑", "小満", "穀雨")] == ["处暑", "小满", "谷雨"]


def _json_text(data: object) -> list[str]:
    """The human text of the JSON output: each reason's ``text``, the reading's notes and labels."""
    said: list[str] = []

    def walk(data: object) -> None:  # into one list, not a generator per level
        if isinstance(data, dict):
            for key, value in data.items():
                if key in ("text", "label") and isinstance(value, str):
                    said.append(value)
                elif key == "notes" and isinstance(value, list):
                    said.extend(v for v in value if isinstance(v, str))
                else:
                    walk(value)
        elif isinstance(data, list):
            for value in data:
                walk(value)

    walk(data)
    return said


# Characters found in a reader's script, by language (the sweep asked foreign_char of the
# same few hundred characters 4,320 times; a character's script does not change between charts).
_IN_SCRIPT: dict[Lang, set[str]] = {lang: set() for lang in CHINESE_AND_ENGLISH}


def _has_foreign(shown: str, lang: Lang) -> bool:
    """``any(foreign_char(ch, lang) for ch in set(shown))``, asking only of characters not seen before."""
    new = set(shown) - _IN_SCRIPT[lang]
    if any(foreign_char(ch, lang) for ch in new):
        return True
    _IN_SCRIPT[lang] |= new
    return False


@pytest.mark.slow  # over a second on the project's machine
def test_all_1440_charts_speak_the_readers_script() -> None:
    """render + reading + JSON text in zh-TW, zh-CN and English, for every classical chart; the
    picture's texts and alt text for every fifth (they draw the same labels and terms)."""
    wrong: dict[tuple[Lang, str], str] = {}
    for i, chart in enumerate(classical_charts(DEFAULT_SCHOOL)):
        known = facts(chart)
        reading = read(chart, known)
        for lang in CHINESE_AND_ENGLISH:
            said = [render_text(chart, lang, known=known), render_reading(reading, lang)]
            said += _json_text(chart_json(chart, known, lang, reading))
            if i % 5 == 0:
                said += [texts_of(layout(chart, lang, measure).items), alt_text(chart, lang)]
            shown = unquoted("\n".join(said))
            if _has_foreign(shown, lang):
                for line in shown.splitlines():
                    bad = foreign(line, lang)
                    if bad and (lang, bad) not in wrong:
                        wrong[lang, bad] = f"{chart.day} {chart.yuejiang} {chart.hour}: {line.strip()}"
    assert not wrong, "\n".join(f"{lang} {bad}: {where}" for (lang, bad), where in wrong.items())


@pytest.mark.parametrize("lang", CHINESE_AND_ENGLISH)
def test_find_names_what_was_asked_in_the_readers_script(lang: Lang) -> None:
    for pattern in (PatternName.鋳印, PatternName.斬関):
        lines = find_charts(pattern.name, DEFAULT_SCHOOL, lang)
        assert len(lines) > 1 and not foreign("\n".join(lines), lang), lines[-1]
    last = find_charts("鋳印", DEFAULT_SCHOOL, "zh-TW")[-1]
    assert last.startswith("鑄印：") and find_charts("铸印", DEFAULT_SCHOOL, "zh-TW")[-1] == last
