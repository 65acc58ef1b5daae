"""The casting rules of docs/rules.md §3–§5 and §8, checked over all 720 (day × plate) charts.

Each method's defining condition is restated here in plain code, independently of
engine/transmissions.py, so a wrong branch of the engine shows up as a disagreement.
"""

from __future__ import annotations

import itertools

import pytest

from engine import School, cast_classical
from engine.chart import Chart
from engine.generals import NOBLE_TABLES, place_generals
from engine.plate import PLATES, Plate
from engine.school import DEFAULT_SCHOOL, NobleTable
from engine.symbols import BRANCHES, PILLARS, STEMS, Branch, Pillar, Stem
from engine.transmissions import shehai_depth

ELEMENT = dict(zip("甲乙丙丁戊己庚辛壬癸", "木木火火土土金金水水", strict=True))
ELEMENT |= dict(zip("子丑寅卯辰巳午未申酉戌亥", "水土木木土火火土金金土水", strict=True))
KE = {("木", "土"), ("土", "水"), ("水", "火"), ("火", "金"), ("金", "木")}  # (a, b): a 剋 b
LODGE = dict(zip("甲乙丙丁戊己庚辛壬癸", "寅辰巳未巳未申戌亥丑", strict=True))  # ¶39


# docs/rules.md §4 and §7: every method a chart can be decided by.
METHOD_NAMES = frozenset((
    "重審", "元首", "知一", "見機", "察微", "綴瑕", "渉害", "蒿矢",
    "弾射", "昴星", "別責", "八専", "自任", "自信", "無依",
))  # fmt: skip
# docs/rules.md §5: the twelve generals in their order from 貴人.
GENERAL_ORDER = ("貴人", "騰蛇", "朱雀", "六合", "勾陳", "青龍", "天空", "白虎", "太常", "玄武", "太陰", "天后")
NOBLE_TABLE_NAMES: list[NobleTable] = ["甲牛", "甲羊"]


def name(value: object) -> str:
    """An engine value as the text a reader sees ("" for none): works for str and enum values alike."""
    return "" if value is None else str(value)


def ke(a: object, b: object) -> bool:
    return (ELEMENT[str(a)], ELEMENT[str(b)]) in KE


def all_charts(school: School = DEFAULT_SCHOOL, hour: Branch = Branch.子) -> list[Chart]:
    """60 days × 12 offsets: the 月将 is put over ``hour`` turned by k."""
    return [cast_classical(d, hour + k, hour, school=school) for d in PILLARS for k in range(12)]


CHARTS = all_charts()
SCHOOLS = [
    School(fuyin_repeat_clash=f, shehai_depth_first=s, noble_table=n)
    for f, s, n in itertools.product((False, True), (False, True), NOBLE_TABLE_NAMES)
]


def up(chart: Chart, b: Branch) -> Branch:
    return BRANCHES[(b + chart.plate.offset) % 12]


def lessons_of(chart: Chart) -> list[tuple[str, str]]:
    """(upper, lower) of the four lessons, recomputed from docs/rules.md §3."""
    stem, branch = str(chart.day.stem), chart.day.branch
    u1 = up(chart, Branch[LODGE[stem]])
    u3 = up(chart, branch)
    return [(str(u1), stem), (str(up(chart, u1)), str(u1)), (str(u3), str(branch)), (str(up(chart, u3)), str(u3))]


def uppers_with(chart: Chart, kind: str) -> list[str]:
    """Distinct uppers (lesson order) of lessons whose upper 剋 lower (kind 剋) or lower 剋 upper (賊)."""
    out: list[str] = []
    for u, lo in lessons_of(chart):
        hit = ke(u, lo) if kind == "剋" else ke(lo, u)
        if hit and u not in out:
            out.append(u)
    return out


def any_ke(chart: Chart) -> bool:
    return bool(uppers_with(chart, "剋") or uppers_with(chart, "賊"))


def yang(x: str) -> bool:
    order = "甲乙丙丁戊己庚辛壬癸" if x in "甲乙丙丁戊己庚辛壬癸" else "子丑寅卯辰巳午未申酉戌亥"
    return order.index(x) % 2 == 0


def is_bazhuan(day: Pillar) -> bool:
    return LODGE[str(day.stem)] == str(day.branch)


def incomplete(chart: Chart) -> bool:
    places = [(u, LODGE.get(lo, lo)) for u, lo in lessons_of(chart)]
    return len(set(places)) < 4


