"""Derived facts (docs/rules.md §6) against hand-worked examples; the reasoning is in the comments."""

from __future__ import annotations

from datetime import datetime

import pytest

from engine import Chart, cast, cast_classical
from engine.facts import Missing, Sex, Supply, facts, heavenly_horse, natal_branch, vigour, walking_year_at_age
from engine.symbols import BRANCHES, PILLARS, Branch, Stem
from engine.terms import Input

B = Branch
TOKYO = "Asia/Tokyo"
# 2024-06-01 12:00 Tokyo: 立夏 (May 5) has passed and 芒種 (June 5) has not → 巳月; the year began
# at 立春 2024-02-04 → 甲辰年 (太歳 辰). 2000-01-01 was 戊午, 2024-06-01 is 8918 days later,
# 8918 ≡ 38 (mod 60) → index 54 + 38 = 92 ≡ 32 → 丙申日.
JUNE_2024 = datetime(2024, 6, 1, 12, 0)
# 2024-01-20: before 立春 2024 → still 癸卯年 (2023's year, 太歳 卯), 丑月 (小寒 Jan 6 has passed).
JANUARY_2024 = datetime(2024, 1, 20, 12, 0)


def june() -> Chart:
    return cast(JUNE_2024, TOKYO)


def test_calendar_premises_of_these_examples() -> None:
    m = june().moment
    assert m is not None
    assert (str(m.day), m.month.branch, m.year.branch) == ("丙申", B.巳, B.辰)
    m = cast(JANUARY_2024, TOKYO).moment
    assert m is not None
    assert (str(m.year), m.month.branch) == ("癸卯", B.丑)


@pytest.mark.parametrize(
    ("branch", "month", "word"),
    [
        (B.寅, B.寅, "旺"),  # 寅月: 木 is the season itself → 旺
        (B.午, B.卯, "相"),  # 卯月 (木): 木 bears 火 → 火 相
        (B.子, B.寅, "休"),  # 水 bore 木, its work done → 休
        (B.酉, B.卯, "囚"),  # 金 would overcome 木, and is held → 囚
        (B.辰, B.寅, "死"),  # 土 is overcome by 木 → 死
        (B.未, B.午, "相"),  # 午月 (火): 火 bears 土 → 相
        (B.申, B.巳, "死"),  # 巳月: 火 overcomes 金 → 死
        (B.亥, B.戌, "死"),  # 戌月 (土): 土 overcomes 水 → 死
        (B.申, B.丑, "相"),  # 丑月 (土): 土 bears 金 → 相
        (B.卯, B.子, "相"),  # 子月 (水): 水 bears 木 → 相
        (B.午, B.亥, "死"),  # 亥月 (水): 水 overcomes 火 → 死
        (B.丑, B.酉, "休"),  # 酉月 (金): 土 bore 金 → 休
        (B.巳, B.申, "囚"),  # 申月 (金): 火 would overcome 金 → 囚
    ],
)
def test_vigour_examples(branch: Branch, month: Branch, word: str) -> None:
    assert str(vigour(branch, month)) == word


def test_vigour_table_as_written_in_rules() -> None:
    text = (
        "寅卯 木旺 火相 水休 金囚 土死; 巳午 火旺 土相 木休 水囚 金死; 申酉 金旺 水相 土休 火囚 木死; "
        "亥子 水旺 木相 金休 土囚 火死; 辰戌丑未 土旺 金相 火休 木囚 水死"
    )
    element = dict(zip("子丑寅卯辰巳午未申酉戌亥", "水土木木土火火土金金土水", strict=True))
    checked = 0
    for group in text.split("; "):
        months, *parts = group.split()
        for month in months:
            for part in parts:
                for branch in BRANCHES:
                    if element[str(branch)] == part[0]:
                        assert str(vigour(branch, Branch[month])) == part[1], (branch, month)
                        checked += 1
    assert checked == 12 * 12


