"""Where English readers read the project's English translation.

English readers see each quoted classical line, then the project's English translation labelled as
the project's, its editor's notes as marks, then the seed's Japanese labelled as the seed's: in the
reading of all 1,440 classical charts (60 days × 12 plates, at 午 (晝) and 子 (夜)), in a lookup
(``python -m texts`` and ``liuren lookup``), in the quiz's explanations and in the JSON. The
expectations are built here from the data (texts/translations/en, texts/corpus.toml) and the
locale words, not from the code under test. Japanese readers' output is the one it always was.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from engine import cast_classical
from engine.school import DEFAULT_SCHOOL
from testkit import classical
from texts.cli import main as liuren
from texts.cli.cast import reading_dict
from texts.cli.lookup import format_unit
from texts.cli.lookup import main as texts_main
from texts.corpus import Unit, corpus
from texts.corpus import shown as shown_units
from texts.corpus.scripts import foreign
from texts.corpus.shown import original, seed_lines, unit_lines, unit_translations
from texts.corpus.translations import NOTE_KINDS, Translation, english
from texts.quiz import Kind, Level, ask, explanation_lines, make_round, render_reveal
from texts.reading import Reading, read, sentences
from texts.reading.sentences import render_reading, role_label
from texts.render import render_text
from texts.words import LANGS, Lang, text, words

KANA = re.compile("[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
# Cast and read once per run, shared with other files, on first use (testkit/classical.py)
CHARTS = classical.charts(DEFAULT_SCHOOL)
READINGS = classical.readings(DEFAULT_SCHOOL)
LABEL_EN = "English (this project's translation): "
LABEL_JA = "Japanese (the seed's translation): "
MARK = {  # the mark each kind of translator's note is shown with in English
    "from-original": "[translated from the original] ",
    "from-japanese": "[translated from the Japanese] ",
    "broken": "[broken character] ",
    "obscure": "[obscure] ",
    "sic": "[sic] ",
}


def expected_under(unit: Unit) -> list[str]:
    """What an English reader must see under ``unit``'s original, from the data alone."""
    t = english(unit.id)
    assert isinstance(t, Translation), f"{unit.id} is quoted but has no English translation"
    lines = [LABEL_EN + t.text, *(MARK[n.kind] + n.says for n in t.notes)]
    if unit.translation:
        lines.append(LABEL_JA + unit.display_translation)
    return lines


def where(reading: Reading) -> tuple[str, str, str]:
    c = reading.chart
    return str(c.day), str(c.yuejiang), str(c.hour)


def outside_japanese(shown: str) -> Iterator[str]:
    """The lines of ``shown`` that are not the seed's Japanese translation shown to English readers."""
    return (line for line in shown.split("\n") if not line.strip().startswith(LABEL_JA))


# -- the words ---------------------------------------------------------------------------------------


def test_there_are_1440_readings() -> None:
    assert len(READINGS) == 1440 and len({where(r) for r in READINGS}) == 1440


def test_the_label_says_it_is_the_projects_translation() -> None:
    assert text("translation.line", "en", label=text("translation.label_en", "en"), words="") == LABEL_EN
    assert text("translation.line", "en", label=text("translation.label_ja", "en"), words="") == LABEL_JA
    for lang in LANGS:  # every language has the words (texts/words/__init__.py checks the keys agree)
        assert text("translation.label_en", lang) != text("translation.label_ja", lang)


def test_every_kind_of_note_has_a_mark_in_every_language() -> None:
    for lang in LANGS:
        for kind in NOTE_KINDS:
            assert text(f"translation.kind.{kind}", lang), (lang, kind)
    assert set(MARK) == set(NOTE_KINDS)
    for kind, mark in MARK.items():
        assert text("translation.mark", "en", kind=text(f"translation.kind.{kind}", "en"), says="") == mark


@pytest.mark.parametrize("lang", ("en", "zh-TW", "zh-CN"))
def test_the_words_are_in_the_readers_script(lang: Lang) -> None:
    ours = {k: v for k, v in words()[lang].items() if k.startswith("translation.")}
    assert ours and not any(KANA.search(v) or foreign(v, lang) for v in ours.values()), ours


# -- the reading of every chart ----------------------------------------------------------------------


def test_every_english_reading_has_the_english_under_each_quoted_line() -> None:
    quoted = with_notes = 0
    for reading in READINGS:
        lines = render_reading(reading, "en").split("\n")
        at = 0
        for entry in reading.entries:
            unit = entry.unit
            if unit is None:
                continue
            head = f"  【{role_label(entry, 'en')}】 {original(unit, 'en')}  ({seed_lines(unit)})"
            at = lines.index(head, at) + 1
            want = expected_under(unit)
            assert [s.strip() for s in lines[at : at + len(want)]] == want, (where(reading), unit.id)
            assert all(s.startswith("      ") for s in lines[at : at + len(want)])
            quoted += 1
            with_notes += bool(english(unit.id).notes)  # type: ignore[union-attr]
    assert quoted > 10 * len(READINGS) and with_notes > 1000  # every reading quotes several lines


