"""Citations and reasons agree with the lines quoted beside them (docs/rules.md §7, §9.3).

Each test here failed on the old words: the three-harmony patterns all cited (¶171, ¶175); the 騰蛇
line called the limit to 發用 "the text's"; 昴星 was said to have no line in ¶139–¶175 above ¶147's
「昴星卦有騰蛇發用…」; 無依's 驛馬 was cited as ¶79's main text; 〔ママ〕 stood without a why; a matter
section quoted a 類神's opening words twice, referred back without saying to which ¶, and said
旺相 otherwise than the general reading.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from engine import cast, cast_classical
from engine.classical import classical_charts
from engine.facts import facts
from engine.patterns import detect
from engine.reasons import Rule
from engine.school import DEFAULT_SCHOOL
from engine.terms import General, PatternName
from texts.corpus import corpus
from texts.matters.sentences import render_matters
from texts.matters.values import answer
from texts.reading import read
from texts.reading.sentences import render_reading
from texts.words import LANGS, text

SEED = (Path(__file__).resolve().parents[1] / "texts" / "seed" / "000_bc2579445fc12f06.txt").read_text(
    encoding="utf-8").split("\n")
TRIADS = {
    PatternName.曲直: "曲直卦", PatternName.従革: "從革卦", PatternName.炎上: "炎上卦", PatternName.潤下: "潤下卦",
}


def line(n: int) -> str:
    return SEED[n - 1]


def test_each_three_harmony_pattern_cites_the_paragraph_that_names_it() -> None:
    seen: set[PatternName] = set()
    for chart in classical_charts(DEFAULT_SCHOOL):
        for p in detect(chart):
            if p.name not in TRIADS:
                continue
            seen.add(p.name)
            (why,) = p.reasons
            assert why.rule is Rule.P_三合
            assert all(TRIADS[p.name] in line(n) for n in why.seed), (p.name, why.seed)
            assert why.seed == ((171,) if p.name is PatternName.曲直 else (175,))
    assert seen == set(TRIADS)


def test_the_serpents_limit_to_the_emergence_is_named_as_the_default_and_its_option() -> None:
    said = 0
    for chart in list(classical_charts(DEFAULT_SCHOOL))[::7]:
        if chart.steps[0].general is General.騰蛇:
            continue
        for lang in LANGS:
            shown = render_matters(answer(chart, matter="fright").matters, lang)
            assert text("school.tengshe_whenever_seen", lang) in shown
            assert text("matter.not_bears", lang) not in shown
            said += 1
    assert said > 100


def test_the_pleiades_is_said_to_be_named_in_paragraph_147() -> None:
    reading = read(cast_classical("丁丑", "卯", "午"))
    assert "昴星" in line(147)
    for lang in LANGS:
        shown = render_reading(reading, lang)
        assert text("reading.named_in", lang, name="昴星", lines="147") in shown


def test_no_reliance_cites_the_small_note_for_its_post_horse() -> None:
    note = "日支之馬為用"
    assert f"（{note}）" in line(79)
    for lang in LANGS:
        for key in ("why.no_reliance", "why.p_無依"):
            said = text(key, lang)
            assert "「日支之" in said and ("小注" in said or "small note" in said), (lang, key)


def test_a_marked_slip_says_why_in_one_line() -> None:
    shown = render_matters(answer(cast_classical("甲子", "寅", "午"), matter="fright").matters, "ja")
    (sic,) = corpus().get("general.騰蛇").notes_of("sic")
    assert text("reading.sic_translation", "ja", at=sic.at, read=sic.read) in shown
    marked = 0
    for chart in list(classical_charts(DEFAULT_SCHOOL))[::20]:
        documents = render_matters(answer(chart, matter="documents").matters, "ja")
        for said in (render_reading(read(chart), "ja"), documents):
            why = sum(s.lstrip("※ ").startswith("〔ママ〕") for s in said.split("\n"))
            assert said.count("〔ママ〕") == 2 * why, said  # each mark, and its line of why
            marked += why
    assert marked > 10


def test_a_matter_section_cites_its_opening_once_and_says_which_line_is_above() -> None:
    chart = cast_classical("甲子", "寅", "午")
    for lang in LANGS:
        shown = render_matters(answer(chart, question="母の病気は治りますか").matters, lang)
        assert "「蔽匿陰私之婦」" not in shown  # 天后's own words: quoted right under its grounds
        assert text("matter.above", lang, lines="¶115,¶117") in shown


def test_vigour_is_said_one_way_in_a_reply() -> None:
    chart = cast(datetime(2026, 12, 16, 12, 0), "Asia/Tokyo")
    known = facts(chart)
    reply = answer(chart, known, question="結婚")
    for lang in LANGS:
        shown = render_matters(reply.matters, lang) + render_reading(reply.reading, lang)
        assert text("reading.vigour", lang, branch="戌", month="子", vigour=text("term.Vigour.囚", lang)) in shown
        assert "月令" not in shown