def remote_candidates(chart: Chart) -> tuple[str, list[str]]:
    uppers = list(dict.fromkeys(u for u, _ in lessons_of(chart)[1:]))
    stem = str(chart.day.stem)
    hao = [u for u in uppers if ke(u, stem)]
    if hao:
        return "蒿矢", hao
    return "弾射", [u for u in uppers if ke(stem, u)]


# ---- docs/rules.md §8 -------------------------------------------------------------------------------


def test_seed_example_plate() -> None:
    """¶45: 月将 亥 at the 午 hour → 亥 over 午, 子 over 未, 丑 over 申."""
    chart = cast_classical("甲子", "亥", "午")
    assert chart.plate.up(Branch.午) == Branch.亥
    assert chart.plate.up(Branch.未) == Branch.子
    assert chart.plate.up(Branch.申) == Branch.丑
    assert chart.plate.down(Branch.亥) == Branch.午


def test_fuyin_overcoming_only_on_yi_and_gui_days() -> None:
    days = {str(c.day.stem) for c in CHARTS if c.plate.offset == 0 and any(x.relation for x in c.lessons)}
    assert days == {"乙", "癸"}


def test_fanyin_without_overcoming_exactly_on_six_days() -> None:
    days = {str(c.day) for c in CHARTS if c.plate.offset == 6 and not any(x.relation for x in c.lessons)}
    assert days == {"丁丑", "己丑", "辛丑", "丁未", "己未", "辛未"}
    for c in CHARTS:
        if c.plate.offset == 6:
            assert (name(c.transmissions.method) == "無依") == (str(c.day) in days)


@pytest.mark.parametrize("school", SCHOOLS, ids=str)
def test_every_chart_is_decided(school: School) -> None:
    for c in all_charts(school):
        t = c.transmissions
        assert name(t.method) in METHOD_NAMES
        assert len(t.branches) == 3 and all(isinstance(b, Branch) for b in t.branches)
        assert t.trace and t.trace[-1]
        assert {str(s.general) for s in c.steps} <= set(GENERAL_ORDER)


# ---- docs/rules.md §3: lessons ----------------------------------------------------------------------


def test_lessons_follow_rules() -> None:
    for c in CHARTS:
        expected = lessons_of(c)
        for lesson, (u, lo) in zip(c.lessons, expected, strict=True):
            assert (str(lesson.upper), str(lesson.lower)) == (u, lo)
            rel = "剋" if ke(u, lo) else "賊" if ke(lo, u) else ""
            assert name(lesson.relation) == rel
        assert isinstance(c.lessons[0].lower, Stem)


# ---- docs/rules.md §4: each method's defining condition --------------------------------------------


def test_frames_match_offsets_and_days() -> None:
    for c in CHARTS:
        frame = name(c.transmissions.frame)
        assert (frame == "伏吟") == (c.plate.offset == 0)
        if c.plate.offset == 6:
            assert frame == "反吟"
        elif c.plate.offset != 0:
            assert (frame == "八専") == is_bazhuan(c.day)


def test_zeike_methods_satisfy_their_conditions() -> None:
    for c in CHARTS:
        t = c.transmissions
        method = name(t.method)
        if name(t.frame) == "伏吟" or method in ("無依", "八専", "蒿矢", "弾射", "昴星", "別責"):
            continue
        assert any_ke(c), c.day
        rebels = uppers_with(c, "賊")
        cands = rebels or uppers_with(c, "剋")
        ini = str(t.initial)
        assert ini in cands
        assert [str(x) for x in t.candidates] == cands
        alike = [x for x in cands if yang(x) == c.day.stem.is_yang]
        if method == "重審":
            assert len(rebels) == 1
        elif method == "元首":
            assert not rebels and len(cands) == 1
        elif method == "知一":
            assert len(cands) > 1 and alike == [ini]
        else:
            assert method in ("見機", "察微", "綴瑕"), method
            assert len(cands) > 1 and len(alike) != 1
            pool = alike or cands
            ground = {x: str(c.plate.down(Branch[x])) for x in pool}
            meng = [x for x in pool if ground[x] in "寅申巳亥"]
            zhong = [x for x in pool if ground[x] in "子午卯酉"]
            if method == "見機":
                assert meng == [ini]
            elif method == "察微":
                assert not meng and zhong == [ini]
            else:
                tied = meng if meng else zhong if zhong else pool
                assert len(tied) > 1 and ini in tied
                pick = str(c.lessons[0].upper if c.day.stem.is_yang else c.lessons[2].upper)
                assert ini == (pick if pick in tied else tied[0])
        # 相因 (¶51)
        assert t.middle == up(c, t.initial) and t.final == up(c, t.middle)


