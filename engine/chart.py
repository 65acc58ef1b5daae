"""A whole chart, and the two ways to cast one: from an instant, or from the classical inputs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

from . import calendar
from .generals import Generals, is_daytime, place_generals
from .lessons import Lesson, four_lessons
from .plate import Plate, plate_for
from .school import DEFAULT_SCHOOL, School
from .solar import Solar, read_sun
from .sun import Place
from .symbols import BRANCHES, PILLARS, STEMS, Branch, Element, Pillar, Stem, parse_branch
from .terms import POSITIONS, General, Kin, Position
from .transmissions import Transmissions, three_transmissions


class CastError(ValueError):
    """Input a chart cannot be cast from; the message says what is accepted."""


@dataclass(frozen=True, slots=True)
class Step:
    """One of the three transmissions as a reader sees it on the chart."""

    position: Position
    branch: Branch  # on the 天盤
    ground: Branch  # the 地盤 branch under it
    general: General  # the 天将 riding it
    hidden_stem: Stem | None  # 遁干 in the day's 旬; None when the branch is 空亡
    kin: Kin  # 六親 to the day stem
    void: bool  # in 旬空


@dataclass(frozen=True, slots=True)
class Chart:
    """A cast 課: everything needed to read it, and ``transmissions.trace`` for why."""

    day: Pillar
    hour: Branch
    yuejiang: Branch
    school: School
    plate: Plate
    lessons: tuple[Lesson, Lesson, Lesson, Lesson]
    transmissions: Transmissions
    generals: Generals
    steps: tuple[Step, Step, Step]
    void: tuple[Branch, Branch]
    moment: calendar.Moment | None = None
    sun: Solar | None = None  # the place and what the sun said, when a place was given (docs/rules.md §10)

    @property
    def stem_upper(self) -> Branch:
        """干上神: the upper of lesson 1."""
        return self.lessons[0].upper

    @property
    def branch_upper(self) -> Branch:
        """支上神: the upper of lesson 3."""
        return self.lessons[2].upper


# 六親 by how the branch's element stands to the day stem's (docs/rules.md §6).
def kin(day_element: Element, element: Element) -> Kin:
    """父母 (生我), 子孫 (我生), 官鬼 (剋我), 妻財 (我剋) or 兄弟 (比和)."""
    if element == day_element:
        return Kin.兄弟
    if element.generates(day_element):
        return Kin.父母
    if day_element.generates(element):
        return Kin.子孫
    if element.overcomes(day_element):
        return Kin.官鬼
    return Kin.妻財


def hidden_stem(day: Pillar, branch: Branch) -> Stem | None:
    """遁干: the stem the day's 旬 gives this branch, counting from its 甲."""
    index = (branch - day.xun_start.branch) % 12
    return STEMS[index] if index < 10 else None


# The school options a classical chart's parts are built from (cast reads the calendar's and the
# sun's): under a school that differs in another, a chart has the same parts.
PARTS_READ = frozenset({"noble_table", "fuyin_repeat_clash", "shehai_depth_first"})
# Of those, the options only the 天将 are placed by: under another value a chart has the same parts
# but its generals and its steps' generals.
GENERALS_FROM = frozenset({"noble_table"})
# Each school's charts, by (day, 月将, hour) as one number, with the School object they all share.
_CACHE: dict[School, tuple[School, dict[int, Chart]]] = {}
_T = TypeVar("_T")


def _read(value: object, kind: type[_T], parse: Callable[[str], _T], name: str, example: str) -> _T:
    """``value`` as a ``kind``: taken as it is, or parsed from text; ``CastError`` otherwise."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        try:
            return parse(value)
        except ValueError as error:
            raise CastError(str(error)) from None
    raise CastError(f"{name}={value!r} is not {example} (a {kind.__name__} or its characters)")


def cast_classical(
    day: str | Pillar, yuejiang: str | Branch, hour: str | Branch, *, school: School = DEFAULT_SCHOOL
) -> Chart:
    """Cast from the three classical inputs: the day pillar, the 月将 and the hour branch.

    There are only 60 × 12 × 12 such inputs per school, so each chart is built once and shared.
    """
    pillar = _read(day, Pillar, Pillar.parse, "day", "a pillar such as '甲子'")
    general = _read(yuejiang, Branch, parse_branch, "yuejiang", "a branch such as '亥'")
    hour_branch = _read(hour, Branch, parse_branch, "hour", "a branch such as '午'")
    if school.needs_place:
        raise CastError(_needs_place(school, "the classical inputs have no moment and no place") + (
            "; cast from a moment with place=, or use school.by_the_clock()"))
    return classical_chart(pillar, general, hour_branch, school, None)


def _needs_place(school: School, missing: str) -> str:
    asked = [f"{name}={value}" for name, value, default in (
        ("daynight", school.daynight, "hours"), ("hour_by", school.hour_by, "clock")) if value != default]
    return f"{' and '.join(asked)} reads the sun at a place, but {missing}"


def classical_chart(
    pillar: Pillar, general: Branch, hour_branch: Branch, school: School, daytime: bool | None
) -> Chart:
    """The shared chart of the classical inputs, 晝夜 by the hour unless ``daytime`` says otherwise (the
    sun); ``school``'s sun options are not checked here (the caller read the sun already)."""
    kept = _CACHE.get(school)
    if kept is None:  # one School object for all the charts of a school (callers make a new equal one)
        kept = _CACHE[school] = (school, {})
    shared, charts = kept
    key = (pillar.index * 12 + general) * 12 + hour_branch
    if daytime is not None and daytime != is_daytime(hour_branch):
        key = -1 - key  # the sun's 晝夜 against the hour's: a chart of its own
    chart = charts.get(key)
    if chart is None:
        chart = charts[key] = _build(pillar, general, hour_branch, shared, daytime)
    return chart