@pytest.mark.slow  # over a second on the project's machine
def test_english_readings_have_no_kana_outside_the_japanese_lines() -> None:
    japanese_lines = 0
    for reading in READINGS:
        shown = render_text(reading.chart, "en", with_trace=False, with_patterns=False)
        shown += "\n" + render_reading(reading, "en")
        for line in outside_japanese(shown):
            assert not KANA.search(line), (where(reading), line)
        japanese_lines += sum(1 for line in shown.split("\n") if line.strip().startswith(LABEL_JA))
    assert japanese_lines > 10 * len(READINGS)


def test_japanese_readings_are_as_they_were() -> None:
    """The lines under a quoted original are the seed's translation alone, unlabelled (what
    texts/reading/sentences.py printed before the English translation); nothing of the English
    reaches a Japanese reader."""
    for reading in READINGS[::3]:
        lines = render_reading(reading, "ja").split("\n")
        shown = "\n".join(lines)
        at = 0
        for entry in reading.entries:
            unit = entry.unit
            if unit is None:
                continue
            at = lines.index(f"  【{role_label(entry, 'ja')}】 {unit.display_original}  ({seed_lines(unit)})", at) + 1
            if unit.translation:
                assert lines[at] == f"      {unit.display_translation}", (where(reading), unit.id)
                at += 1
            after = lines[at : at + 1]  # then what the reading says (※), or the next entry
            assert not after or after[0].startswith("      ※ ") or not after[0].startswith("      "), unit.id
            assert english(unit.id).text not in shown  # type: ignore[union-attr]
        assert text("translation.label_en", "ja") not in shown and LABEL_EN not in shown


def test_japanese_and_chinese_output_does_not_read_the_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only English readers are shown the English: the other outputs work without it."""
    others: tuple[Lang, ...] = ("ja", "zh-TW", "zh-CN")
    before = {lang: [render_reading(r, lang) for r in READINGS[::40]] for lang in others}
    looked = [format_unit(u) for u in corpus().units]

    def no_english(language: str) -> object:
        raise AssertionError(f"the {language} translation was read")

    monkeypatch.setattr(shown_units, "translations", no_english)
    sentences.say.cache_clear()
    for lang, shown in before.items():
        assert [render_reading(r, lang) for r in READINGS[::40]] == shown
    assert [format_unit(u) for u in corpus().units] == looked
    for level in Level:
        for q in make_round(level, 8, seed=3):
            explanation_lines(q, "ja")


# -- the one function the bot calls ----------------------------------------------------------------


def test_unit_lines_for_every_unit() -> None:
    for unit in corpus().units:
        first = [unit.display_original] if unit.original else []
        assert list(unit_lines(unit, "ja")) == first + ([unit.display_translation] if unit.translation else [])
        assert list(unit_lines(unit, "zh-TW")) == [original(unit, "zh-TW")] * bool(unit.original)
        if english(unit.id) is None:
            continue
        en = [original(unit, "en")] * bool(unit.original)
        assert list(unit_lines(unit, "en")) == en + expected_under(unit), unit.id
        without = list(unit_lines(unit, "en", japanese=False))
        assert without == en + expected_under(unit)[: -1 if unit.translation else None]
        assert not any(KANA.search(s) for s in without), unit.id


# -- the JSON ------------------------------------------------------------------------------------


def test_the_json_carries_both_translations_with_their_translators() -> None:
    seen = 0
    for reading in READINGS[::5]:
        for entry, item in zip(reading.entries, reading_dict(reading, "en"), strict=True):
            unit = entry.unit
            if unit is None:
                assert item["unit"] is None
                continue
            both = item["unit"]["translations"]
            t = english(unit.id)
            assert t is not None and unit.translation
            assert both["ja"] == {"translator": "seed", "text": unit.translation, "shown": unit.display_translation}
            assert both["en"] == {
                "translator": "project",
                "text": t.text,
                "notes": [{"kind": n.kind, "says": n.says} for n in t.notes],
            }
            seen += 1
        for item in reading_dict(reading, "ja"):  # a Japanese reader's JSON: the seed's, as before
            if item["unit"] is not None:
                assert set(item["unit"]["translations"]) == {"ja"}
    assert seen > 1000


def test_liuren_cast_json_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--reading", "--json", "--lang", "en"]
    assert liuren(args) == 0
    data = json.loads(capsys.readouterr().out)
    units = [e["unit"] for e in data["reading"]["entries"] if e["unit"] is not None]
    assert units
    for u in units:
        assert u["translations"]["en"]["translator"] == "project"
        assert u["translations"]["en"]["text"] == english(u["id"]).text  # type: ignore[union-attr]
        assert u["translations"]["ja"]["translator"] == "seed"
        assert u["translations"]["ja"]["text"] == u["translation"] == corpus().get(u["id"]).translation
    assert unit_translations(corpus().get(units[0]["id"]), "en") == units[0]["translations"]


def test_liuren_cast_reading_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert liuren(["cast", "--day", "丙子", "--yuejiang", "子", "--hour", "未", "--reading", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    reading = read(cast_classical("丙子", "子", "未"))
    assert reading.units()
    for unit in reading.units():
        assert "\n".join("      " + s for s in expected_under(unit)) in out, unit.id
    assert not any(KANA.search(line) for line in outside_japanese(out))


# -- the lookup ----------------------------------------------------------------------------------


def looked_up(out: str, unit: Unit) -> None:
    """``out`` shows ``unit``'s original with the English (and its marks, then the Japanese) under it."""
    lines = [s.strip() for s in out.split("\n")]
    at = lines.index(original(unit, "en")) + 1
    want = expected_under(unit)
    assert lines[at : at + len(want)] == want, unit.id
    # the corpus's own editorial notes (``note: …``) may quote the seed's Japanese to say why
    assert not any(KANA.search(line) for line in outside_japanese(out) if not line.startswith("  note: ")), unit.id


