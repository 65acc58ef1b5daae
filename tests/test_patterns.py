"""The 課体 of docs/rules.md §7, checked chart by chart against a second, plainly written reading.

Every definition is restated below from docs/rules.md §7 with its own small tables (elements, 剋, 孟仲季,
寄宮, 旺相, 天馬, 驛馬, 丁神) and compared with ``engine.patterns`` over:

- the 720 classical charts, each cast at hour 午 (晝) and at hour 子 (夜) with the same offset,
  where the moment-dependent patterns must come out held, undecided or absent exactly as the
  definition allows without a moment;
- the same 1440 charts again with ``month``/``year``/birth data given, so nothing is undecided;
- charts cast from instants spread over 2020–2025 (with birth data for 行年).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest

from engine import Chart, School, cast, cast_classical
from engine.alternatives import OPTION_VALUES
from engine.chart import classical_chart
from engine.facts import Facts, Sex, facts
from engine.patterns import GENERALS_READ, PATTERN_NAMES, SCHOOL_READ, Unknown, classify, detect
from engine.patterns.rules import FRAME_NEEDED, METHOD_NEEDED, RULES, RULES_FOR
from engine.symbols import BRANCHES, PILLARS, Branch
from engine.terms import General, Input, Method, PatternName
from testkit.classical import Lazy
from texts.words.explain import explain

BRANCH_CHARS = "子丑寅卯辰巳午未申酉戌亥"
STEM_CHARS = "甲乙丙丁戊己庚辛壬癸"
ELEMENT = dict(zip(STEM_CHARS, "木木火火土土金金水水", strict=True))
ELEMENT |= dict(zip(BRANCH_CHARS, "水土木木土火火土金金土水", strict=True))
KE = {("木", "土"), ("土", "水"), ("水", "火"), ("火", "金"), ("金", "木")}  # (a, b): a 剋 b
LODGE = dict(zip(STEM_CHARS, "寅辰巳未巳未申戌亥丑", strict=True))  # ¶39
MENG, ZHONG, JI = "寅申巳亥", "子午卯酉", "辰戌丑未"
# docs/rules.md §6, copied as written.
VIGOUR_TEXT = (
    "寅卯 木旺 火相 水休 金囚 土死; 巳午 火旺 土相 木休 水囚 金死; 申酉 金旺 水相 土休 火囚 木死; "
    "亥子 水旺 木相 金休 土囚 火死; 辰戌丑未 土旺 金相 火休 木囚 水死"
)
VIGOUR = {
    (month, part[0]): part[1]
    for group in VIGOUR_TEXT.split("; ")
    for months, *parts in [group.split()]
    for month in months
    for part in parts
}
# 天馬: 寅月 午, then +2 each month, written out.
HEAVENLY_HORSE = dict(zip("寅卯辰巳午未申酉戌亥子丑", "午申戌子寅辰午申戌子寅辰", strict=True))
TRAVEL_HORSE = {b: h for group, h in (("申子辰", "寅"), ("寅午戌", "申"), ("巳酉丑", "亥"), ("亥卯未", "巳"))
                for b in group}
SEXAGENARY = [STEM_CHARS[i % 10] + BRANCH_CHARS[i % 12] for i in range(60)]


def ke(a: object, b: object) -> bool:
    return (ELEMENT[str(a)], ELEMENT[str(b)]) in KE


def ding_of(day: str) -> str:
    """丁 is the fourth day of the 旬: find the 甲 day opening it, count on three."""
    start = SEXAGENARY.index(day) // 10 * 10
    return SEXAGENARY[start + 3][1]


class Known:
    """What the test knows besides the chart: 月建, 太歳, 行年 as characters, or None."""

    def __init__(self, month: str | None, year: str | None, walking: str | None) -> None:
        self.month, self.year, self.walking = month, year, walking


HELD, UNDECIDED = "held", "undecided"
Verdict = str | None  # HELD, UNDECIDED or None (absent)


def expected(chart: Chart, known: Known) -> dict[str, str]:
    """Each §7 pattern's verdict, read straight off the definition."""
    t = chart.transmissions
    ch = [str(b) for b in t.branches]
    first, last = ch[0], ch[2]
    day_stem, day_branch = str(chart.day.stem), str(chart.day.branch)
    lessons = chart.lessons
    u1, u3 = str(lessons[0].upper), str(lessons[2].upper)

    def carries(branch: str) -> str:
        return str(chart.generals.on(Branch[branch]))

    def ground(branch: str) -> str:
        return BRANCH_CHARS[(BRANCH_CHARS.index(branch) - chart.plate.offset) % 12]

    def undecided_or(value: bool, known_value: str | None) -> Verdict:
        return HELD if value else (UNDECIDED if known_value is None else None)

    v: dict[str, Verdict] = {}
    for name in ("元首", "重審", "知一", "見機", "察微", "蒿矢", "弾射", "昴星", "別責", "自任", "自信", "無依"):
        v[name] = HELD if t.method.name == name else None
    v["八専"] = v["帷簿"] = HELD if t.frame is not None and t.frame.name == "八専" else None
    v["伏吟"] = HELD if chart.plate.offset == 0 else None
    v["反吟"] = HELD if chart.plate.offset == 6 else None
    v["冬蛇掩目"] = HELD if t.method.name == "昴星" and carries(first) == "騰蛇" else None
    v["虎視転蓬"] = HELD if t.method.name == "昴星" and carries(first) == "白虎" else None

    # 龍首: any one known reason settles it; otherwise it waits on whichever of 太歳/月建 is unknown.
    head = first in (known.year, known.month, str(chart.yuejiang)) or carries(first) == "貴人"
    if head:
        v["龍首"] = HELD
    elif known.year is None or known.month is None:
        v["龍首"] = UNDECIDED
    else:
        v["龍首"] = None

    if first not in "卯酉":
        v["龍戦"] = None
    elif day_branch in "卯酉":
        v["龍戦"] = HELD
    else:
        v["龍戦"] = undecided_or(known.walking is not None and known.walking in "卯酉", known.walking)

    v["官爵"] = HELD if first == TRAVEL_HORSE[day_branch] else None
    v["富貴"] = HELD if carries(first) == "貴人" else None
    v["斫輪"] = HELD if first == "卯" and ground("卯") == "申" else None
    # docs/rules.md §7 as amended: 三伝 巳 戌 卯 in that order (戌 on 地盤 巳 as the 中伝).
    v["鋳印"] = HELD if ch == ["巳", "戌", "卯"] else None
    v["高蓋乗軒"] = HELD if ch == ["午", "卯", "子"] else None
    v["蕪淫"] = HELD if ke(u1, day_branch) and ke(u3, day_stem) else None
    v["淫女"] = HELD if carries(first) == "天后" and carries(last) == "六合" and ("卯" in ch or "酉" in ch) else None
    v["三交"] = HELD if all(b in ZHONG for b in ch) else None
    v["九醜"] = HELD if day_stem in "乙戊己辛壬" and day_branch in ZHONG and ground("丑") in ZHONG else None
    v["斬関"] = HELD if any(u in "辰戌" and carries(u) in ("六合", "青龍") for u in (u1, u3)) else None

    all_ji = all(b in JI for b in ch)
    if not all_ji:
        v["遊子"] = None
    elif ding_of(str(chart.day)) in ch:
        v["遊子"] = HELD
    elif known.month is None:
        v["遊子"] = UNDECIDED
    else:
        v["遊子"] = HELD if HEAVENLY_HORSE[known.month] in ch else None

    if u1 != "辰":
        v["天獄"] = None
    elif known.month is None:
        v["天獄"] = UNDECIDED
    else:
        v["天獄"] = HELD if VIGOUR[(known.month, ELEMENT[first])] in ("囚", "死") else None

    v["天網"] = HELD if ke(chart.hour, day_stem) and ke(first, day_stem) else None
    v["玄胎"] = HELD if all(b in MENG for b in ch) else None
    v["贅婿"] = HELD if u1 == day_branch and ke(day_stem, u1) and first == u1 else None
    v["無禄"] = HELD if all(ke(x.upper, x.lower) for x in lessons) else None
    v["絶嗣"] = HELD if all(ke(x.lower, x.upper) for x in lessons) else None
    v["励徳"] = HELD if str(chart.generals.noble_ground) in "卯酉" else None
    v["乱首"] = HELD if u3 == LODGE[day_stem] and ke(day_branch, day_stem) else None
    v["稼穡"] = HELD if all_ji else None
    for name, members in (("曲直", "亥卯未"), ("従革", "巳酉丑"), ("炎上", "寅午戌"), ("潤下", "申子辰")):
        v[name] = HELD if set(ch) == set(members) else None
    assert set(v) == {p.name for p in PATTERN_NAMES}
    return {name: verdict for name, verdict in v.items() if verdict is not None}