def test_step_vigour_from_the_moment() -> None:
    # 丙申日 午時, 月将 申 (小満 May 20 was the last 中気) → k = 2. 丙 lodges at 巳: 未/丙, 酉/未,
    # 戌/申 have no 剋; up(戌) = 子: 子/戌, 土剋水 → the one 賊 → 重審, 初 子, 中 寅, 末 辰.
    # In 巳午 months 火旺 土相 木休 水囚 金死: 子 (水) 囚, 寅 (木) 休, 辰 (土) 相.
    f = facts(june())
    assert [s.branch for s in f.steps] == [B.子, B.寅, B.辰]
    assert [str(s.vigour) for s in f.steps] == ["囚", "休", "相"]
    # 遁干 and 六親 are carried over from the chart (甲午旬: 甲午 乙未 丙申 丁酉 戊戌 己亥 庚子 辛丑
    # 壬寅 癸卯, so 子 庚, 寅 壬, 辰 空亡); 丙 is 火: 子 水 剋我 官鬼, 寅 木 生我 父母, 辰 土 我生 子孫.
    assert [s.hidden_stem for s in f.steps] == [Stem.庚, Stem.壬, None]
    assert [str(s.kin) for s in f.steps] == ["官鬼", "父母", "子孫"]
    assert [s.void for s in f.steps] == [False, False, True]


@pytest.mark.parametrize(
    ("day", "xun", "void", "ding"),
    [
        ("甲子", "甲子", (B.戌, B.亥), B.卯),  # 甲子 乙丑 丙寅 丁卯 …; 癸酉 ends it, 戌亥 left over
        ("癸酉", "甲子", (B.戌, B.亥), B.卯),  # last day of the same 旬
        ("己卯", "甲戌", (B.申, B.酉), B.丑),  # 甲戌 乙亥 丙子 丁丑 …
        ("丙申", "甲午", (B.辰, B.巳), B.酉),  # 甲午 乙未 丙申 丁酉
        ("庚寅", "甲申", (B.午, B.未), B.亥),  # 甲申 乙酉 丙戌 丁亥
        ("癸丑", "甲辰", (B.寅, B.卯), B.未),  # 甲辰 乙巳 丙午 丁未
        ("癸亥", "甲寅", (B.子, B.丑), B.巳),  # 甲寅 乙卯 丙辰 丁巳
    ],
)
def test_xun_void_and_ding(day: str, xun: str, void: tuple[Branch, Branch], ding: Branch) -> None:
    f = facts(cast_classical(day, "子", "子"))
    assert (str(f.xun), f.void, f.ding) == (xun, void, ding)


def test_ding_over_all_days() -> None:
    # Independently: walk back from the day to its 甲, then three days on is the 丁 day.
    for index, day in enumerate(PILLARS):
        ding_day = PILLARS[index - index % 10 + 3]
        assert str(ding_day.stem) == "丁"
        assert facts(cast_classical(day, "子", "子")).ding == ding_day.branch


@pytest.mark.parametrize(
    ("day", "horse"),
    [("甲子", B.寅), ("丙辰", B.寅), ("庚申", B.寅),  # 申子辰 → 寅 (the clash of 申)
     ("丙午", B.申), ("甲寅", B.申), ("甲戌", B.申),  # 寅午戌 → 申
     ("乙酉", B.亥), ("乙巳", B.亥), ("乙丑", B.亥),  # 巳酉丑 → 亥
     ("乙卯", B.巳), ("乙未", B.巳), ("乙亥", B.巳)],  # 亥卯未 → 巳
)
def test_travel_horse(day: str, horse: Branch) -> None:
    assert facts(cast_classical(day, "子", "子")).travel_horse == horse


def test_heavenly_horse() -> None:
    # 寅月 午, then two on each month: 卯 申, 辰 戌, 巳 子, 午 寅, 未 辰, 申 午 (a full turn after six).
    written = dict(zip("寅卯辰巳午未申酉戌亥子丑", "午申戌子寅辰午申戌子寅辰", strict=True))
    for month, horse in written.items():
        assert heavenly_horse(Branch[month]) == Branch[horse]
        assert facts(cast_classical("甲子", "子", "子"), month=Branch[month]).heavenly_horse == Branch[horse]
    assert facts(june()).heavenly_horse == B.子  # 巳月


def test_natal_branch() -> None:
    # 1984 was 甲子, 1990 庚午 (six on), 2023 癸卯 (39 on: 39 ≡ 3 → 卯), 1900 庚子 (84 back ≡ 0).
    assert [natal_branch(y) for y in (1984, 1990, 2023, 1900)] == [B.子, B.午, B.卯, B.子]


