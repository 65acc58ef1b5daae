"""Every output names the school options in force when they are not the defaults:
the terminal text, the JSON, the picture and its alt text, ``liuren find`` and ``liuren table``, and
``texts.words.schools.school_line`` (what the bot calls), for each option in all four languages."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from datetime import datetime
from typing import Any

import pytest

from engine import Place, cast, cast_classical
from engine.facts import facts
from engine.school import DEFAULT_SCHOOL, School
from texts.cli import main
from texts.cli.cast import chart_json
from texts.cli.find import find_charts
from texts.picture.alt import alt_text
from texts.picture.glyphs import measure
from texts.picture.layout import layout
from texts.picture.shapes import MARGIN, MIN_TEXT, WIDTH, Text
from texts.render import render_text
from texts.words import LANGS, Lang, text
from texts.words.schools import school_line, school_options

# One non-default value per option; a new option of engine/school.py must be added here and worded
# in texts/locales/*/core.toml ([school]), or the first test fails.
FLIPPED: dict[str, Any] = {
    "day_changes_at_23": False,
    "noble_table": "甲羊",
    "fuyin_repeat_clash": True,
    "shehai_depth_first": True,
    "maoxing_by_day": True,
    "tengshe_whenever_seen": True,
    "daynight": "sun",
    "hour_by": "apparent",
}
TOKYO = Place(35.6895, 139.6917)  # the sun's options read the sun at a place (docs/rules.md §10)
OPTIONS = [f.name for f in fields(School)]


def flipped(name: str) -> School:
    return replace(DEFAULT_SCHOOL, **{name: FLIPPED[name]})


def test_every_option_has_a_non_default_value_here_and_words_in_every_language() -> None:
    assert set(OPTIONS) <= FLIPPED.keys()
    for name in OPTIONS:
        assert flipped(name) != DEFAULT_SCHOOL
        for lang in LANGS:
            assert text(f"school.{name}", lang, value=FLIPPED[name])


@pytest.mark.parametrize("lang", LANGS)
def test_the_defaults_say_nothing_and_each_option_is_named(lang: Lang) -> None:
    assert school_line(DEFAULT_SCHOOL, lang) is None and school_options(DEFAULT_SCHOOL) == ()
    for name in OPTIONS:
        line = school_line(flipped(name), lang)
        assert line is not None and school_options(flipped(name)) == (name,)
        assert text(f"school.{name}", lang, value=FLIPPED[name]) in line
    every = School(**{name: FLIPPED[name] for name in OPTIONS})
    line = school_line(every, lang)
    assert line is not None and all(text(f"school.{n}", lang, value=FLIPPED[n]) in line for n in OPTIONS)
    assert "甲羊" in (school_line(flipped("noble_table"), lang) or "")


@pytest.mark.parametrize("lang", LANGS)
def test_text_json_picture_and_alt_text_name_the_option(lang: Lang) -> None:
    for name in OPTIONS:
        school = flipped(name)
        line = school_line(school, lang)
        assert line is not None
        place = TOKYO if school.needs_place else None  # and the classical inputs have none
        for chart in (*(() if place else (cast_classical("甲子", "亥", "午", school=school),)),
                      cast(datetime(2026, 6, 24, 13, 30), "Asia/Tokyo", school=school, place=place)):
            known = facts(chart)
            assert line in render_text(chart, lang, known=known).splitlines()
            data = chart_json(chart, known, lang, None)
            assert data["school_options"] == {"changed": [name], "text": line}
            assert data["school"][name] == FLIPPED[name]
            drawn = [t for t in layout(chart, lang, measure).items if isinstance(t, Text)]
            assert line.replace(" ", "") in "".join(t.text for t in drawn if t.role == "accent").replace(" ", "")
            assert all(t.size >= MIN_TEXT for t in drawn)
            assert line in alt_text(chart, lang) and len(alt_text(chart, lang)) <= 1024
        default = cast_classical("甲子", "亥", "午")
        assert line not in render_text(default, lang)
        assert chart_json(default, facts(default), lang, None)["school_options"] == {"changed": [], "text": None}


@pytest.mark.parametrize("lang", LANGS)
def test_find_and_table_name_the_option(lang: Lang, capsys: pytest.CaptureFixture[str]) -> None:
    school = flipped("noble_table")
    assert find_charts("鋳印", school, lang)[0] == school_line(school, lang)
    assert find_charts("鋳印", DEFAULT_SCHOOL, lang)[0] != school_line(school, lang)
    assert main(["table", "--noble", "甲羊", "--lang", lang]) == 0
    assert capsys.readouterr().out.splitlines()[0] == school_line(school, lang)


def test_the_command_line_names_every_option_it_was_given(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--lang", "en", "--noble", "甲羊",
            "--shehai-depth", "--maoxing-by-day", "--fuyin-repeat-clash", "--day-change", "0"]
    assert main(args) == 0
    out = capsys.readouterr().out
    for name in ("noble_table", "shehai_depth_first", "maoxing_by_day", "fuyin_repeat_clash", "day_changes_at_23"):
        assert text(f"school.{name}", "en", value=FLIPPED[name]) in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["school_options"]["changed"]) == {"noble_table", "shehai_depth_first", "maoxing_by_day",
                                                      "fuyin_repeat_clash", "day_changes_at_23"}
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--lang", "en"]) == 0
    assert "School options" not in capsys.readouterr().out


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_at_once_fits_the_picture_without_crowding(lang: Lang) -> None:
    school = School(**{name: FLIPPED[name] for name in OPTIONS})
    chart = cast(datetime(2026, 6, 24, 13, 30), "America/Argentina/ComodRivadavia", school=school,
                 place=Place(-34.6, -58.4))
    plan = layout(chart, lang, measure)
    line = school_line(school, lang)
    assert line is not None
    accent = [t for t in plan.items if isinstance(t, Text) and t.role == "accent" and t.size == MIN_TEXT]
    assert len(accent) >= 2 and "".join(t.text for t in accent).replace(" ", "") == line.replace(" ", "")
    for item in plan.items:
        if isinstance(item, Text):
            width = measure(item.text, item.size, item.bold)
            left = {"l": item.x, "m": item.x - width / 2, "r": item.x - width}[item.anchor[0]]
            assert left >= MARGIN - 1 and left + width <= WIDTH - MARGIN + 1, item
            assert item.size >= MIN_TEXT
    assert len(alt_text(chart, lang)) <= 1024