def actual(chart: Chart, given: Facts | None = None) -> dict[str, str]:
    result = classify(chart, given)
    found = {p.name.name: HELD for p in result.held} | {u.name.name: UNDECIDED for u in result.undecided}
    assert len(found) == len(result.held) + len(result.undecided), "a pattern both held and undecided"
    order = [PATTERN_NAMES.index(p.name) for p in result.held]
    assert order == sorted(order), "held patterns out of docs/rules.md §7 order"
    for p in result.held:
        assert p.reasons and all(explain(w, "ja") for w in p.reasons)
    for u in result.undecided:
        assert u.needs and explain(u.why, "ja")
    return found


def classical(hour: Branch) -> list[Chart]:
    return [cast_classical(day, hour + k, hour) for day in PILLARS for k in range(12)]


# Cast on first use (testkit.classical.Lazy), so a worker or a run that selects none of the tests
# using them does not cast 8,742 charts at collection.
DAY = Lazy(lambda: classical(Branch.午))  # 晝
NIGHT = Lazy(lambda: classical(Branch.子))  # 夜
START, STEP = datetime(2020, 1, 1, 0, 30), timedelta(hours=7, minutes=13)
INSTANTS = Lazy(lambda: [cast(START + i * STEP, "Asia/Tokyo") for i in range(6 * 1217)])  # ≈ six years