def cast(
    at: datetime | None = None,
    tz: str | None = None,
    *,
    school: School = DEFAULT_SCHOOL,
    yuejiang: Branch | None = None,
    place: Place | None = None,
) -> Chart:
    """Cast for an instant: an aware ``at`` carries its own zone (a ``ZoneInfo`` gives the chart its
    IANA name); ``tz`` is for a naive ``at`` (local time there) or to show an aware one in another
    zone. ``at=None`` means now, in ``tz``.

    ``yuejiang`` overrides the 月将 the calendar gives (practitioners often set it by hand).
    ``place`` is where the question is asked: the school options that read the sun (``daynight="sun"``,
    ``hour_by="mean"``/``"apparent"``) need it, and the chart's ``sun`` records what it said.
    Raises ``CastError`` (a ``ValueError``) for a zone, a moment or a date the calendar refuses, or a
    school that reads the sun without a place.
    """
    if at is not None and not isinstance(at, datetime):
        raise CastError(f"at={at!r} is not a datetime: give an aware datetime, or a naive one with tz=")
    if yuejiang is not None and not isinstance(yuejiang, Branch):
        raise CastError(f"yuejiang={yuejiang!r} is not a branch: give e.g. Branch.亥 or leave it to the calendar")
    if place is not None and not isinstance(place, Place):
        raise CastError(f"place={place!r} is not a place: give engine.Place(lat, lon)")
    if place is None and school.needs_place:
        raise CastError(_needs_place(school, "no place was given: give place=Place(lat, lon)"))
    if at is None:
        if tz is None:
            raise CastError("casting for now needs a time zone, e.g. tz='Asia/Tokyo'")
        at = datetime.now(UTC)
    global _LAST_CAST
    last = _LAST_CAST
    if (last[0] is at and last[1] == tz and last[2] is school and last[3] is yuejiang and last[4] == place
            and last[5] is not None):
        return last[5]  # a study group's casts of one moment share the one datetime: cast it once
    try:
        when = calendar.moment(at, tz, day_changes_at_23=school.day_changes_at_23)
    except calendar.CalendarError as error:
        raise CastError(str(error)) from None
    sun = None
    daytime = None
    if place is not None:
        when, sun = read_sun(when, at if at.utcoffset() is not None else when.local, place, school)
        daytime = sun.daytime
    general = when.yuejiang if yuejiang is None else yuejiang
    chart = with_moment(classical_chart(when.day, general, when.hour.branch, school, daytime), when, sun)
    _LAST_CAST = (at, tz, school, yuejiang, place, chart)  # one tuple: a thread sees a chart with its inputs
    return chart


def with_moment(core: Chart, when: calendar.Moment, sun: Solar | None) -> Chart:
    """The classical chart ``core`` as the chart of ``when`` (and of what the sun said there)."""
    return Chart(
        core.day, core.hour, core.yuejiang, core.school, core.plate, core.lessons,
        core.transmissions, core.generals, core.steps, core.void, when, sun,
    )


# The last instant cast and its chart (datetimes and charts are immutable, so the same objects
# cast again give the same chart; an equal but distinct datetime may name another zone: cast anew).
_LAST_CAST: tuple[datetime | None, str | None, School | None, Branch | None, Place | None, Chart | None] = (
    None, None, None, None, None, None)


