"""The reading over all 1,440 classical charts: a teacher's order, each line once, nothing made up.

Checks on every chart (60 days × 12 plates, at 午 (晝) and 子 (夜)): the sections
come in a teacher's order; no unit is quoted twice; every void 伝 is said to be void; the openings that
speak only of the 發用 (¶95 「但見騰蛇」, ¶107 「或逢勾陳發用」) appear only for the 初伝; the method's
verse opens the 取法 section; a name line names only the branch's own name; 鋳印 is found where
docs/rules.md §7 (amended) puts it; and readings in English and Chinese contain no kana outside the seed's
own Japanese translation.
"""

from __future__ import annotations

import re

import pytest

from engine import School, cast_classical
from engine.symbols import Branch
from engine.terms import General, Method, PatternName, Position, Role
from testkit import classical
from texts.corpus import corpus
from texts.reading import Entry, Note, Section, read
from texts.reading.sentences import notes, render_reading

KANA = re.compile(r"[\u3040-\u30ff]")
# Cast and read once per run, shared with other files, on first use (testkit/classical.py)
CHARTS = classical.charts(School())
READINGS = classical.readings(School())
# The verse each method's rule begins with (¶51 賊剋, ¶55 比用渉害, ¶63 遙剋, ¶67, ¶71, ¶75, ¶79, ¶83).
VERSE = {
    Method.重審: "method.賊剋", Method.元首: "method.賊剋", Method.知一: "method.比用渉害",
    Method.見機: "method.比用渉害", Method.察微: "method.比用渉害", Method.綴瑕: "method.比用渉害",
    Method.蒿矢: "method.遙剋", Method.弾射: "method.遙剋", Method.昴星: "method.昴星", Method.別責: "method.別責",
    Method.八専: "method.八専", Method.自任: "method.伏吟反吟", Method.自信: "method.伏吟反吟",
    Method.無依: "method.反吟",
}


def keys(entry: Entry) -> set[str]:
    return {n.key for n in entry.notes if isinstance(n, Note)}


def test_there_are_1440_charts() -> None:
    assert len(CHARTS) == 1440 and len({(c.day, c.yuejiang, c.hour) for c in CHARTS}) == 1440


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
def test_sections_come_in_a_teachers_order() -> None:
    for reading in READINGS:
        sections = [e.section for e in reading.entries]
        assert sections == sorted(sections), reading.chart.day
        assert sections[0] is Section.課名 and sections[-1] is Section.取法


def test_no_unit_is_quoted_twice() -> None:
    for reading in READINGS:
        ids = [u.id for u in reading.units()]
        assert len(ids) == len(set(ids)), (reading.chart.day, reading.chart.yuejiang, reading.chart.hour)


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
def test_every_void_transmission_is_said_to_be_void() -> None:
    seen = 0
    for reading in READINGS:
        for step in reading.chart.steps:
            said = [e for e in reading.entries if e.position is step.position and "void" in keys(e)]
            repeated = any(e.position is step.position and e.same_as is not None for e in reading.entries)
            assert bool(said) == (step.void and not repeated), (reading.chart.day, step)
            seen += step.void
    assert seen > 200  # 244 void 初伝 alone among the 1,440, counted by hand


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
def test_initial_only_openings_only_for_the_initial() -> None:
    c = corpus()
    only = {c.general("騰蛇").id, c.general("勾陳").id}  # type: ignore[union-attr]
    for reading in READINGS:
        for e in reading.entries:
            if e.unit is not None and e.unit.id in only:
                assert e.position is Position.初伝


def test_the_methods_verse_opens_the_method_section() -> None:
    for reading in READINGS:
        t = reading.chart.transmissions
        first = next(e for e in reading.entries if e.section is Section.取法 and e.unit is not None)
        if t.frame is None or t.frame.name == t.method.name:
            assert first.unit is not None and first.unit.id == VERSE[t.method], t.name
        # And the trace ends the reading, every step of it.
        assert reading.entries[-1].notes == t.trace


def test_a_repeated_transmission_points_back() -> None:
    count = 0
    for reading in READINGS:
        steps = reading.chart.steps
        for later in steps[1:]:
            earlier = [s.position for s in steps if s.position < later.position and s.branch == later.branch]
            entries = [e for e in reading.entries if e.position is later.position]
            if earlier:
                count += 1
                assert [e.same_as for e in entries] == [earlier[0]] and all(e.unit is None for e in entries)
    assert count > 100


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
def test_name_lines_name_only_the_branchs_own_name() -> None:
    # 六合 on 卯 is 入室 (¶103 「升堂（午）入室（卯）」): the reading names 入室 alone.
    for reading in READINGS:
        for e in reading.entries:
            if e.role is Role.所臨 and e.unit is not None:
                step = reading.chart.steps[e.position]  # type: ignore[index]
                own = e.unit.name_on(step.ground)
                if own is not None:
                    assert e.names == (own,)


def test_casting_seal_charts() -> None:
    """鋳印 (docs/rules.md §7 as amended: 三伝 巳 戌 卯) on 34 of the 1,440 charts; the literal 「戌加巳發用」 never."""
    seal = [r for r in READINGS if PatternName.鋳印 in r.patterns.names]
    assert len(seal) == 34
    assert all(r.chart.transmissions.branches == (Branch.巳, Branch.戌, Branch.卯) for r in seal)
    assert not any(c.transmissions.initial == Branch.戌 and c.plate.down(Branch.戌) == Branch.巳 for c in CHARTS)