def moment_known(chart: Chart, walking: str | None = None) -> Known:
    assert chart.moment is not None
    return Known(str(chart.moment.month.branch), str(chart.moment.year.branch), walking)


def test_day_and_night_share_offsets() -> None:
    for d, n in zip(DAY, NIGHT, strict=True):
        assert d.plate.offset == n.plate.offset and d.day == n.day
        assert d.generals.daytime and not n.generals.daytime


@pytest.mark.parametrize("charts", [DAY, NIGHT], ids=["晝", "夜"])
def test_classical_charts_agree_with_definitions(charts: Sequence[Chart]) -> None:
    nothing = Known(None, None, None)
    for chart in charts:
        assert actual(chart) == expected(chart, nothing), f"{chart.day} k={chart.plate.offset} {chart.hour}"


@pytest.mark.parametrize("charts", [DAY, NIGHT], ids=["晝", "夜"])
def test_only_the_school_options_named_are_read(charts: Sequence[Chart]) -> None:
    # engine.alternatives gives an alternative alike but for another option the chart's own 課体;
    # an option named is read for the charts of its method only.
    for chart in charts:
        want = classify(chart)
        for option, values in OPTION_VALUES.items():
            if SCHOOL_READ.get(option) is chart.transmissions.method:
                continue
            for value in values:
                other = replace(chart, school=replace(chart.school, **{option: value}))
                assert classify(other) == want, f"{chart.day} k={chart.plate.offset} {chart.hour} {option}={value}"


def _decided_alike_but(read: Container[PatternName], variants: Iterable[tuple[Chart, Chart, str]]) -> None:
    """Each (chart, variant, where): the variant's parts decide every pattern outside ``read`` as the
    chart's own do, reasons and all, given the chart's facts."""
    def others(patterns: tuple[Any, ...]) -> list[Any]:
        return [p for p in patterns if p.name not in read]

    for chart, other, where in variants:
        want, got = classify(chart), classify(other, facts(chart))
        assert others(got.held) == others(want.held), where
        assert others(got.undecided) == others(want.undecided), where


