"""Derived facts of a chart (docs/rules.md §6): 旬 and 空亡, the 伝 in detail, 驛馬, 丁神, 天馬, 太歳, 月建,
and the querent's 本命 and 行年.

Facts that need the month or the year (旺相休囚死, 天馬, 太歳, 月建, 行年) come from the chart's
moment; a chart cast from the classical inputs has none, so those facts are ``None`` and
``Facts.missing`` says which input would supply each one. A caller may also give the month and
year branches directly (``month=``, ``year=``), as a practitioner reading an old chart would.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .chart import Chart, Step
from .recent import Recent
from .symbols import BRANCHES, PILLARS, Branch, Element, Pillar, Stem, travel_horse
from .terms import VIGOURS, Input, Kin, Position, Sex, Vigour


class Supply(StrEnum):
    """What a caller can give to supply a missing fact."""

    MOMENT = "moment"  # cast from an instant instead of the classical inputs
    MONTH = "month"  # the month branch (月建)
    YEAR = "year"  # the year branch (太歳)
    BIRTH_YEAR = "birth_year"
    SEX = "sex"
    NO_YEAR_OVERRIDE = "no_year_override"  # the chart's own year as a number


@dataclass(frozen=True, slots=True)
class Missing:
    """A fact the chart lacks, and the inputs any one of which would supply it (``supply``)."""

    fact: Input
    supply: tuple[Supply, ...]


# 旺相休囚死 by the month branch (docs/rules.md §6): the season's element is 旺, the element it bears 相,
# the one that bore it 休, the one that overcomes it 囚, the one it overcomes 死.
VIGOUR_TABLE: tuple[tuple[str, str], ...] = (
    ("寅卯", "木火水金土"),
    ("巳午", "火土木水金"),
    ("申酉", "金水土火木"),
    ("亥子", "水木金土火"),
    ("辰戌丑未", "土金火木水"),
)
_VIGOUR: dict[tuple[Branch, Element], Vigour] = {
    (Branch[month], Element[element]): word
    for months, elements in VIGOUR_TABLE
    for month in months
    for element, word in zip(elements, VIGOURS, strict=True)
}


def vigour(branch: Branch, month: Branch) -> Vigour:
    """旺, 相, 休, 囚 or 死: how strong ``branch``'s element is in the month whose 月建 is ``month``."""
    return _VIGOUR[(month, branch.element)]


def heavenly_horse(month: Branch) -> Branch:
    """天馬 by the month branch: 寅月 午, then two branches on each month (卯月 申, 辰月 戌 …)."""
    return Branch.午 + 2 * (month - Branch.寅)


def ding_god(day: Pillar) -> Branch:
    """丁神: the branch that carries 丁 in the day's 旬 (甲子旬 卯, 甲戌旬 丑 …)."""
    return day.xun_start.branch + Stem.丁


def natal_branch(birth_year: int) -> Branch:
    """本命: the branch of the sexagenary year ``birth_year`` (1984 甲子 → 子).

    The year is taken as the sexagenary year that *begins at 立春* of that Gregorian year: someone
    born in January or early February before 立春 belongs to the previous year and should give it.
    """
    return BRANCHES[(birth_year - 1984) % 12]


def walking_year(natal: Branch, year: Branch, sex: Sex) -> Branch:
    """行年 in the year whose 太歳 is ``year``, for one born in the year ``natal``.

    Age counted 数え is 1 in the birth year, so ``year − natal`` (mod 12) is age − 1 (mod 12); a
    man's 行年 is 寅 at 1 and goes forward a branch a year, a woman's is 申 at 1 and goes back.
    """
    return walking_year_at_age((year - natal) % 12 + 1, sex)


def walking_year_at_age(age: int, sex: Sex) -> Branch:
    """行年 at a 数え age (1 in the birth year)."""
    if age < 1:
        raise ValueError(f"数え age {age} is not a valid age: it counts from 1 in the birth year")
    return Branch.寅 + (age - 1) if sex is Sex.男 else Branch.申 - (age - 1)


@dataclass(frozen=True, slots=True)
class StepFacts:
    """One 伝 with its derived facts. ``vigour`` is ``None`` when the month is not known."""

    position: Position
    branch: Branch
    hidden_stem: Stem | None  # 遁干; None when the branch is 空亡
    kin: Kin  # 六親 to the day stem
    void: bool
    vigour: Vigour | None  # 旺相休囚死 by 月建


@dataclass(frozen=True, slots=True)
class Facts:
    """The derived facts of one chart (docs/rules.md §6).

    Every ``None`` field is named in ``missing`` with the input that would supply it, so nothing
    is silently absent.
    """

    day: Pillar
    xun: Pillar  # the 甲 day that opens the 旬
    void: tuple[Branch, Branch]  # 空亡
    steps: tuple[StepFacts, StepFacts, StepFacts]
    travel_horse: Branch  # 驛馬 of the day branch
    ding: Branch  # 丁神
    heavenly_horse: Branch | None  # 天馬 by the month
    year: Branch | None  # 太歳
    month: Branch | None  # 月建
    natal: Branch | None  # 本命
    age: int | None  # 数え at the chart's year (needs the year as a number, i.e. a moment)
    sex: Sex | None
    walking_year: Branch | None  # 行年
    missing: tuple[Missing, ...]

    @property
    def initial(self) -> StepFacts:
        return self.steps[0]