# The parts charts share (lessons and 三伝 by day and plate, generals and steps alike for the 晝 or
# 夜 hours of a plate), built once: a fifth of the memory, a seventh of the build (docs/performance.md).
# Keyed on what builds them, since equal IntEnums (Stem.甲 == Branch.子) could swap one for another;
# the generals hold no stem and are shared by value.
_LESSONS: dict[tuple[int, int], tuple[Lesson, Lesson, Lesson, Lesson]] = {}
_TRANSMISSIONS: dict[tuple[int, int, bool, bool], Transmissions] = {}
_GENERALS: dict[tuple[int, int, int, str, bool], Generals] = {}
_ALIKE: dict[Generals, Generals] = {}
# Steps by what they are made of (the 三伝's branches, not the school that chose them): schools share them.
_STEPS: dict[tuple[int, int, tuple[Branch, Branch, Branch], Generals], tuple[Step, Step, Step]] = {}
# The 60 days' 旬空 pairs, made once, so the charts of a day share one.
_VOIDS: tuple[tuple[Branch, Branch], ...] = tuple(day.void for day in PILLARS)


def clear_cache() -> None:
    """Forget every chart built and the parts they share (for benchmarks that time a cold cast)."""
    global _LAST_CAST
    for cache in (_CACHE, _LESSONS, _TRANSMISSIONS, _GENERALS, _ALIKE, _STEPS):
        cache.clear()
    _LAST_CAST = (None, None, None, None, None, None)


def _steps(day: Pillar, plate: Plate, transmissions: Transmissions, generals: Generals,
           void: tuple[Branch, Branch]) -> tuple[Step, Step, Step]:
    xun = int(day.xun_start.branch)
    kins = _KIN[day.stem.element]
    first, middle, final = POSITIONS
    return (_step(first, transmissions.initial, plate, generals, xun, kins, void),
            _step(middle, transmissions.middle, plate, generals, xun, kins, void),
            _step(final, transmissions.final, plate, generals, xun, kins, void))


def _step(position: Position, branch: Branch, plate: Plate, generals: Generals, xun: int, kins: tuple[Kin, ...],
          void: tuple[Branch, Branch]) -> Step:
    """A 伝 as the reader sees it; ``xun``: the branch of the 旬's 甲; ``kins``: each branch's 六親."""
    at = (int(branch) - xun) % 12  # hidden_stem's count
    return Step(position, branch, plate.down(branch), generals.on(branch), STEMS[at] if at < 10 else None,
                kins[branch], branch in void)


# kin(day stem's element, branch's element) for each element and branch, worked out once at import.
_KIN: tuple[tuple[Kin, ...], ...] = tuple(
    tuple(kin(element, branch.element) for branch in BRANCHES) for element in Element)


def _build(day: Pillar, yuejiang: Branch, hour: Branch, school: School, daytime: bool | None = None) -> Chart:
    plate = plate_for(yuejiang, hour)
    at, offset = day.index, plate.offset  # index: a property, asked once
    lessons = _LESSONS.get((at, offset))
    if lessons is None:
        lessons = _LESSONS[(at, offset)] = four_lessons(day, plate)
    # Keyed on the two options the 三伝 read: the schools alike in them (the 貴人 table's alternative) share them.
    transmissions_key = (at, offset, school.fuyin_repeat_clash, school.shehai_depth_first)
    transmissions = _TRANSMISSIONS.get(transmissions_key)
    if transmissions is None:
        transmissions = _TRANSMISSIONS[transmissions_key] = three_transmissions(day, plate, lessons, school)
    generals = _generals(day, hour, plate, school, is_daytime(hour) if daytime is None else daytime)
    void = _VOIDS[at]
    steps = _shared_steps(day, at, plate, transmissions, generals, void)
    return Chart(day, hour, yuejiang, school, plate, lessons, transmissions, generals, steps, void)


def with_table(chart: Chart, school: School) -> Chart:
    """``chart`` under ``school``, which differs from the chart's only in the 貴人 table (GENERALS_FROM):
    its generals and its steps placed again, every other part (moment and sun too) its own."""
    day, plate = chart.day, chart.plate
    generals = _generals(day, chart.hour, plate, school, chart.generals.daytime)
    steps = _shared_steps(day, day.index, plate, chart.transmissions, generals, chart.void)
    return Chart(day, chart.hour, chart.yuejiang, school, plate, chart.lessons, chart.transmissions, generals, steps,
                 chart.void, chart.moment, chart.sun)


def _generals(day: Pillar, hour: Branch, plate: Plate, school: School, daytime: bool) -> Generals:
    key = (int(day.stem), int(hour), plate.offset, school.noble_table, daytime)
    generals = _GENERALS.get(key)
    if generals is None:
        made = place_generals(day.stem, hour, plate, school.noble_table, daytime)
        generals = _GENERALS[key] = _ALIKE.setdefault(made, made)
    return generals


def _shared_steps(day: Pillar, at: int, plate: Plate, transmissions: Transmissions, generals: Generals,
                  void: tuple[Branch, Branch]) -> tuple[Step, Step, Step]:
    key = (at, plate.offset, transmissions.branches, generals)
    steps = _STEPS.get(key)
    if steps is None:
        steps = _STEPS[key] = _steps(day, plate, transmissions, generals, void)
    return steps