@pytest.mark.parametrize("charts", [DAY, NIGHT], ids=["晝", "夜"])
def test_only_the_patterns_named_read_the_generals(charts: Sequence[Chart]) -> None:
    # engine.alternatives decides only these again for a chart alike but for its 天将 (the 貴人
    # table's alternative): the chart's parts with the generals of the other table and of the other
    # half of the day decide every other pattern as the chart's own do.
    def variants(chart: Chart) -> Iterable[tuple[Chart, Chart, str]]:
        for table in ("甲牛", "甲羊"):
            for daytime in (True, False):
                placed = classical_chart(chart.day, chart.yuejiang, chart.hour,
                                         replace(chart.school, noble_table=table), daytime)
                yield (chart, replace(chart, generals=placed.generals, steps=placed.steps),
                       f"{chart.day} k={chart.plate.offset} {chart.hour} {table} {daytime}")

    _decided_alike_but(GENERALS_READ, (v for chart in charts for v in variants(chart)))


@pytest.mark.parametrize("charts", [DAY, NIGHT], ids=["晝", "夜"])
def test_only_the_patterns_that_need_a_method_read_it(charts: Sequence[Chart]) -> None:
    # engine.alternatives decides only these again for a chart alike but for its method (渉害's depth
    # count): under any other method, and either 昴星 naming, the chart's parts decide every other
    # pattern as the chart's own do.
    def variants(chart: Chart) -> Iterable[tuple[Chart, Chart, str]]:
        for method in Method:
            for by_day in (False, True):
                yield (chart, replace(chart, transmissions=replace(chart.transmissions, method=method),
                                      school=replace(chart.school, maoxing_by_day=by_day)),
                       f"{chart.day} k={chart.plate.offset} {chart.hour} {method} {by_day}")

    _decided_alike_but(METHOD_NEEDED, (v for chart in charts for v in variants(chart)))


@pytest.mark.parametrize("charts", [DAY, NIGHT], ids=["晝", "夜"])
def test_a_pattern_outside_a_charts_method_and_frame_never_holds(charts: Sequence[Chart]) -> None:
    # classify asks a chart only RULES_FOR its method and frame: every other rule answers None,
    # whatever the method, the frame, the school's 昴星 naming or the facts given.
    for i, chart in enumerate(charts):
        given = facts(chart, month=BRANCHES[i % 12], year=BRANCHES[(i * 5) % 12], birth_year=1930 + i % 71, sex="男")
        for known in (facts(chart), given):
            for by_day in (False, True):
                read = replace(chart, school=replace(chart.school, maoxing_by_day=by_day))
                t = read.transmissions
                asked = {name for name, _ in RULES_FOR[t.method][0 if t.frame is None else t.frame + 1]}
                assert [name for name, rule in RULES if name not in asked and rule(read, known) is not None] == []
                assert asked == {name for name in PATTERN_NAMES
                                 if METHOD_NEEDED.get(name, t.method) is t.method
                                 and FRAME_NEEDED.get(name, t.frame) is t.frame}


@pytest.mark.parametrize("charts", [DAY, NIGHT], ids=["晝", "夜"])
def test_classical_charts_with_month_year_and_birth_given(charts: Sequence[Chart]) -> None:
    # Vary the given month, year and querent over the charts so every month and sex is used.
    for i, chart in enumerate(charts):
        month, year = BRANCHES[i % 12], BRANCHES[(i * 5) % 12]
        birth_year = 1930 + i % 71
        sex: Sex = "男" if i % 2 else "女"
        given = facts(chart, month=month, year=year, birth_year=birth_year, sex=sex)
        # 行年 from 太歳 and 本命: years since birth ≡ year − natal (mod 12), as 数え age − 1.
        years = (BRANCH_CHARS.index(str(year)) - (birth_year - 4)) % 12
        walking = BRANCH_CHARS[(2 + years) % 12] if sex == "男" else BRANCH_CHARS[(8 - years) % 12]
        want = expected(chart, Known(str(month), str(year), walking))
        assert UNDECIDED not in want.values()
        assert actual(chart, given) == want, f"{chart.day} k={chart.plate.offset} {chart.hour}"