def test_remote_methods() -> None:
    seen = set()
    for c in CHARTS:
        t = c.transmissions
        if name(t.method) not in ("蒿矢", "弾射"):
            continue
        seen.add(name(t.method))
        assert c.plate.offset not in (0, 6) and not is_bazhuan(c.day) and not any_ke(c)
        method, picked = remote_candidates(c)
        assert name(t.method) == method and str(t.initial) in picked
        if len(picked) > 1:
            alike = [x for x in picked if yang(x) == c.day.stem.is_yang]
            if len(alike) == 1:
                assert str(t.initial) == alike[0]
        assert t.middle == up(c, t.initial) and t.final == up(c, t.middle)
    assert seen == {"蒿矢", "弾射"}


def test_no_overcoming_methods() -> None:
    counts = {"昴星": 0, "別責": 0, "八専": 0}
    for c in CHARTS:
        t = c.transmissions
        method = name(t.method)
        if method not in counts:
            continue
        counts[method] += 1
        assert not any_ke(c) and c.plate.offset not in (0, 6)
        s1, s3 = c.lessons[0].upper, c.lessons[2].upper
        if method == "八専":
            assert is_bazhuan(c.day)
            start = s1 + 2 if c.day.stem.is_yang else c.lessons[3].upper - 2
            assert t.branches == (start, s1, s1)
            continue
        assert not is_bazhuan(c.day) and not remote_candidates(c)[1]
        if method == "昴星":
            assert not incomplete(c)
            if c.day.stem.is_yang:
                assert t.branches == (up(c, Branch.酉), s3, s1)
            else:
                assert t.branches == (c.plate.down(Branch.酉), s1, s3)
        else:
            assert incomplete(c)
            if c.day.stem.is_yang:
                partner = STEMS[(c.day.stem + 5) % 10]
                assert t.initial == up(c, Branch[LODGE[str(partner)]])
            else:
                nxt = {"酉": "丑", "丑": "巳", "巳": "酉", "子": "辰", "辰": "申", "申": "子",
                       "卯": "未", "未": "亥", "亥": "卯", "午": "戌", "戌": "寅", "寅": "午"}
                assert str(t.initial) == nxt[str(c.day.branch)]
            assert t.middle == t.final == s1
    assert all(counts.values()), counts


PUNISH = dict(zip("子丑寅卯辰巳午未申酉戌亥", "卯戌巳子辰申午丑寅酉未亥", strict=True))


@pytest.mark.parametrize("repeat_clash", [False, True])
def test_fuyin(repeat_clash: bool) -> None:
    school = School(fuyin_repeat_clash=repeat_clash)
    for day in PILLARS:
        c = cast_classical(day, "子", "子", school=school)
        t = c.transmissions
        s1, s3 = str(c.lessons[0].upper), str(c.lessons[2].upper)
        assert name(t.method) == ("自任" if day.stem.is_yang else "自信")
        has_ke = str(day.stem) in "乙癸"
        ini = s1 if (day.stem.is_yang or has_ke) else s3
        assert str(t.initial) == ini
        if PUNISH[ini] == ini:
            mid = s3 if ini == s1 and (day.stem.is_yang or has_ke) else s1
        else:
            mid = PUNISH[ini]
        assert str(t.middle) == mid
        fin = PUNISH[mid]
        if fin == mid or (repeat_clash and fin == ini):
            fin = "子丑寅卯辰巳午未申酉戌亥"[("子丑寅卯辰巳午未申酉戌亥".index(mid) + 6) % 12]
        assert str(t.final) == fin


def test_fuyin_school_option_ding_mao() -> None:
    """docs/rules.md §4.1: 丁卯 伏吟 is 卯子卯 by default, 卯子午 in the other school."""
    assert "".join(map(str, cast_classical("丁卯", "子", "子").transmissions.branches)) == "卯子卯"
    other = cast_classical("丁卯", "子", "子", school=School(fuyin_repeat_clash=True))
    assert "".join(map(str, other.transmissions.branches)) == "卯子午"