def test_pleiades_sub_forms_by_school() -> None:
    pleiades = [c for c in CHARTS if c.transmissions.method is Method.昴星]
    by_general = [(c.day, PatternName.冬蛇掩目 in read(c).patterns.names) for c in pleiades]
    assert [d for d, held in by_general if held] == [c.day for c in pleiades
                                                     if c.generals.on(c.transmissions.initial) is General.騰蛇]
    by_day = School(maoxing_by_day=True)
    for c in pleiades:
        names = read(cast_classical(c.day, c.yuejiang, c.hour, school=by_day)).patterns.names
        assert (PatternName.虎視転蓬 in names) == c.day.stem.is_yang
        assert (PatternName.冬蛇掩目 in names) == (not c.day.stem.is_yang)


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
@pytest.mark.parametrize("lang", ["en", "zh-TW", "zh-CN"])
def test_readings_in_english_and_chinese_have_no_kana_outside_the_seed(lang: str) -> None:
    from texts.corpus.shown import translation
    from texts.render import render_text

    for reading in READINGS[::7]:
        shown = render_text(reading.chart, lang) + "\n" + render_reading(reading, lang)
        for unit in reading.units():
            shown = shown.replace(translation(unit), "")
        assert not KANA.search(shown), (reading.chart.day, KANA.findall(shown)[:8])
    for reading in READINGS:  # every note of every chart
        for e in reading.entries:
            for line in notes(e, lang):
                assert not KANA.search(line), line


# -- readings worked out by hand ----------------------------------------------------------------


def test_by_hand_丙子_子将_未時_casting_the_seal() -> None:
    # k = 子 − 未 = 5. 丙 lodges at 巳: 戌/丙 (火生土: none); 卯/戌 (木剋土: 剋); 巳/子 (水剋火: 賊);
    # 戌/巳 (none). One 賊 → 重審, 初 巳; 相因: over 巳 戌, over 戌 卯 → 巳 戌 卯 with 戌 on 地盤 巳:
    # 鋳印 as 《六壬大全》 has it (丙子日 未時 子将). 支上神 巳 is 丙's 寄宮 and 子 (水) 剋 丙 (火): 乱首.
    reading = read(cast_classical("丙子", "子", "未"))
    assert reading.chart.transmissions.method is Method.重審
    assert {PatternName.重審, PatternName.鋳印, PatternName.乱首} == set(reading.patterns.names)
    c = corpus()
    named = [e.unit.id for e in reading.section(Section.課名) if e.unit]
    assert named == ["pattern.卦名", c.pattern("重審").id]  # type: ignore[union-attr]
    patterns = [e.unit.id for e in reading.section(Section.課体) if e.unit]
    assert patterns == [c.pattern("鋳印").id, c.pattern("乱首").id]  # type: ignore[union-attr]
    assert [e.unit.id for e in reading.section(Section.取法) if e.unit][:2] == ["method.賊剋", "method.重審"]


def test_by_hand_丁丑_卯将_午時_winter_snake() -> None:
    # k = 卯 − 午 = 9. 丁 at 未: 辰/丁, 丑/辰, 戌/丑, 未/戌 — no 剋; uppers 丑 戌 未 are 土 and 丁 is 火
    # (火生土): no 遙剋; four distinct lessons → 昴星. 陰日: 初 = the 地盤 under 天盤 酉 = 子; 中 干上神 辰,
    # 末 支上神 戌. 晝 丁 貴人 亥 over 地盤 寅 → 順: 騰蛇 over 卯, and 子 stands over 卯 → 冬蛇掩目 (¶147).
    reading = read(cast_classical("丁丑", "卯", "午"))
    chart = reading.chart
    assert chart.transmissions.branches == (Branch.子, Branch.辰, Branch.戌)
    assert chart.steps[0].general is General.騰蛇 and chart.steps[0].ground == Branch.卯
    assert PatternName.冬蛇掩目 in reading.patterns.names
    names = reading.section(Section.課名)
    # 昴星 has no verse in ¶139–¶175: said so, not filled with something else; 冬蛇掩目's verse is quoted.
    assert any("no_verse" in keys(e) and e.unit is None for e in names)
    assert corpus().pattern("冬蛇掩目") in [e.unit for e in names]
    # 騰蛇's opening speaks of the 發用: quoted for the 初伝.
    assert any(e.unit is corpus().general("騰蛇") and e.position is Position.初伝 for e in reading.entries)


def test_by_hand_丁丑_午将_子時_without_reliance() -> None:
    # k = 6: 反吟. 丁 at 未: 丑/丁 (火生土), 未/丑, 未/丑, 丑/未 (土土) — no 剋 → 無依 (¶79): 初 = 驛馬 of
    # 丑 (巳酉丑 → 亥), 中 支上神 未, 末 干上神 丑. 亥 is the 驛馬 → 官爵; 子 hour and 亥 (水) both 剋 丁 → 天網.
    reading = read(cast_classical("丁丑", "午", "子"))
    assert reading.chart.transmissions.branches == (Branch.亥, Branch.未, Branch.丑)
    method = [e.unit.id for e in reading.section(Section.取法) if e.unit]
    assert method == ["method.伏吟反吟", "method.反吟", "method.無依"]
    # The 反吟 verse carries the reasons of 反吟 and 無依 together: one quotation.
    ids = [u.id for u in reading.units()]
    assert ids.count(corpus().pattern("反吟").id) == 1  # type: ignore[union-attr]
    assert {PatternName.官爵, PatternName.天網} <= set(reading.patterns.names)