@pytest.mark.slow  # over a second on the project's machine
def test_instant_charts_agree_with_definitions() -> None:
    for chart in INSTANTS:
        assert actual(chart) == expected(chart, moment_known(chart)), str(chart.moment)


@pytest.mark.slow  # over a second on the project's machine
def test_instant_charts_with_walking_year() -> None:
    for i, chart in enumerate(INSTANTS):
        assert chart.moment is not None
        birth_year = 1940 + i % 80
        sex: Sex = "男" if i % 3 else "女"
        # The chart's sexagenary year: the local year, or the one before when 立春 has not come.
        chart_year = chart.moment.local.year
        if BRANCH_CHARS[(chart_year - 4) % 12] != str(chart.moment.year.branch):
            chart_year -= 1
        age = chart_year - birth_year + 1
        walking = BRANCH_CHARS[(2 + age - 1) % 12] if sex == "男" else BRANCH_CHARS[(8 - (age - 1)) % 12]
        given = facts(chart, birth_year=birth_year, sex=sex)
        assert given.age == age
        assert actual(chart, given) == expected(chart, moment_known(chart, walking)), str(chart.moment)


# Under docs/rules.md §4–§5, whatever the school, enumeration proves:
# - the seed's literal 鋳印 「戌加巳發用」 (初伝 戌 over 地盤 巳) never occurs: 戌 (土) over 巳 (火) or
#   over the stems lodged at 巳 (丙 火, 戊 土) is never 剋 or 賊, so 戌 is never a 賊剋 candidate there;
#   and on the one plate with 戌 over 巳 (offset 5) none of the 60 days falls to 遙剋, 昴星 or 別責
#   with 初 戌. That is why docs/rules.md §7 reads 鋳印 as 三伝 巳 戌 卯 (checked in the definitions above).
# - 虎視転蓬 needs 昴星 with 白虎 on 初伝 (the default): over the 16 昴星 charts × 晝夜 × both 貴人
#   tables, 白虎 never rides the 初伝 (騰蛇 does once: 冬蛇掩目 on 丁丑, 晝).
NEVER = {"虎視転蓬"}
SCHOOLS = [School(noble_table=n, shehai_depth_first=s, fuyin_repeat_clash=f)
           for n in ("甲牛", "甲羊") for s in (False, True) for f in (False, True)]


@pytest.mark.slow  # over a second on the project's machine
def test_never_possible_by_enumeration() -> None:
    for school in SCHOOLS:
        for hour in (Branch.午, Branch.子):
            for day in PILLARS:
                for k in range(12):
                    chart = cast_classical(day, hour + k, hour, school=school)
                    t = chart.transmissions
                    assert not (t.initial == Branch.戌 and chart.plate.down(Branch.戌) == Branch.巳)
                    assert not (t.method is Method.昴星 and chart.generals.on(t.initial) is General.白虎)
                    assert not NEVER & {p.name.name for p in detect(chart)}


def test_every_other_pattern_occurs() -> None:
    seen: set[str] = set()
    for chart in DAY + NIGHT + INSTANTS:
        seen.update(p.name.name for p in detect(chart))
    assert seen == {p.name for p in PATTERN_NAMES} - NEVER


def test_each_pattern_has_negative_cases() -> None:
    for name in PATTERN_NAMES:
        assert any(name not in {p.name for p in detect(c)} for c in DAY + NIGHT)


# Hand-worked charts.


