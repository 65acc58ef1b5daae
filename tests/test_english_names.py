"""One English word for each name and term, read from one place by every output.

texts/english.toml holds the English name of every general, method, frame and 課体; the bot's glosses,
`liuren lookup` and the glossary read or agree with it, and so does the project's translation. The
terms.toml table [noble] gives 晝・夜 and 順・逆 one word each, read by the terminal and the picture;
the English words say "heaven plate" and "earth plate" for 天盤 and 地盤, nothing else.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.core.words import GLOSSES, gloss
from engine import cast_classical
from engine.terms import Frame, Method, PatternName
from texts.cli.lookup import find
from texts.corpus import corpus
from texts.picture.alt import alt_text
from texts.render import render_text
from texts.words import ENGLISH, LANGS, english_name, named_in_english, text, words

ROOT = Path(__file__).resolve().parents[1]
TRANSLATION = ROOT / "texts" / "translations" / "en"


def _names() -> dict[str, str]:
    with ENGLISH.open("rb") as f:
        names: dict[str, str] = tomllib.load(f)["names"]
    return names


def test_the_bot_glosses_the_glossarys_names() -> None:
    assert gloss("反吟・重審") == "反吟・重審 (Return Chant · Repeated Examination)"
    assert gloss("元首") == "元首 (Prime Head)" and gloss("無依") == "無依 (No Reliance)"
    for name in (*(m.name for m in Method), *(f.name for f in Frame), *(p.name for p in PatternName)):
        english = english_name(name)
        if english is not None:
            assert GLOSSES[name] == english.removeprefix("the ")
    assert not any(key.startswith("bot.gloss.") for lang in LANGS for key in words()[lang])  # no second table


def test_the_translation_terms_are_these_names() -> None:
    from tests.test_translation_terms import TERMS

    names = _names()
    for chars, english in TERMS:
        assert names[chars] == english, chars


def test_the_translation_writes_each_pattern_by_its_name() -> None:
    translated = "\n".join(p.read_text(encoding="utf-8") for p in sorted(TRANSLATION.glob("*.toml"))).casefold()
    for name in PatternName:
        english = english_name(name.name)
        if english is not None:
            assert f"{english.removeprefix('the ')} (".casefold() in translated, (name, english)


def test_the_glossary_starts_each_name_with_it() -> None:
    names = _names()
    rows = 0
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or "(の句)" in cells[0] or "(節)" in cells[0]:
            continue
        key = cells[0].split(" (")[0]
        if key in names:
            rows += 1
            bare = names[key].removeprefix("the ").casefold()
            assert cells[3].casefold().removeprefix("the ").startswith(bare), (key, cells[3])
    assert rows >= 40


@pytest.mark.parametrize(("asked", "unit"), [("Black Warrior", "general.玄武"), ("the Noble", "general.貴人"),
                                             ("noble", "general.貴人"), ("Return Chant", "method.反吟")])
def test_lookup_finds_the_english_names(asked: str, unit: str) -> None:
    assert named_in_english(asked) is not None
    exact, _ = find(corpus(), [asked])
    assert unit in [u.id for u in exact]
    exact, _ = find(corpus(), asked.split())
    assert unit in [u.id for u in exact]


def test_one_english_word_for_each_plate() -> None:
    wrong = [
        f"{key}: {value}"
        for key, value in words()["en"].items()
        if re.search(r"(heavenly|ground|upper|lower|sky)[ -]plate|heaven-plate|earth-plate", value, re.IGNORECASE)
    ]
    assert not wrong, wrong


def test_the_nobles_side_and_direction_are_the_glossarys_words() -> None:
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    day, night, clockwise, counter = (text(f"noble.{k}", "en") for k in ("day", "night", "clockwise", "counter"))
    assert f"| {day}, {night}:" in glossary and f"| {clockwise}, {counter}:" in glossary
    chart = cast_classical("甲子", "寅", "午")  # 貴人 丑, by day, counter-clockwise
    assert f"({day}, {counter})" in render_text(chart, "en")
    assert day in alt_text(chart, "en") and counter in alt_text(chart, "en")
    assert "(day, " not in render_text(chart, "en")
