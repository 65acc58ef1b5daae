"""The casting rules of RULES.md §3–§5 and §8, checked over all 720 (day × plate) charts.

Each method's defining condition is restated here in plain code, independently of
engine/transmissions.py, so a wrong branch of the engine shows up as a disagreement.
"""

from __future__ import annotations

import itertools

import pytest

from engine import School, cast_classical
from engine.chart import Chart
from engine.generals import GENERALS
from engine.school import DEFAULT_SCHOOL
from engine.symbols import BRANCHES, PILLARS, STEMS, Branch, Pillar, Stem
from engine.transmissions import METHODS

ELEMENT = dict(zip("甲乙丙丁戊己庚辛壬癸", "木木火火土土金金水水", strict=True))
ELEMENT |= dict(zip("子丑寅卯辰巳午未申酉戌亥", "水土木木土火火土金金土水", strict=True))
KE = {("木", "土"), ("土", "水"), ("水", "火"), ("火", "金"), ("金", "木")}  # (a, b): a 剋 b
LODGE = dict(zip("甲乙丙丁戊己庚辛壬癸", "寅辰巳未巳未申戌亥丑", strict=True))  # ¶39


def ke(a: object, b: object) -> bool:
    return (ELEMENT[str(a)], ELEMENT[str(b)]) in KE


def all_charts(school: School = DEFAULT_SCHOOL, hour: Branch = Branch.子) -> list[Chart]:
    """60 days × 12 offsets: the 月将 is put over ``hour`` turned by k."""
    return [cast_classical(d, hour + k, hour, school=school) for d in PILLARS for k in range(12)]


CHARTS = all_charts()
SCHOOLS = [
    School(fuyin_repeat_clash=f, shehai_depth_first=s, noble_table=n)
    for f, s, n in itertools.product((False, True), (False, True), ("甲牛", "甲羊"))
]


def up(chart: Chart, b: Branch) -> Branch:
    return BRANCHES[(b + chart.plate.offset) % 12]


def lessons_of(chart: Chart) -> list[tuple[str, str]]:
    """(upper, lower) of the four lessons, recomputed from RULES §3."""
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


# ---- RULES §8 -------------------------------------------------------------------------------


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
            assert (c.transmissions.method == "無依") == (str(c.day) in days)


@pytest.mark.parametrize("school", SCHOOLS, ids=str)
def test_every_chart_is_decided(school: School) -> None:
    for c in all_charts(school):
        t = c.transmissions
        assert t.method in METHODS
        assert len(t.branches) == 3 and all(isinstance(b, Branch) for b in t.branches)
        assert t.trace and t.trace[-1]
        assert {s.general for s in c.steps} <= set(GENERALS)


# ---- RULES §3: lessons ----------------------------------------------------------------------


def test_lessons_follow_rules() -> None:
    for c in CHARTS:
        expected = lessons_of(c)
        for lesson, (u, lo) in zip(c.lessons, expected, strict=True):
            assert (str(lesson.upper), str(lesson.lower)) == (u, lo)
            rel = "剋" if ke(u, lo) else "賊" if ke(lo, u) else ""
            assert lesson.relation == rel
        assert isinstance(c.lessons[0].lower, Stem)


# ---- RULES §4: each method's defining condition --------------------------------------------


def test_frames_match_offsets_and_days() -> None:
    for c in CHARTS:
        frame = c.transmissions.frame
        assert (frame == "伏吟") == (c.plate.offset == 0)
        if c.plate.offset == 6:
            assert frame == "反吟"
        elif c.plate.offset != 0:
            assert (frame == "八専") == is_bazhuan(c.day)


