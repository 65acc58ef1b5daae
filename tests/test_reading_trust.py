"""The reading a student can trust: right citations, 六親 to the day stem, the depth count
shown, ¶63's rule quoted, the seed's slips marked, each thing said once, nothing added unmarked.

Every check runs over the 1,440 classical charts (60 days × 12 plates, at 午 (晝) and 子 (夜), as
tests/test_reading.py does) and in all four languages where it applies.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
from functools import cache
from pathlib import Path

import pytest

from engine import School
from engine.chart import Chart, kin
from engine.classical import classical_charts
from engine.reasons import Rule, Why
from engine.symbols import Branch, Stem
from engine.terms import General, Kin, Relation, Role, Seat
from engine.transmissions import shehai_depth
from testkit import classical
from testkit.classical import read  # texts.reading.read, each chart read once per run
from texts.cli import main as cli_main
from texts.cli.liuren import build_parser, run
from texts.corpus import corpus
from texts.corpus.shown import original
from texts.quiz import Kind, ask, render_board
from texts.reading import Note, Reading, Section
from texts.reading.sentences import notes, render_reading
from texts.words import LANGS, Lang, term, text, words
from texts.words.explain import cite, explain, show

ROOT = Path(__file__).resolve().parents[1]
SEED = (ROOT / "texts" / "seed" / "000_bc2579445fc12f06.txt").read_text(encoding="utf-8").split("\n")
# Cast and read once per run, shared with other files, on first use (testkit/classical.py)
CHARTS = classical.charts(School())
READINGS = classical.readings(School())
DEPTH_SCHOOL = School(shehai_depth_first=True)
BY_DAY_SCHOOL = School(maoxing_by_day=True)


def line(n: int) -> str:
    """Seed line ¶n (the file's line numbers, as the project cites them)."""
    return SEED[n - 1]


def where(reading: Reading) -> tuple[str, str, str]:
    c = reading.chart
    return (str(c.day), str(c.yuejiang), str(c.hour))


_PARSER = build_parser()


def printed(index: int, lang: Lang) -> str:
    """What `liuren cast --day … --yuejiang … --hour … --reading --lang …` prints for CHARTS[index]:
    the real CLI path (texts/cli/liuren.py: run), one parser for all."""
    return _printed_in_every_language(index)[lang]


@cache
def _printed_in_every_language(index: int) -> dict[Lang, str]:
    # The languages one after another, so the chart's reading is worked out once and found in
    # texts.reading's cache by the other three (a test going chart by chart in one
    # language found none of the 1,440 there, and each reading was worked out four times).
    chart = CHARTS[index]
    said: dict[Lang, str] = {}
    for lang in LANGS:
        args = _PARSER.parse_args(["cast", "--day", str(chart.day), "--yuejiang", str(chart.yuejiang),
                                   "--hour", str(chart.hour), "--reading", "--lang", lang])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert run(args) == 0
        said[lang] = out.getvalue()
    return said


# ---------------------------------------------------------------------------------------------------
# item 1: every ¶ the project cites holds the rule's own words
# ---------------------------------------------------------------------------------------------------

# For each Rule, one characteristic phrase of the seed per ¶ it cites (in the order cited).
SEED_WORDS: dict[str, tuple[str, ...]] = {  # Rule name → phrases (a name, so the table loads on any version)
    "LESSONS": ("視陰陽為四課之分",),
    "RETURN_CHANT_OVERCOMING": ("克之少者重審、元首取之",),
    "EIGHT_SPECIALS_OVERCOMING": ("有克仍從賊克、比用、涉害三法取用",),
    "SINGLE_REBEL": ("若有一下克其上神者", "重審不過一下賊"),
    "SINGLE_OVERCOMING": ("唯一上神克下", "元首不過一上克"),
    "SEVERAL": ("若四課中有二三四下賊者非審矣",),
    "COMPARE_ONE": ("陽與陽比", "然又曰知一者何也"),
    "COMPARE_SEVERAL": ("陽與陽比", "今而有二陽三陽四陽矣"),
    "COMPARE_NONE": ("陰與陰比",),
    "RANK_ONE": ("先以寅申巳亥上乘之神為用",),
    "RANK_SEVERAL": ("先以寅申巳亥上乘之神為用",),
    "RANK_NONE": ("若孟神上無克賊則以子午卯酉上乘之神為用",),
    "LINKED": ("相因作中末之身",),
    "REMOTE_OVERCOMES": ("若有一上神剋日干者取以為用",),
    "REMOTE_OVERCOME": ("若有一上神被日干克者取以為用",),
    "REMOTE_SEVERAL": ("如有二克或克二者，亦如比用之法",),
    "HIDDEN_CHANT": ("乃伏吟之象也",),
    "HIDDEN_CHANT_OVERCOMING": ("有克者取克，不過癸乙二干而已",),
    "HIDDEN_CHANT_YANG": ("陽日自干上發傳",),
    "HIDDEN_CHANT_YIN": ("陰日自辰上發傳",),
    "SELF_PUNISHED_INITIAL": ("若初傳值自刑則中傳陽日用支、陰日用干",),
    "PUNISH_MIDDLE": ("迤邐三刑而為三傳",),
    "SELF_PUNISHED_MIDDLE": ("倘逢中傳自刑者，末傳以沖神為之矣",),
    "PUNISH_FINAL": ("仍取刑為末傳",),
    "NO_RELIANCE": ("日支之馬為用",),
    "EIGHT_SPECIALS_YANG": ("陽日則順從干上陽神得三而止",),
    "EIGHT_SPECIALS_YIN": ("陰日則逆從支上陰神得三而止",),
    "PLEIADES_YANG": ("陽日則取酉上所得之神為發用",),
    "PLEIADES_YIN": ("陰日則取酉下所得之神為發用",),
    "SEPARATE_YANG": ("若陽日得之以天干之合位上乘者取為用神",),
    "SEPARATE_YIN": ("若陰日得之以地支之三合前一位用之",),
    "P_元首": ("元首象天",),
    "P_重審": ("重審法地",),
    "P_知一": ("知一則得一為宜",),
    "P_見機": ("見機則不俟終日",),
    "P_察微": ("又名曰察微",),
    "P_蒿矢": ("神遙剋日曰蒿矢卦",),
    "P_弾射": ("曰彈射卦",),
    "P_昴星": ("則為昴星矣",),
    "P_別責": ("四課不備而無遙曰別責",),
    "P_八専": ("八專卦干支同位",),
    "P_伏吟": ("伏吟任信宜用靜",),
    "P_自任": ("伏吟剛日自任卦",),
    "P_自信": ("柔日自信卦",),
    "P_反吟": ("反吟無依則復舊",),
    "P_無依": ("乃名無依", "故曰無依"),
    "P_昴星_GENERAL": ("昴星卦有騰蛇發用曰冬蛇掩目卦",),
    "P_帷簿": ("帷簿不修之卦",),
    **{r: ("太歲、月建、月將、貴人同為發用曰龍首卦",)
       for r in ("P_龍首_YEAR", "P_龍首_MONTH", "P_龍首_YUEJIANG", "P_龍首_NOBLE", "P_龍首_UNKNOWN")},
    **{r: ("卯酉日辰、行年，發用又值此者名龍戰卦",) for r in ("P_龍戦_DAY", "P_龍戦_WALKING", "P_龍戦_UNKNOWN")},
    "P_官爵": ("驛馬發用曰官爵卦",),
    "P_富貴": ("貴人發用主增財喜慶",),
    "P_斫輪": ("卯加申發用曰斫輪卦",),
    "P_鋳印": ("戌加巳發用曰鑄印卦",),
    "P_高蓋乗軒": ("午卯子三傳曰高蓋乘軒卦",),
    "P_蕪淫": ("上神互克干支名曰蕪淫卦",),
    "P_淫女": ("初傳天后，末傳六合，更傳見卯酉曰淫女卦",),
    "P_三交": ("子午卯酉仲神全見於三傳曰三交",),
    "P_九醜": ("大吉加仲上曰九丑卦",),
    "P_斬関": ("魁罡加干支，上更得六合、青龍名斬關卦",),
    **{r: ("丁神天馬入之曰遊子",) for r in ("P_遊子_DING", "P_遊子_HORSE", "P_遊子_UNKNOWN")},
    "P_天獄": ("凡用神囚死更天罡加日本之上曰天獄卦",),
    "P_天獄_UNKNOWN": ("凡用神囚死更天罡加日本之上曰天獄卦",),
    "P_天網": ("凡時與用神並克天干者曰天網卦",),
    "P_玄胎": ("寅申巳亥全在三傳曰玄胎卦",),
    "P_贅婿": ("支辰加天干之上被克為用曰贅婿卦",),
    "P_無禄": ("凡四上克下曰無祿卦",),
    "P_絶嗣": ("凡四下克上曰絕嗣卦",),
    "P_励徳": ("貴人當卯酉之上曰勵德卦",),
    "P_乱首": ("日加辰而被克曰亂首卦",),
    "P_稼穡": ("辰戌丑未全在三傳曰稼穡卦",),
    "P_三合": ("三傳亥卯未曰曲直卦", "三傳巳酉丑全者曰從革卦"),
}
# Rules the seed does not state: docs/rules.md's decisions and school options (no ¶ to cite).
OUTSIDE = frozenset({"MEND_TAKE", "MEND_FIRST", "REPEAT_CLASH", "DEPTHS", "DEEPEST", "P_昴星_BY_DAY",
                     # the hour and 晝夜 by the sun (docs/rules.md §10): the seed gives no hour boundaries
                     "HOUR_BY_MEAN", "HOUR_BY_APPARENT", "DAY_BY_SUN", "SUN_UP", "SUN_DOWN", "POLAR_DAY",
                     "POLAR_NIGHT"})


def test_every_rule_is_either_cited_or_outside_the_seed() -> None:
    assert set(SEED_WORDS) | OUTSIDE == {r.name for r in Rule} and not set(SEED_WORDS) & OUTSIDE


@pytest.mark.parametrize("name", sorted(SEED_WORDS))
def test_each_rules_cited_paragraph_holds_its_words(name: str) -> None:
    """重審 cited ¶143 (it is ¶139), 別責 ¶147 (it is ¶143) … a wrong number fails."""
    rule = Rule[name]
    seed = Why(rule).seed
    phrases = SEED_WORDS[name]
    assert len(seed) == len(phrases), (rule, seed)
    for n, phrase in zip(seed, phrases, strict=True):
        assert phrase in line(n), f"{rule}: ¶{n} does not say 「{phrase}」"


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_a_rule_outside_the_seed_says_so_in_every_language(name: str) -> None:
    """A decision or school option cites no ¶ and is marked as outside."""
    rule = Rule[name]
    assert Why(rule).seed == () and Why(rule).outside
    for lang in LANGS:
        mark = text(f"why.outside.{rule.value}", lang)
        assert "docs/rules.md" in mark
        fields = re.findall(r"{(\w+)}", words()[lang][f"why.{rule.value}"])
        why = Why(rule, tuple((f, Branch.子) for f in fields))
        for said in (explain(why, lang), explain(why, lang, with_seed=False)):  # also where ¶ are left out
            assert said.endswith(mark) and "¶" not in said.removesuffix(mark), said


def test_every_corpus_unit_sits_on_the_lines_it_names() -> None:
    for unit in corpus().units:
        if unit.original:
            assert unit.original in line(unit.lines[0]), unit.id
        if unit.translation:
            assert unit.translation in line(unit.lines[-1]), unit.id


QUOTED = re.compile(r"¶(\d+)\s*[「“]([^」”]+)[」”]")


@pytest.mark.parametrize("path", ["docs/rules.md", *(f"texts/locales/{lang}/{domain}.toml" for lang in LANGS
                                                      for domain in ("why", "reading"))])
def test_every_quotation_cited_by_paragraph_is_in_that_paragraph(path: str) -> None:
    """「…」 after a ¶N: the words are the seed's, at ¶N (a … may stand for words left out)."""
    found = 0
    for match in QUOTED.finditer((ROOT / path).read_text(encoding="utf-8")):
        n, quote = int(match.group(1)), match.group(2)
        for part in filter(None, (p.strip() for p in re.split(r"…+", quote))):
            assert part in line(n) or (n + 2 <= len(SEED) and part in line(n + 2)), (path, n, quote)
        found += 1
    assert found or path.endswith("why.toml")


def test_the_paragraphs_the_readings_words_cite() -> None:
    """The bare ¶ in reading.toml and why.toml name paragraphs about what the sentence says."""
    about = {135: "天空", 59: "涉害", 87: "天乙居中", 147: "冬蛇掩目"}
    for lang in LANGS:
        for key, template in words()[lang].items():
            if not key.startswith(("reading.", "why.")):
                continue
            single = re.sub(r"¶139–¶175", "", template)  # the range of the named patterns
            for n in map(int, re.findall(r"¶(\d+)", single)):
                assert n in about and about[n] in line(n), (lang, key, n)


# ---------------------------------------------------------------------------------------------------
# item 3: 六親 always to the day stem
# ---------------------------------------------------------------------------------------------------


def test_six_relations_are_the_day_stems_in_every_reading() -> None:
    """「支上神丑（貴人）は子に対して官鬼」 counted against the day branch."""
    seats = 0
    for reading in READINGS:
        chart = reading.chart
        stem = chart.day.stem
        for entry in reading.entries:
            for n in entry.notes:
                if not isinstance(n, Note) or n.key not in ("seat", "kin"):
                    continue
                values = dict(n.values)
                branch = values["upper" if n.key == "seat" else "branch"]
                assert isinstance(branch, Branch)
                assert values["kin"] is kin(stem.element, branch.element), (where(reading), n)
                if n.key == "seat":
                    seats += 1
                    assert values.get("stem") is stem, (where(reading), n)
                    for lang in LANGS:
                        said = text(f"reading.{n.key}", lang, **{k: show(v, lang) for k, v in n.values})
                        assert show(stem, lang) in said and show(values["kin"], lang) in said
    assert seats == 2 * len(READINGS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.slow  # over a second on the project's machine
def test_the_branchs_upper_is_never_read_against_the_day_branch(lang: Lang) -> None:
    for i, reading in enumerate(READINGS):
        chart = reading.chart
        upper, day_branch = chart.branch_upper, chart.day.branch
        if kin(day_branch.element, upper.element) is kin(chart.day.stem.element, upper.element):
            continue
        wrong = text("reading.seat", lang, seat=show(Seat.支上神, lang), upper=show(upper, lang),
                     general=show(chart.generals.on(upper), lang), stem=show(day_branch, lang),
                     kin=show(kin(day_branch.element, upper.element), lang))
        assert wrong not in printed(i, lang), where(reading)


# ---------------------------------------------------------------------------------------------------
# item 5: --shehai-depth shows its count; --maoxing-by-day is marked as outside the seed
# ---------------------------------------------------------------------------------------------------


def test_each_candidates_depth_is_shown_as_counted() -> None:
    seen = 0
    for chart in classical_charts(DEPTH_SCHOOL):
        for why in chart.transmissions.trace:
            if why.rule is not Rule.DEPTHS:
                continue
            depths = why["depths"]
            assert isinstance(depths, tuple)
            for item in depths:
                assert isinstance(item, tuple) and len(item) == 5
                candidate, ground, walk, counted, depth = item
                assert isinstance(candidate, Branch) and isinstance(ground, Branch)
                assert ground == chart.plate.down(candidate)
                assert walk == tuple(ground + i for i in range((candidate - ground) % 12))
                expected: list[Branch | Stem] = []
                for place in walk:
                    if place.element.overcomes(candidate.element):
                        expected.append(place)
                    expected += [s for s in Stem if s.lodging == place and s.element.overcomes(candidate.element)]
                assert counted == tuple(expected) and depth == len(expected) == shehai_depth(chart.plate, candidate)
                for lang in LANGS:
                    said = explain(why, lang)
                    assert said.endswith(text("why.outside.depths", lang)), said
                    for c in counted:
                        shown = (text("why.depth_stem", lang, stem=show(c, lang), lodging=show(c.lodging, lang))
                                 if isinstance(c, Stem) else show(c, lang))
                        assert shown in said, (lang, said)
            seen += 1
    assert seen > 100


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
def test_the_depth_method_does_not_point_to_itself() -> None:
    """「原文に渉害の取用規則の句はない…最も近い規則は渉害（¶59）」 is gone: the reasons say where it comes from."""
    for chart in classical_charts(DEPTH_SCHOOL):
        reading = read(chart)
        for entry in reading.entries:
            for n in entry.notes:
                if isinstance(n, Note) and n.key == "no_rule_line":
                    assert dict(n.values)["method"] is not chart.transmissions.method or str(
                        chart.transmissions.method) == "綴瑕", where(reading)
                    assert str(dict(n.values)["method"]) != "渉害"


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
def test_pleiades_by_the_day_is_marked_as_outside_the_seed() -> None:
    seen = 0
    for chart in classical_charts(BY_DAY_SCHOOL):
        for p in read(chart).patterns.held:
            for why in p.reasons:
                if why.rule is Rule.P_昴星_BY_DAY:
                    seen += 1
                    for lang in LANGS:
                        said = explain(why, lang)
                        assert cite((147,), lang) not in said and said.endswith(text("why.outside.p_昴星_by_day", lang))
                        assert "六十四課經" in said or "六十四课经" in said
    assert seen > 0


# ---------------------------------------------------------------------------------------------------
# item 6: ¶63 「如有二克或克二者，亦如比用之法」 quoted where it took the 初伝
# ---------------------------------------------------------------------------------------------------

REMOTE_RULE = "如有二克或克二者，亦如比用之法"


def _uses_remote_several(chart: Chart) -> bool:
    return any(w.rule in (Rule.REMOTE_OVERCOMES, Rule.REMOTE_OVERCOME) and len(w["candidates"]) > 1  # type: ignore[arg-type]
               for w in chart.transmissions.trace)


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
@pytest.mark.parametrize("school", [School(), DEPTH_SCHOOL], ids=["default", "depth"])
def test_the_rule_for_several_remote_candidates_is_quoted_where_used(school: School) -> None:
    seen = 0
    for chart in classical_charts(school):
        reading = read(chart)
        uses = _uses_remote_several(chart)
        assert uses == any(w.rule is Rule.REMOTE_SEVERAL for w in chart.transmissions.trace)
        quoted = "method.遙剋.比用" in {u.id for u in reading.units()}
        assert quoted == uses, where(reading)
        if uses:
            seen += 1
            for lang in LANGS:
                assert REMOTE_RULE in render_reading(reading, lang)
            q = ask(chart, Kind.METHOD, random.Random(0))
            assert "method.遙剋.比用" in q.explanation.units
    assert seen > 20  # e.g. 庚午 巳 午: 午 and 巳 both overcome 庚


def test_庚午_巳将_午時_quotes_it() -> None:
    reading = next(r for r in READINGS if where(r) == ("庚午", "巳", "午"))
    assert REMOTE_RULE in render_reading(reading, "ja")


# ---------------------------------------------------------------------------------------------------
# item 7: the seed's slips shown with the editorial mark
# ---------------------------------------------------------------------------------------------------

SLIPS = {
    "pattern.別責": ("所占岡濟", "凡占岡濟"),
    "pattern.遙剋": ("日遙克時",),
    "pattern.虎視転蓬": ("視轉篷", "猶轉篷"),
}
MISREAD = ("general.騰蛇", "general.朱雀", "general.六合")


def test_the_originals_slips_are_marked_in_the_corpus() -> None:
    for unit_id, slips in SLIPS.items():
        unit = corpus().get(unit_id)
        assert [n.at for n in unit.notes_of("sic")] == list(slips)
        for slip in slips:
            assert slip in unit.original  # verbatim kept
            assert f"{slip}〔ママ〕" in unit.display_original
    for unit_id in MISREAD:
        unit = corpus().get(unit_id)
        (note,) = unit.notes_of("sic")
        assert note.field == "translation" and note.at.startswith("ただ") and "¶87" in note.says
        assert f"{note.at}〔ママ〕" in unit.display_translation and note.at in unit.translation


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
@pytest.mark.parametrize("lang", LANGS)
def test_every_reading_quoting_a_slip_shows_its_mark(lang: Lang) -> None:
    mark = text("reading.sic", lang)
    seen = 0
    readings = READINGS + [read(c) for c in classical_charts(BY_DAY_SCHOOL) if c.transmissions.method.name == "昴星"]
    for reading in readings:
        ids = {u.id for u in reading.units()}
        quoting = ids & (set(SLIPS) | set(MISREAD))
        if not quoting:
            continue
        shown = render_reading(reading, lang)
        for unit_id in quoting & set(SLIPS):
            seen += 1
            for slip in SLIPS[unit_id]:
                assert f"{slip}{mark}" in shown, (where(reading), unit_id)
        if lang in ("ja", "en"):
            for unit_id in quoting & set(MISREAD):
                seen += 1
                (note,) = corpus().get(unit_id).notes_of("sic")
                assert f"{note.at}〔ママ〕" in shown
    assert seen > 50


def test_the_japanese_mark_is_not_shown_to_other_readers() -> None:
    unit = corpus().get("pattern.別責")
    assert "〔ママ〕" in original(unit, "ja") and "〔ママ〕" not in original(unit, "zh-TW")
    assert "[sic]" in original(unit, "en")


# ---------------------------------------------------------------------------------------------------
# item 8: each thing once, where it belongs
# ---------------------------------------------------------------------------------------------------


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
@pytest.mark.parametrize("lang", LANGS)
def test_the_trace_is_printed_once(lang: Lang) -> None:
    for i, reading in enumerate(READINGS):
        out = printed(i, lang)
        for why in reading.chart.transmissions.trace:
            assert out.count(explain(why, lang)) == 1, (where(reading), explain(why, lang))


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
@pytest.mark.parametrize("lang", LANGS)
def test_an_undecided_pattern_is_named_once(lang: Lang) -> None:
    undecided = 0
    for i, reading in enumerate(READINGS):
        # the chart and its reading; the other schools' lines after them (docs/rules.md §10.1) name
        # the 課体 another school would gain or lose, which is not the reading naming it again
        out = printed(i, lang).split(text("alt.heading", lang))[0]
        for u in reading.patterns.undecided:
            undecided += 1
            name = term(u.name, lang)
            assert sum(name in row for row in out.split("\n")) == 1, (where(reading), name)
            assert out.count(explain(u.why, lang, with_seed=False)) == 1
    assert undecided >= 1260  # 龍首 alone is undecided in 1,260 of the 1,440 bare charts


@pytest.mark.slow  # over a second on the project's machine
def test_without_the_reading_the_chart_still_gives_its_patterns_and_trace(capsys: pytest.CaptureFixture[str]) -> None:
    """Said once is not said nowhere: `liuren cast` alone keeps the 課体 and the trace."""
    for i in range(0, len(CHARTS), 97):
        chart = CHARTS[i]
        for lang in LANGS:
            args = ["cast", "--day", str(chart.day), "--yuejiang", str(chart.yuejiang), "--hour", str(chart.hour),
                    "--lang", lang]
            assert cli_main(args) == 0
            out = capsys.readouterr().out
            assert all(out.count(explain(w, lang)) == 1 for w in chart.transmissions.trace)
            assert all(term(u.name, lang) in out for u in READINGS[i].patterns.undecided)


def test_the_day_paragraph_is_quoted_only_where_it_teaches_the_chart() -> None:
    """¶39 (日辰, 寄宮) was quoted whole in all 1,440: now only where a reason turns on a 寄宮."""
    lodging_rules = {Rule.EIGHT_SPECIALS_OVERCOMING, Rule.EIGHT_SPECIALS_YANG, Rule.EIGHT_SPECIALS_YIN,
                     Rule.SEPARATE_YANG, Rule.DEPTHS, Rule.P_八専, Rule.P_帷簿, Rule.P_乱首, Rule.P_贅婿, Rule.P_天獄}
    quoted = 0
    for reading in READINGS:
        reasons = (*reading.chart.transmissions.trace, *(w for p in reading.patterns.held for w in p.reasons))
        teaches = any(w.rule in lodging_rules for w in reasons)
        has = "procedure.日辰" in {u.id for u in reading.units()}
        assert has == teaches, where(reading)
        quoted += has
        day = reading.section(Section.干支)
        assert sum(1 for e in day for n in e.notes if isinstance(n, Note) and n.key == "seat") == 2
    assert 0 < quoted < len(READINGS) // 2


def test_the_placement_rule_never_stands_in_for_the_nobles_meaning() -> None:
    """¶87 天乙居中 places the generals; it was quoted as 貴人's meaning in 295 readings."""
    seen = 0
    for reading in READINGS:
        for step in reading.chart.steps:
            if step.general is not General.貴人:
                continue
            seen += 1
        for entry in reading.entries:
            assert entry.unit is None or entry.unit.id != "general.貴人", where(reading)
            if entry.role is Role.天将 and any(isinstance(n, Note) and n.key == "noble_opening" for n in entry.notes):
                assert entry.unit is None
    assert seen > 250


# ---------------------------------------------------------------------------------------------------
# item 9: what the project adds is marked, or not said
# ---------------------------------------------------------------------------------------------------

STATED = frozenset({"kin", "vigour", "void", "hidden_stem", "seat"})
# Notes that refer to the seed (their template cites the ¶) or to the reading itself.
CITING = frozenset({"no_verse", "no_line_天空", "no_rule_line", "hidden_chant_search_順", "hidden_chant_search_逆",
                    "noble_opening", "named_in"})
REFERRING = frozenset({"name", "name_framed", "pattern", "rides", "stands_on", "same_fact", "same_as", "undecided",
                       "method", "quoted_above", "excluded", "lodging", "no_line_on"})


@cache
def _every_reading() -> list[Reading]:
    return READINGS + [read(c) for school in (DEPTH_SCHOOL, BY_DAY_SCHOOL, School(fuyin_repeat_clash=True))
                       for c in classical_charts(school)]


@pytest.mark.slow  # over a second on the project's machine
def test_every_note_is_the_seeds_the_readings_or_stated_from_the_chart() -> None:
    """「ただし初伝亥は空亡：この課体の力は空に落ちる」 is a verdict the seed never gives."""
    for reading in _every_reading():
        for entry in reading.entries:
            keys = {n.key for n in entry.notes if isinstance(n, Note)}
            assert keys <= STATED | CITING | REFERRING, (where(reading), keys - STATED - CITING - REFERRING)
            if keys & STATED:
                # a fact from the chart never sits under a quotation, and always says it is stated
                assert entry.unit is None, (where(reading), entry)
                for lang in LANGS:
                    assert notes(entry, lang)[-1] == text("reading.stated", lang)
    for lang in LANGS:
        for key in CITING:
            assert "¶" in text(f"reading.{key}", lang, **{f: "x" for f in _fields(f"reading.{key}", lang)})


def _fields(key: str, lang: Lang) -> list[str]:
    return re.findall(r"{(\w+)}", words()[lang][key])


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_cites_its_paragraph_or_says_it_is_outside(lang: Lang) -> None:
    for reading in _every_reading()[:: 3]:
        for entry in reading.entries:
            for n in entry.notes:
                if isinstance(n, Why):
                    said = explain(n, lang)
                    assert said.endswith(cite(n.seed, lang) if n.seed else text(f"why.outside.{n.rule.value}", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_no_caveat_of_the_projects_own(lang: Lang) -> None:
    assert not any(k.startswith("reading.caveat") for k in words()[lang])
    for i in range(0, len(READINGS), 5):
        assert "空に落ちる" not in printed(i, lang) and "力は弱い" not in printed(i, lang)


# ---------------------------------------------------------------------------------------------------
# item 10 (second half): the quiz board does not give the method away
# ---------------------------------------------------------------------------------------------------


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
@pytest.mark.parametrize("lang", LANGS)
def test_the_method_question_hides_the_overcoming_row(lang: Lang) -> None:
    label = text("render.relation_row", lang)
    marks = {term(r, lang) for r in Relation}
    for chart in CHARTS:
        q = ask(chart, Kind.METHOD, random.Random(str(chart.day)))
        board = render_board(q, lang)
        assert label not in board, where(read(chart))
        rows = board.split("\n")
        lesson_rows = rows[1:5]
        assert not any(m in row for row in lesson_rows[1:] for m in marks), board
        assert str(chart.lessons[0].upper) in board  # the lessons themselves are still shown


def test_a_question_that_gives_the_initial_still_shows_the_row() -> None:
    # the initial question hides it now: the row marks the lesson the 初伝 is taken from
    chart = CHARTS[0]
    q = ask(chart, Kind.MIDDLE, random.Random(1))
    assert text("render.relation_row", "ja") in render_board(q, "ja")


def test_the_engines_own_six_relations_are_the_day_stems() -> None:  # docs/rules.md §6, item 3
    for chart in CHARTS:
        for step in chart.steps:
            assert isinstance(step.kin, Kin) and step.kin is kin(chart.day.stem.element, step.branch.element)