@pytest.mark.parametrize(
    ("birth_year", "age", "man", "woman"),
    [
        (2024, 1, B.寅, B.申),  # born in the chart's own year: 数え 1 → 寅 / 申
        (2023, 2, B.卯, B.未),  # one year on: the man forward to 卯, the woman back to 未
        (2012, 13, B.寅, B.申),  # twelve more years: a full turn, back to 寅 / 申
    ],
)
def test_walking_year(birth_year: int, age: int, man: Branch, woman: Branch) -> None:
    chart = june()  # 甲辰年 2024
    pairs: tuple[tuple[Sex, Branch], ...] = ((Sex.男, man), (Sex.女, woman))
    for sex, want in pairs:
        f = facts(chart, birth_year=birth_year, sex=sex)
        assert (f.age, f.walking_year, f.natal) == (age, want, natal_branch(birth_year))
        assert walking_year_at_age(age, sex) == want


def test_walking_year_before_lichun() -> None:
    # 2024-01-20 is still the 癸卯 year (2023): one born in 2023 is 数え 1 → a man's 行年 寅.
    chart = cast(JANUARY_2024, TOKYO)
    f = facts(chart, birth_year=2023, sex="男")
    assert (f.year, f.age, f.walking_year) == (B.卯, 1, B.寅)
    with pytest.raises(ValueError, match="after the chart's year 2023"):
        facts(chart, birth_year=2024, sex="男")


def test_walking_year_from_branches_without_a_moment() -> None:
    # No moment: the age is unknown, but 行年 only needs age mod 12 = 太歳 − 本命 + 1.
    # Born 1990 (午), 太歳 辰 (e.g. 2024): 辰 − 午 ≡ 10 → 数え 11 (mod 12): 男 寅+10 = 子, 女 申−10 = 戌.
    chart = cast_classical("甲子", "子", "子")
    f = facts(chart, birth_year=1990, sex="男", year=B.辰)
    assert (f.age, f.walking_year) == (None, B.子)
    assert any(note.fact is Input.数え for note in f.missing)
    assert facts(chart, birth_year=1990, sex="女", year=B.辰).walking_year == B.戌
    # 1990 + 35 − 1 = 2024 → 35 ≡ 11 (mod 12): the same 行年 as counted by age.
    assert walking_year_at_age(35, Sex.男) == B.子 and walking_year_at_age(35, Sex.女) == B.戌


def test_classical_chart_lists_what_is_missing() -> None:
    f = facts(cast_classical("甲子", "亥", "午"))
    assert (f.month, f.year, f.heavenly_horse, f.natal, f.walking_year) == (None,) * 5
    assert all(s.vigour is None for s in f.steps)
    missing = {m.fact: m.supply for m in f.missing}
    for fact in (Input.月建, Input.天馬, Input.旺相休囚死, Input.太歳, Input.本命, Input.行年):
        assert fact in missing
    assert missing[Input.月建] == (Supply.MOMENT, Supply.MONTH)


def test_moment_chart_has_nothing_missing_with_birth_data() -> None:
    f = facts(june(), birth_year=1990, sex="女")
    assert f.missing == ()
    assert (f.month, f.year) == (B.巳, B.辰)


def test_overrides_win_over_the_moment() -> None:
    f = facts(june(), month=B.寅, year=B.子)
    assert (f.month, f.year, f.heavenly_horse) == (B.寅, B.子, B.午)
    assert [str(s.vigour) for s in f.steps] == ["休", "旺", "死"]  # 寅月: 水休 木旺 土死


def test_sex_needed_for_walking_year() -> None:
    f = facts(june(), birth_year=1990)
    assert f.natal == B.午 and f.walking_year is None
    assert Missing(Input.行年, (Supply.SEX,)) in f.missing


def test_bad_input_is_refused() -> None:
    chart = june()
    with pytest.raises(ValueError, match="give 男 or 女"):
        facts(chart, birth_year=1990, sex="M")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a year"):
        facts(chart, birth_year="1990")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a Branch"):
        facts(chart, month="寅")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="数え age"):
        walking_year_at_age(0, Sex.男)
