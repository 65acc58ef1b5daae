"""`liuren cast --place … --daynight … --hour-by …` (docs/usage.md): the sun's answer and the other
schools in the text and the JSON, in every language; clear one-line errors."""

from __future__ import annotations

import json

import pytest

from engine.schema import SCHEMA_VERSION
from texts.cli import main
from texts.words import LANGS, Lang, text

URUMQI = ["cast", "2026-03-01 13:20", "--tz", "Asia/Shanghai", "--place", "ウルムチ"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_hour_by_apparent_solar_time_in_urumqi_says_the_clock_would_give_未(
        lang: Lang, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*URUMQI, "--hour-by", "apparent", "--lang", lang, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == SCHEMA_VERSION == 4
    assert data["hour"] == "巳" and data["moment"]["zone"] == "Asia/Shanghai"
    sun = data["sun"]
    assert (sun["clock_hour"], sun["hour"], sun["hour_differs"], sun["day_differs"]) == ("未", "巳", True, False)
    assert sun["solar"].startswith("10:58") and sun["equation_of_time"] == pytest.approx(-12.4, abs=0.1)
    assert text("sun.hour_differs", lang, clock_hour="未", hour="巳") in sun["text"]
    assert [t["rule"] for t in sun["trace"]] == ["hour_by_apparent"] and sun["trace"][0]["text"]
    options = [(a["option"], a["value"]) for a in data["alternatives"]]
    assert ("hour_by", "clock") in options and ("hour_by", "mean") in options
    clock = next(a for a in data["alternatives"] if a["value"] == "clock")
    assert clock["hour"] == "未" and clock["kinds"][0] == "transmissions" and clock["text"]
    assert data["alternatives_text"][0] == text("alt.heading", lang)
    assert data["alternatives_summary"].startswith(text("alt.kind.summary", lang, options="")[:4])
    assert text("alt.option.noble_table_甲羊", lang) in data["alternatives_summary"]
    assert data["school"]["hour_by"] == "apparent"

    assert main([*URUMQI, "--hour-by", "apparent", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert text("sun.hour_differs", lang, clock_hour="未", hour="巳") in out
    assert text("alt.option.hour_by_clock", lang) in out


@pytest.mark.parametrize("lang", LANGS)
def test_a_chart_no_option_changes_says_so_in_one_line(lang: Lang, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "丁卯", "--yuejiang", "未", "--hour", "午", "--lang", lang]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == text("alt.none", lang)
    assert main(["cast", "--day", "丁卯", "--yuejiang", "未", "--hour", "午", "--lang", lang, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["alternatives"] == [] and data["alternatives_text"] == [text("alt.none", lang)]
    assert data["alternatives_summary"] == text("alt.none", lang)
    assert data["sun"] is None


def test_a_place_without_a_zone_brings_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "2026-03-01 13:20", "--place", "烏魯木齊", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moment"]["zone"] == "Asia/Urumqi"
    assert main(["cast", "2026-03-01 13:20", "--place", "40.42,-3.70", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moment"]["zone"] == "Europe/Madrid"


def test_daynight_by_the_sun_names_sunrise_and_sunset(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["cast", "2026-06-21 18:30", "--tz", "Asia/Tokyo", "--place", "35.6895,139.6917", "--json"]
    assert main([*args, "--daynight", "sun"]) == 0
    sun = json.loads(capsys.readouterr().out)["sun"]
    assert sun["daytime"] and not sun["hours_daytime"] and sun["daytime_differs"]
    assert sun["sunrise"].startswith("2026-06-21T04:2") and sun["sunset"].startswith("2026-06-21T19:0")
    assert main(args) == 0  # without the option, the place is shown and the sun's column is tried
    data = json.loads(capsys.readouterr().out)
    assert ("daynight", "sun") in [(a["option"], a["value"]) for a in data["alternatives"]]


@pytest.mark.parametrize(("args", "words"), [
    (["cast", "now", "--place", "Madrid"], "names 2 places: Madrid (ES)"),
    (["cast", "now", "--place", "Nowhereville"], "no city named 'Nowhereville'"),
    (["cast", "now", "--place", "95,10"], "latitude 95.0 is out of range"),
    (["cast", "now", "--hour-by", "mean"], "give --place"),
    (["cast", "now", "--daynight", "sun"], "give --place"),
    (["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--place", "東京"], "need a moment"),
    (["cast", "now", "--place", " "], "--place is empty"),
])
def test_places_and_sun_options_that_cannot_be_used_are_one_line_errors(
        args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@pytest.mark.parametrize("lang", LANGS)
def test_the_day_by_the_sun_and_a_polar_day_are_said(lang: Lang, capsys: pytest.CaptureFixture[str]) -> None:
    # 00:30 in Shanghai is 22:20 the evening before by Ürümqi's mean solar time: the day before, 亥
    assert main([*URUMQI[:1], "2026-03-01 00:30", *URUMQI[2:], "--hour-by", "mean", "--lang", lang, "--json"]) == 0
    sun = json.loads(capsys.readouterr().out)["sun"]
    assert sun["day_differs"] and sun["hour"] == "亥" and sun["clock_hour"] == "子"
    assert text("sun.day_differs", lang, clock_day=sun["clock_day"], day=sun["day"]) in sun["text"]
    assert main(["cast", "2026-06-21 00:30", "--place", "69.65,18.96", "--daynight", "sun", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert text("sun.polar_day", lang) in out and text("sun.daynight_differs", lang, hours=text(
        "sun.nighttime", lang)) in out