@pytest.mark.parametrize(
    ("term", "unit_id"), [("蒿矢", "method.蒿矢"), ("伏吟", "method.伏吟"), ("別責", "method.別責")]
)
def test_python_dash_m_texts_in_english(term: str, unit_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert texts_main([term, "--lang", "en"]) == 0  # as the issue writes it: TERM --lang en
    looked_up(capsys.readouterr().out, corpus().get(unit_id))
    assert texts_main(["--lang=en", term]) == 0
    looked_up(capsys.readouterr().out, corpus().get(unit_id))


def test_liuren_lookup_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert liuren(["lookup", "貴人", "子", "--lang", "en"]) == 0
    looked_up(capsys.readouterr().out, corpus().get("general.貴人.子"))
    assert liuren(["lookup", "貴人", "子"]) == 0  # Japanese by default: the seed's translation, no label
    out = capsys.readouterr().out
    assert corpus().get("general.貴人.子").display_translation in out and "translation)" not in out


def test_every_unit_looked_up_in_english() -> None:
    for unit in corpus().units:
        if english(unit.id) is None:
            continue
        shown = format_unit(unit, None, "en")
        lines = [s.strip() for s in shown.split("\n")]
        # the header, the original (or the line saying there is none), then what is under it
        assert lines[2 : 2 + len(expected_under(unit))] == expected_under(unit), unit.id


def test_a_bad_language_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert texts_main(["--lang", "fr", "蒿矢"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ja, en, zh-TW, zh-CN" in err
    assert texts_main(["蒿矢", "--lang"]) == 2 and "言語が要る" in capsys.readouterr().err


def test_python_dash_m_texts_in_english_in_a_process() -> None:
    done = subprocess.run([sys.executable, "-m", "texts", "蒿矢", "--lang", "en"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    looked_up(done.stdout, corpus().get("method.蒿矢"))


# -- the quiz ------------------------------------------------------------------------------------


def test_the_quiz_explains_in_english_with_the_english() -> None:
    seen = 0
    for level in Level:
        for q in make_round(level, 60, seed=25):
            lines = [s.strip() for s in explanation_lines(q, "en")]
            for unit_id in q.explanation.units:
                unit = corpus().get(unit_id)
                at = lines.index(text("quiz.unit", "en", n=unit.lines[0], original=original(unit, "en"))) + 1
                want = expected_under(unit)
                assert lines[at : at + len(want)] == want, (q.kind, unit_id)
                seen += 1
            shown = render_reveal(q, "en")
            assert not any(KANA.search(line) for line in outside_japanese(shown)), q.kind
    assert seen > 100


def test_the_quiz_explains_in_japanese_as_before() -> None:
    for chart in CHARTS[::37]:
        q = ask(chart, Kind.METHOD, random.Random(5))
        lines = list(explanation_lines(q, "ja"))
        for unit_id in q.explanation.units:
            unit = corpus().get(unit_id)
            at = lines.index("  " + text("quiz.unit", "ja", n=unit.lines[0], original=unit.display_original)) + 1
            assert lines[at] == "    " + unit.display_translation
        assert not any(line.strip().startswith(text("translation.label_en", "ja")) for line in lines)


# -- the matter asked (its sections, before the general reading) ----------------------------------


def test_the_matter_sections_in_english_show_the_english() -> None:
    from texts.matters.recognise import MATTERS
    from texts.matters.sentences import items, render_matters
    from texts.matters.values import answer

    seen = 0
    for chart in CHARTS[::97]:
        for matter in MATTERS:
            sections = answer(chart, matter=matter).matters
            lines = [s.strip() for s in render_matters(sections, "en").split("\n")]
            for section in sections:
                for item in items(section, "en"):
                    if item.quote is None or item.quote.above:
                        continue
                    unit = item.quote.unit
                    at = next(i for i, s in enumerate(lines) if s.startswith(f"【{item.role}】 ")
                              and f"】 {original(unit, 'en')}  (" in s) + 1  # the original with the reader's sic mark
                    assert lines[at : at + len(expected_under(unit))] == expected_under(unit), (matter, unit.id)
                    seen += 1
    assert seen > 50