def test_no_reliance_transmissions() -> None:
    horse = {"丑": "亥", "未": "巳"}  # ¶79 note
    for c in CHARTS:
        if name(c.transmissions.method) == "無依":
            t = c.transmissions
            assert str(t.initial) == horse[str(c.day.branch)]
            assert (t.middle, t.final) == (c.lessons[2].upper, c.lessons[0].upper)


def test_shehai_depth_option_only_changes_shehai_charts() -> None:
    depth = all_charts(School(shehai_depth_first=True))
    changed = 0
    for a, b in zip(CHARTS, depth, strict=True):
        if name(a.transmissions.method) in ("見機", "察微", "綴瑕") or name(b.transmissions.method) == "渉害":
            changed += a.transmissions.branches != b.transmissions.branches
        else:
            assert a.transmissions == b.transmissions
    assert changed > 0  # the option does something


# ---- docs/rules.md §4.4: the classical 渉害 depth (school option shehai_depth_first) ----------------

ORDER = "子丑寅卯辰巳午未申酉戌亥"
LODGED_ON = {b: [s for s, home in LODGE.items() if home == b] for b in ORDER}  # 寄宮 by branch


def depth_from_rules(offset: int, candidate: str) -> int:
    """docs/rules.md §4.4: walk the 地盤 from the candidate's position (the branch under it) forward to its
    own branch, exclusive, counting each branch, and each stem lodged there, whose element 剋 it."""
    home = ORDER.index(candidate)
    place = (home - offset) % 12
    count = 0
    while place != home:
        count += ke(ORDER[place], candidate)
        count += sum(ke(stem, candidate) for stem in LODGED_ON[ORDER[place]])
        place = (place + 1) % 12
    return count


def test_shehai_depth_worked_examples() -> None:
    # 亥 (水) over 地盤 未 (k = 4): walk 未 申 酉 戌. 土 剋 水: 未, 戌, and 己 lodged on 未
    # (丁 also lodges there but is 火; 庚 on 申 and 辛 on 戌 are 金) → 3.
    assert shehai_depth(Plate(4), Branch.亥) == 3
    # 申 (金) over 地盤 寅 (k = 6): walk 寅 卯 辰 巳 午 未. 火 剋 金: 巳, 午, and the lodged
    # 丙 (on 巳) and 丁 (on 未); 甲 乙 戊 己 lodged on the way are not 火 → 4.
    assert shehai_depth(Plate(6), Branch.申) == 4
    # 子 (水) over 地盤 申 (k = 4): 申 酉 戌 亥 → 戌 (土) and nothing lodged that is 土 → 1.
    assert shehai_depth(Plate(4), Branch.子) == 1
    # 伏吟: every branch is home, nothing to walk.
    assert all(shehai_depth(Plate(0), b) == 0 for b in BRANCHES)


def test_shehai_depth_entry_by_entry() -> None:
    """All 12 plates × 12 candidates against the count restated from docs/rules.md."""
    for plate in PLATES:
        for candidate in BRANCHES:
            assert shehai_depth(plate, candidate) == depth_from_rules(plate.offset, str(candidate)), (
                plate.offset,
                str(candidate),
            )


def test_shehai_depth_first_takes_the_deepest_candidate() -> None:
    """Under the option, a 賊剋 step settled by 渉害 takes the deepest of the pool (docs/rules.md §4.4)."""
    decided_by_depth = 0
    for c in all_charts(School(shehai_depth_first=True)):
        if c.plate.offset == 0 or not any_ke(c):
            continue  # 伏吟 has its own rule; without 剋 there is no 賊剋 step
        cands = uppers_with(c, "賊") or uppers_with(c, "剋")
        alike = [x for x in cands if yang(x) == c.day.stem.is_yang]
        if len(cands) < 2 or len(alike) == 1:
            continue  # 重審/元首/知一: no 渉害
        pool = alike or cands
        depths = {x: depth_from_rules(c.plate.offset, x) for x in pool}
        deepest = [x for x in pool if depths[x] == max(depths.values())]
        assert str(c.transmissions.initial) in deepest, (str(c.day), c.plate.offset, depths)
        if len(deepest) == 1:
            assert name(c.transmissions.method) == "渉害", (str(c.day), c.plate.offset)
            decided_by_depth += 1
    assert decided_by_depth > 0


# ---- docs/rules.md §5: generals ---------------------------------------------------------------------