def test_zeike_methods_satisfy_their_conditions() -> None:
    for c in CHARTS:
        t = c.transmissions
        if t.frame == "伏吟" or t.method in ("無依", "八専", "蒿矢", "弾射", "昴星", "別責"):
            continue
        assert any_ke(c), c.day
        rebels = uppers_with(c, "賊")
        cands = rebels or uppers_with(c, "剋")
        ini = str(t.initial)
        assert ini in cands
        assert [str(x) for x in t.candidates] == cands
        alike = [x for x in cands if yang(x) == c.day.stem.is_yang]
        if t.method == "重審":
            assert len(rebels) == 1
        elif t.method == "元首":
            assert not rebels and len(cands) == 1
        elif t.method == "知一":
            assert len(cands) > 1 and alike == [ini]
        else:
            assert t.method in ("見機", "察微", "綴瑕"), t.method
            assert len(cands) > 1 and len(alike) != 1
            pool = alike or cands
            ground = {x: str(c.plate.down(Branch[x])) for x in pool}
            meng = [x for x in pool if ground[x] in "寅申巳亥"]
            zhong = [x for x in pool if ground[x] in "子午卯酉"]
            if t.method == "見機":
                assert meng == [ini]
            elif t.method == "察微":
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
        if t.method not in ("蒿矢", "弾射"):
            continue
        seen.add(t.method)
        assert c.plate.offset not in (0, 6) and not is_bazhuan(c.day) and not any_ke(c)
        method, picked = remote_candidates(c)
        assert t.method == method and str(t.initial) in picked
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
        if t.method not in counts:
            continue
        counts[t.method] += 1
        assert not any_ke(c) and c.plate.offset not in (0, 6)
        s1, s3 = c.lessons[0].upper, c.lessons[2].upper
        if t.method == "八専":
            assert is_bazhuan(c.day)
            start = s1 + 2 if c.day.stem.is_yang else c.lessons[3].upper - 2
            assert t.branches == (start, s1, s1)
            continue
        assert not is_bazhuan(c.day) and not remote_candidates(c)[1]
        if t.method == "昴星":
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
        assert t.method == ("自任" if day.stem.is_yang else "自信")
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
    """RULES §4.1: 丁卯 伏吟 is 卯子卯 by default, 卯子午 in the other school."""
    assert "".join(map(str, cast_classical("丁卯", "子", "子").transmissions.branches)) == "卯子卯"
    other = cast_classical("丁卯", "子", "子", school=School(fuyin_repeat_clash=True))
    assert "".join(map(str, other.transmissions.branches)) == "卯子午"


def test_no_reliance_transmissions() -> None:
    horse = {"丑": "亥", "未": "巳"}  # ¶79 note
    for c in CHARTS:
        if c.transmissions.method == "無依":
            t = c.transmissions
            assert str(t.initial) == horse[str(c.day.branch)]
            assert (t.middle, t.final) == (c.lessons[2].upper, c.lessons[0].upper)


def test_shehai_depth_option_only_changes_shehai_charts() -> None:
    depth = all_charts(School(shehai_depth_first=True))
    changed = 0
    for a, b in zip(CHARTS, depth, strict=True):
        if a.transmissions.method in ("見機", "察微", "綴瑕") or b.transmissions.method == "渉害":
            changed += a.transmissions.branches != b.transmissions.branches
        else:
            assert a.transmissions == b.transmissions
    assert changed > 0  # the option does something


# ---- RULES §5: generals ---------------------------------------------------------------------

NOBLE = {  # 甲牛: (晝, 夜)
    "甲": "丑未", "戊": "丑未", "庚": "丑未", "乙": "子申", "己": "子申",
    "丙": "亥酉", "丁": "亥酉", "辛": "午寅", "壬": "巳卯", "癸": "巳卯",
}


@pytest.mark.parametrize("hour", list(BRANCHES), ids=str)
def test_generals(hour: Branch) -> None:
    daytime = Branch.卯 <= hour <= Branch.申
    for c in all_charts(hour=hour):
        g = c.generals
        assert str(g.noble) == NOBLE[str(c.day.stem)][0 if daytime else 1]
        assert g.on(g.noble) == "貴人"
        p = c.plate.down(g.noble)
        clockwise = str(p) in "亥子丑寅卯辰"
        assert g.clockwise == clockwise
        for i, name in enumerate(GENERALS):
            ground = BRANCHES[(p + (i if clockwise else -i)) % 12]
            assert g.over(ground) == name
            assert g.on(up(c, ground)) == name


def test_steps_carry_general_hidden_stem_kin_and_void() -> None:
    for c in CHARTS:
        xun = PILLARS[c.day.index - c.day.stem]
        for s in c.steps:
            assert s.general == c.generals.on(s.branch)
            assert s.ground == c.plate.down(s.branch)
            n = (s.branch - xun.branch) % 12
            assert s.hidden_stem == (STEMS[n] if n < 10 else None)
            assert s.void == (n >= 10) == (s.branch in c.void)