def _sexagenary_year(chart: Chart) -> int | None:
    """The Gregorian number of the chart's sexagenary year (it begins at 立春), if it has a moment."""
    if chart.moment is None:
        return None
    local_year = chart.moment.local.year
    # Before 立春 the year pillar is still last year's: pick the one of the two that matches.
    for candidate in (local_year, local_year - 1):
        if BRANCHES[(candidate - 1984) % 12] == chart.moment.year.branch:
            return candidate
    raise AssertionError(f"year pillar {chart.moment.year} does not match {local_year}")


def facts(
    chart: Chart,
    *,
    birth_year: int | None = None,
    sex: Sex | str | None = None,
    month: Branch | None = None,
    year: Branch | None = None,
) -> Facts:
    """Derive the docs/rules.md §6 facts of ``chart``.

    ``month`` and ``year`` override (or, for a classically cast chart, supply) 月建 and 太歳.
    ``birth_year`` gives 本命 (see :func:`natal_branch` for the 立春 convention) and, with ``sex``
    and a known 太歳, 行年. The 数え ``age`` needs the chart's year as a number, so it is only known
    for a chart cast from an instant without a ``year`` override. Raises ``ValueError`` for a sex
    other than 男/女, a non-integer birth year, or a birth year after the chart's year.
    """
    if birth_year is None and sex is None and month is None and year is None:
        kept = _OWN.get(chart)
        return kept if kept is not None else _OWN.put(chart, _derive(chart, None, None, None, None))
    return _derive(chart, birth_year, sex, month, year)


# What a chart without a month, a year or birth data lacks: the same values for every chart, made once.
_NO_MONTH = tuple(Missing(fact, (Supply.MOMENT, Supply.MONTH)) for fact in (Input.月建, Input.天馬, Input.旺相休囚死))
_NO_YEAR = Missing(Input.太歳, (Supply.MOMENT, Supply.YEAR))
_NO_BIRTH = (Missing(Input.本命, (Supply.BIRTH_YEAR,)), Missing(Input.行年, (Supply.BIRTH_YEAR, Supply.SEX)))

# A chart shown several ways at once (text, JSON, reading) derives its own facts once (engine/recent.py).
_OWN: Recent[Chart, Facts] = Recent(64)


def _derive(
    chart: Chart, birth_year: int | None, sex: Sex | str | None, month: Branch | None, year: Branch | None
) -> Facts:
    if sex is not None and not isinstance(sex, Sex):
        if not isinstance(sex, str) or sex.strip() not in Sex.__members__:
            raise ValueError(f"unknown sex {sex!r}: give 男 or 女")
        sex = Sex[sex.strip()]
    if birth_year is not None and (isinstance(birth_year, bool) or not isinstance(birth_year, int)):
        raise ValueError(f"birth_year {birth_year!r} is not a year: give an integer such as 1990")
    if month is not None or year is not None:
        for label, value in (("month", month), ("year", year)):
            if value is not None and not isinstance(value, Branch):
                raise ValueError(f"{label}={value!r} is not a Branch: give one of 子丑寅卯辰巳午未申酉戌亥")

    missing: list[Missing] = []
    moment = chart.moment
    month_branch = month if month is not None else (moment.month.branch if moment else None)
    year_branch = year if year is not None else (moment.year.branch if moment else None)
    if month_branch is None:
        missing += _NO_MONTH
    if year_branch is None:
        missing.append(_NO_YEAR)

    natal: Branch | None = None
    age: int | None = None
    walking: Branch | None = None
    if birth_year is None:
        missing += _NO_BIRTH
    else:
        natal = natal_branch(birth_year)
        chart_year = _sexagenary_year(chart) if year is None else None
        if chart_year is not None:
            age = chart_year - birth_year + 1
            if age < 1:
                raise ValueError(
                    f"birth_year {birth_year} is after the chart's year {chart_year} "
                    "(years begin at 立春): give the year the querent was born"
                )
        else:
            missing.append(Missing(Input.数え, (Supply.MOMENT, Supply.NO_YEAR_OVERRIDE)))
        if sex is None:
            missing.append(Missing(Input.行年, (Supply.SEX,)))
        elif year_branch is None:
            missing.append(Missing(Input.行年, (Supply.MOMENT, Supply.YEAR)))
        else:
            walking = walking_year(natal, year_branch, sex)

    one, two, three = chart.steps
    day = chart.day
    vigours, horse = (None, None) if month_branch is None else (_VIGOURS[month_branch], _HEAVENLY_HORSE[month_branch])
    return Facts(day, day.xun_start, chart.void, (_step(one, vigours), _step(two, vigours), _step(three, vigours)),
                 travel_horse(day.branch), _DING[day.index], horse, year_branch, month_branch, natal, age, sex,
                 walking, tuple(missing))


def _step(step: Step, vigours: tuple[Vigour, ...] | None) -> StepFacts:
    """A 伝's facts; ``vigours``: the 旺相休囚死 of each branch in the month, if it is known."""
    return StepFacts(step.position, step.branch, step.hidden_stem, step.kin, step.void,
                     None if vigours is None else vigours[step.branch])


# What vigour, ding_god and heavenly_horse answer, for each month, day and month, worked out once at import.
_VIGOURS: tuple[tuple[Vigour, ...], ...] = tuple(tuple(vigour(b, month) for b in BRANCHES) for month in BRANCHES)
_DING: tuple[Branch, ...] = tuple(ding_god(day) for day in PILLARS)
_HEAVENLY_HORSE: tuple[Branch, ...] = tuple(heavenly_horse(month) for month in BRANCHES)


__all__ = [
    "VIGOUR_TABLE",
    "Facts",
    "Missing",
    "Sex",
    "StepFacts",
    "Supply",
    "ding_god",
    "facts",
    "heavenly_horse",
    "natal_branch",
    "vigour",
    "walking_year",
    "walking_year_at_age",
]