def test_kouji_high_canopy() -> None:
    # 甲子日 子時 月将酉 (k=9). 甲 lodges at 寅, up(寅)=亥: 亥/甲 (水生木, none); 申/亥 (none);
    # up(子)=酉: 酉/子 (none); up(酉)=午: 午/酉 火剋金 → one 剋 → 元首, 初午 中卯 末子.
    # 午卯子 in order → 高蓋乗軒; all 仲 → 三交. 夜 甲 貴人 未 over 地盤 戌 → 逆, so 午 (over 酉)
    # carries 騰蛇: not 龍首 by 貴人, and 午 is not the 月将 酉 → 龍首 waits on 太歳/月建.
    chart = cast_classical("甲子", "酉", "子")
    result = classify(chart)
    assert [p.name.name for p in result.held] == ["元首", "高蓋乗軒", "三交"]
    assert result.undecided == (Unknown(PatternName.龍首, (Input.太歳, Input.月建), result.undecided[0].why),)
    # Given 月建 午 (e.g. a 午月), it is decided: 初 午 is the 月建.
    decided = classify(chart, facts(chart, month=Branch.午, year=Branch.辰))
    head = next(p for p in decided.held if p.name is PatternName.龍首)
    assert [explain(w, "ja", with_seed=False) for w in head.reasons] == ["初伝午が月建"]
    assert decided.undecided == ()


def test_dingchou_return_chant_without_reliance() -> None:
    # 丁丑日 子時 月将午 (k=6, 反吟). 丁 lodges at 未: 丑/丁, 未/丑, 未/丑, 丑/未 — no 剋 → 無依:
    # 初 = 驛馬 of 丑 (巳酉丑 → 亥) → 官爵. Hour 子 (水) and 初 亥 (水) both 剋 丁 (火) → 天網.
    # 夜 丁 貴人 酉 over 地盤 卯 → 励徳.
    chart = cast_classical("丁丑", "午", "子")
    assert chart.transmissions.branches == (Branch.亥, Branch.未, Branch.丑)
    assert [p.name.name for p in detect(chart)] == ["反吟", "無依", "官爵", "天網", "励徳"]


def test_break_barrier_reason() -> None:
    # 甲子日 午時 月将寅 (k=8): 干上神 = up(寅) = 戌. 晝 甲 貴人 丑 over 地盤 巳 → 逆: 巳 貴人,
    # 辰 騰蛇, 卯 朱雀, 寅 六合 — 戌 stands over 寅, so it carries 六合.
    chart = cast_classical("甲子", "寅", "午")
    barrier = next(p for p in detect(chart) if p.name is PatternName.斬関)
    assert [explain(w, "ja", with_seed=False) for w in barrier.reasons] == ["干上神戌に六合が乗る"]
    assert [explain(w, "en", with_seed=False) for w in barrier.reasons] != ["干上神戌に六合が乗る"]


def test_dragon_battle_needs_walking_year() -> None:
    # Find a chart whose 初 is 卯/酉 but whose day branch is not: 龍戦 waits on 行年.
    chart = next(c for c in DAY if c.transmissions.initial in (Branch.卯, Branch.酉)
                 and c.day.branch not in (Branch.卯, Branch.酉))
    unknown = {u.name.name: u for u in classify(chart).undecided}
    assert unknown["龍戦"].needs == (Input.行年,)
    # A man whose 行年 is 卯: 数え 2 (寅 at 1, forward one). Born 2023, chart year 2024 (太歳 辰).
    given = facts(chart, birth_year=2023, sex="男", year=Branch.辰, month=Branch.巳)
    assert given.walking_year == Branch.卯
    assert PatternName.龍戦 in [p.name for p in detect(chart, given)]
    # A woman born the same year walks 未 (申 at 1, back one): not 卯/酉.
    given = facts(chart, birth_year=2023, sex="女", year=Branch.辰, month=Branch.巳)
    assert given.walking_year == Branch.未
    assert PatternName.龍戦 not in [p.name for p in classify(chart, given).held]
    assert PatternName.龍戦 not in [u.name for u in classify(chart, given).undecided]


def test_facts_from_another_chart_are_refused() -> None:
    with pytest.raises(ValueError, match="do not belong"):
        detect(DAY[0], facts(DAY[100]))