# 貴人 by day stem as (晝, 夜), written out from docs/rules.md §5's own wording, stem by stem:
# 甲牛 "甲戊庚 丑/未, 乙己 子/申, 丙丁 亥/酉, 辛 午/寅, 壬癸 巳/卯";
# 甲羊 "甲 未/丑, 乙 申/子, 丙 酉/亥, 丁 亥/酉, 戊庚 丑/未, 己 子/申, 辛 寅/午, 壬 卯/巳, 癸 巳/卯".
NOBLE_FROM_RULES: dict[str, dict[str, tuple[str, str]]] = {
    "甲牛": {
        "甲": ("丑", "未"), "戊": ("丑", "未"), "庚": ("丑", "未"), "乙": ("子", "申"), "己": ("子", "申"),
        "丙": ("亥", "酉"), "丁": ("亥", "酉"), "辛": ("午", "寅"), "壬": ("巳", "卯"), "癸": ("巳", "卯"),
    },
    "甲羊": {
        "甲": ("未", "丑"), "乙": ("申", "子"), "丙": ("酉", "亥"), "丁": ("亥", "酉"), "戊": ("丑", "未"),
        "庚": ("丑", "未"), "己": ("子", "申"), "辛": ("寅", "午"), "壬": ("卯", "巳"), "癸": ("巳", "卯"),
    },
}  # fmt: skip
DAY_HOURS = "卯辰巳午未申"  # 晝 = hours 卯–申, 夜 = 酉–寅


@pytest.mark.parametrize("table", NOBLE_TABLE_NAMES)
def test_noble_table_entry_by_entry(table: NobleTable) -> None:
    """Each of the 10 stems × (晝, 夜) entries, in the table and as place_generals seats it."""
    expected = NOBLE_FROM_RULES[table]
    assert sorted(expected) == sorted("甲乙丙丁戊己庚辛壬癸")
    assert {str(s): (str(NOBLE_TABLES[table][s][0]), str(NOBLE_TABLES[table][s][1])) for s in STEMS} == expected
    for stem in STEMS:
        for hour in BRANCHES:
            daytime = str(hour) in DAY_HOURS
            want = expected[str(stem)][0 if daytime else 1]
            for plate in PLATES:
                g = place_generals(stem, hour, plate, table)
                assert (str(g.noble), g.daytime) == (want, daytime), (table, str(stem), str(hour), plate.offset)
                assert str(g.on(g.noble)) == "貴人"
                assert g.noble_ground == plate.down(g.noble)


def test_the_two_noble_tables_differ_where_rules_says() -> None:
    """The two tables agree on 丁 戊 己 庚 癸 and differ on 甲 乙 丙 辛 壬, as docs/rules.md §5 lists them."""
    same = {s for s in "甲乙丙丁戊己庚辛壬癸" if NOBLE_TABLES["甲牛"][Stem[s]] == NOBLE_TABLES["甲羊"][Stem[s]]}
    assert same == {s for s in "甲乙丙丁戊己庚辛壬癸" if NOBLE_FROM_RULES["甲牛"][s] == NOBLE_FROM_RULES["甲羊"][s]}
    assert same == {"丁", "戊", "己", "庚", "癸"}


@pytest.mark.parametrize("table", NOBLE_TABLE_NAMES)
@pytest.mark.parametrize("hour", list(BRANCHES), ids=str)
def test_generals(hour: Branch, table: NobleTable) -> None:
    daytime = str(hour) in DAY_HOURS
    for c in all_charts(School(noble_table=table), hour=hour):
        g = c.generals
        assert str(g.noble) == NOBLE_FROM_RULES[table][str(c.day.stem)][0 if daytime else 1]
        assert str(g.on(g.noble)) == "貴人"
        p = c.plate.down(g.noble)
        clockwise = str(p) in "亥子丑寅卯辰"
        assert g.clockwise == clockwise
        for i, general in enumerate(GENERAL_ORDER):
            ground = BRANCHES[(p + (i if clockwise else -i)) % 12]
            assert str(g.over(ground)) == general
            assert str(g.on(up(c, ground))) == general


def test_steps_carry_general_hidden_stem_kin_and_void() -> None:
    for c in CHARTS:
        xun = PILLARS[c.day.index - c.day.stem]
        for s in c.steps:
            assert s.general == c.generals.on(s.branch)
            assert s.ground == c.plate.down(s.branch)
            n = (s.branch - xun.branch) % 12
            assert s.hidden_stem == (STEMS[n] if n < 10 else None)
            assert s.void == (n >= 10) == (s.branch in c.void)
