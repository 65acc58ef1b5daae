"""Schools side by side (docs/rules.md §10.1): the same inputs cast with one school option changed.

An *alternative* of a chart is the chart cast from the same inputs under its school with exactly one
option set to another of its values. Only the options that can apply are tried: the day change only
when the hour is read between 23:00 and 24:00, the sun's options only when a place is known, no
calendar option for the classical inputs, the 伏吟 option only on a 伏吟 plate whose 末 it decides.

    >>> from engine import cast_classical
    >>> [(a.option, a.value, a.kinds) for a in alternatives(cast_classical("丁卯", "子", "子"))]
    [('fuyin_repeat_clash', True, ('transmissions',))]
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, fields
from itertools import compress
from operator import attrgetter, is_not
from typing import Any

from .chart import GENERALS_FROM, PARTS_READ, Chart, cast, cast_classical, classical_chart, with_moment, with_table
from .facts import facts
from .generals import NOBLE_TABLES, Generals
from .patterns import GENERALS_READ, SCHOOL_READ, classify, detect
from .patterns.rules import METHOD_NEEDED, RULES, PatternRule
from .reasons import Rule
from .school import DEFAULT_SCHOOL, School
from .symbols import BRANCHES, Branch
from .terms import General, Method, PatternName
from .transmissions import DEPTH_READ

__all__ = ["OPTION_VALUES", "Alternative", "alternatives", "clear_cache", "differences", "tengshe_bears"]

# Every value each option can take, in engine.School's field order (the first is the default).
OPTION_VALUES: dict[str, tuple[bool | str, ...]] = {
    "day_changes_at_23": (True, False),
    "noble_table": ("甲牛", "甲羊"),
    "fuyin_repeat_clash": (False, True),
    "shehai_depth_first": (False, True),
    "maoxing_by_day": (False, True),
    "tengshe_whenever_seen": (False, True),
    "daynight": ("hours", "sun"),
    "hour_by": ("clock", "mean", "apparent"),
}
assert tuple(OPTION_VALUES) == tuple(f.name for f in fields(School)), "a new School option needs its values here"
_CALENDAR = frozenset({"day_changes_at_23"})
_SUN = frozenset({"daynight", "hour_by"})


@dataclass(frozen=True, slots=True)
class Alternative:
    """The chart under ``option`` = ``value``, and what differs from the chart it was tried against.

    ``generals`` are the 天盤 branches whose 天将 changes; ``patterns_gained``/``patterns_lost`` the
    課体 (by name) the alternative has that the chart has not, and the other way round; ``tengshe``
    whether a 騰蛇 opening bears under docs/rules.md §9.3 R3 differs (the 騰蛇 option's concern)."""

    option: str
    value: bool | str
    chart: Chart
    transmissions: tuple[Branch, Branch, Branch] | None  # the alternative's 三伝 when they differ
    method: Method | None  # the alternative's method when it differs
    day: bool
    hour: bool
    generals: tuple[Branch, ...]
    patterns_gained: tuple[str, ...]
    patterns_lost: tuple[str, ...]
    tengshe: bool

    @property
    def kinds(self) -> tuple[str, ...]:
        """What differs, most important first: transmissions, method, hour, day, generals, patterns, tengshe."""
        return tuple(compress(_KINDS, (
            self.transmissions is not None, self.method is not None, self.hour, self.day, self.generals,
            self.patterns_gained or self.patterns_lost, self.tengshe)))

    @property
    def rank(self) -> int:
        """0 when the 三伝 or method differ, 1 the hour or day, 2 the 天将, 3 the 課体, 4 only 騰蛇's bearing."""
        if self.transmissions is not None or self.method is not None:
            return 0
        if self.hour or self.day:
            return 1
        if self.generals:
            return 2
        return 3 if self.patterns_gained or self.patterns_lost else 4


_KINDS = ("transmissions", "method", "hour", "day", "generals", "patterns", "tengshe")
_SCHOOL = attrgetter(*OPTION_VALUES)  # a school's options, in field order


def _with(school: School, option: str, value: bool | str) -> School:
    """``school`` with ``option`` set to ``value`` (School checks the value)."""
    values: list[Any] = list(_SCHOOL(school))
    values[_POSITION[option]] = value
    return School(*values)


_POSITION = {option: at for at, option in enumerate(OPTION_VALUES)}
# The default school with one option set to each of its values, made at import: most charts are its.
_DEFAULT_WITH = {(option, value): _with(DEFAULT_SCHOOL, option, value)
                 for option, values in OPTION_VALUES.items() for value in values}


def tengshe_bears(chart: Chart, whenever_seen: bool) -> bool:
    """Whether 騰蛇's opening bears (docs/rules.md §9.3 R3): as 發用 only, or on any of the 三伝."""
    heaven = chart.plate.up(chart.generals.ground_of(General.騰蛇))
    return heaven in chart.transmissions.branches if whenever_seen else chart.steps[0].branch == heaven


# The 課体 names of the shared classical charts (cast_classical keeps each alive), by the chart's id:
# detecting them is most of an alternatives() call, and a chart's are the same each time.
_CLASSICAL_PATTERNS: dict[int, tuple[Chart, frozenset[str]]] = {}


def _patterns(chart: Chart, known: Chart | None = None) -> frozenset[str]:
    """The names of ``chart``'s 課体; ``known``: a chart of the same day, moment and 三伝 branches,
    whose facts (derived from just those) are ``chart``'s too."""
    if chart.moment is not None:  # 龍首 and others read the year and month: no sharing
        held = classify(chart, None if known is None else facts(known)).held
        return frozenset(p.name._name_ for p in held)  # _name_: .name is a Python-level property
    kept = _CLASSICAL_PATTERNS.get(id(chart))
    if kept is None or kept[0] is not chart:
        kept = _CLASSICAL_PATTERNS[id(chart)] = (chart, frozenset(p.name.name for p in detect(chart)))
    return kept[1]


@dataclass(frozen=True, slots=True)
class _Reading:
    """The rules of the patterns that read one part of a chart, and their names."""

    rules: tuple[tuple[str, PatternRule], ...]
    names: frozenset[str]

    @classmethod
    def of(cls, read: Container[PatternName]) -> _Reading:
        rules = tuple((name._name_, rule) for name, rule in RULES if name in read)
        return cls(rules, frozenset(name for name, _ in rules))


_READ_GENERALS = _Reading.of(GENERALS_READ)  # the patterns that read the 天将
_READ_METHOD = _Reading.of(METHOD_NEEDED)  # … the method (or, for 昴星's, the school)


def _decided_again(other: Chart, chart: Chart, mine: frozenset[str], reading: _Reading) -> frozenset[str]:
    """The names of ``other``'s 課体, where ``other`` is ``chart`` (of a moment; 課体 names ``mine``)
    but for the part ``reading``'s patterns read (the generals and its steps' generals; or the school
    and its 三伝's method, and why it was chosen): ``mine`` but for those patterns, which are decided
    again (with ``chart``'s facts, which read neither)."""
    known = facts(chart)
    return (mine - reading.names) | {name for name, rule in reading.rules if isinstance(rule(other, known), tuple)}


def clear_cache() -> None:
    """Forget the 課体 kept for the classical charts (with engine.chart.clear_cache, for cold timings)."""
    _CLASSICAL_PATTERNS.clear()


def differences(
    chart: Chart, other: Chart, option: str, value: bool | str, mine: frozenset[str] | None = None
) -> Alternative:
    """``other`` (the chart under ``option`` = ``value``) compared with ``chart`` (whose 課体 names,
    ``mine``, a caller comparing many may give once)."""
    t, u = chart.transmissions, other.transmissions
    mine = _patterns(chart) if mine is None else mine
    if SCHOOL_READ.get(option) is not t.method and _PARTS(other) == _PARTS(chart):
        theirs = mine  # only a school option no rule reads for this chart differs: the same 課体
    elif option in GENERALS_FROM and other.moment is chart.moment is not None and other.day == chart.day:
        theirs = _decided_again(other, chart, mine, _READ_GENERALS)  # the same parts but the 天将
    elif (chart.moment is not None and u.branches == t.branches and u.frame is t.frame
          and _ALIKE_BUT_METHOD(other) == _ALIKE_BUT_METHOD(chart)):
        # the same parts but the method (渉害's depth count, 昴星's names)
        theirs = _decided_again(other, chart, mine, _READ_METHOD)
    else:
        same = other.day == chart.day and other.moment is chart.moment and u.branches == t.branches
        theirs = _patterns(other, chart if same else None)
    tengshe = option == "tengshe_whenever_seen" and (
        tengshe_bears(chart, chart.school.tengshe_whenever_seen) != tengshe_bears(other, bool(value)))
    return Alternative(
        option, value, other,
        None if u.branches == t.branches else u.branches,
        None if u.method is t.method else u.method,
        other.day != chart.day, other.hour != chart.hour,
        () if other.generals is chart.generals else _moved(other.generals, chart.generals),
        tuple(sorted(theirs - mine)), tuple(sorted(mine - theirs)), tengshe,
    )


def _moved(theirs: Generals, mine: Generals) -> tuple[Branch, ...]:
    """The 天盤 branches whose 天将 differ (``Generals.on`` of each, read off the two tables at once)."""
    a, a_at, b, b_at = theirs.by_ground, theirs.offset, mine.by_ground, mine.offset
    # The general on each 天盤 branch h is by_ground[(h - offset) % 12]: each table turned by its offset.
    return tuple(compress(BRANCHES, map(is_not, a[12 - a_at:] + a[:12 - a_at], b[12 - b_at:] + b[:12 - b_at])))


# What a chart is apart from its school and its 三伝: with them, the 課体 read only these and
# SCHOOL_READ's options. The generals first: where they differ (the 貴人 table) the 三伝, equal but
# made for another school, are not compared.
_BESIDES_TRANSMISSIONS = ("generals", "steps", "day", "hour", "yuejiang", "plate", "lessons", "void", "moment", "sun")
_PARTS = attrgetter(*_BESIDES_TRANSMISSIONS, "transmissions")
# Where this is compared, the 三伝's branches and frame are already alike: only the method may differ.
_ALIKE_BUT_METHOD = attrgetter(*_BESIDES_TRANSMISSIONS)


# The options a chart's parts are built from (the classical ones, the calendar's and the sun's).
_BUILT_FROM = PARTS_READ | _CALENDAR | _SUN


def _applies(chart: Chart, option: str) -> bool:
    if option in _SUN:
        return chart.sun is not None
    if option in _CALENDAR:
        if chart.moment is None:
            return False
        wall = chart.sun.solar if chart.sun is not None and chart.sun.solar is not None else chart.moment.local
        return wall.hour == 23
    if option == "fuyin_repeat_clash":
        return chart.plate.offset == 0 and _repeat_read(chart)
    return True


def _repeat_read(chart: Chart) -> bool:
    """Whether fuyin_repeat_clash decides the 伏吟 chart's 末: 刑(中) repeats 初, so the option takes
    沖(中) instead (REPEAT_CLASH) or keeps it (PUNISH_FINAL with 末 = 初); else either value gives this 三伝."""
    t = chart.transmissions
    last = t.trace[-1].rule
    return last is Rule.REPEAT_CLASH or (last is Rule.PUNISH_FINAL and t.final == t.initial)


def _bearing_differs(chart: Chart) -> bool:
    """Whether ``tengshe_bears`` answers differently under the two readings: 騰蛇 rides 中 or 末, not 初."""
    heaven = chart.plate.up(chart.generals.ground_of(General.騰蛇))
    t = chart.transmissions
    return heaven != t.initial and (heaven == t.middle or heaven == t.final)


def _seats_noble_elsewhere(chart: Chart, school: School) -> bool:
    """Whether ``school``'s 貴人 table seats 貴人 on another branch than ``chart``'s: where it does not
    (the tables agree on the day stem), the generals, and so the whole chart, are the chart's own."""
    return NOBLE_TABLES[school.noble_table][chart.day.stem][0 if chart.generals.daytime else 1] \
        is not chart.generals.noble


def _recast(chart: Chart, school: School, option: str) -> Chart:
    m = chart.moment
    if m is None:
        return cast_classical(chart.day, chart.yuejiang, chart.hour, school=school)
    if option not in _BUILT_FROM:  # the chart's own parts
        return Chart(chart.day, chart.hour, chart.yuejiang, school, chart.plate, chart.lessons, chart.transmissions,
                     chart.generals, chart.steps, chart.void, m, chart.sun)
    if option in GENERALS_FROM:  # the chart's parts but its generals and steps
        return with_table(chart, school)
    if option not in _CALENDAR and option not in _SUN:  # same day, hour and 晝夜: the shared classical chart
        core = classical_chart(chart.day, chart.yuejiang, chart.hour, school, chart.generals.daytime)
        return with_moment(core, m, chart.sun)
    override = None if chart.yuejiang == m.yuejiang else chart.yuejiang
    return cast(m.local, school=school, yuejiang=override, place=None if chart.sun is None else chart.sun.place)


def alternatives(chart: Chart) -> tuple[Alternative, ...]:
    """The alternatives of ``chart`` that differ in anything §10.1 names, most important first
    (三伝 and method, then hour and day, then 天将, then 課体; options in ``OPTION_VALUES`` order
    within a rank). Empty when no school option changes this chart."""
    found = []
    mine: frozenset[str] | None = None  # the chart's 課体 names, worked out for the first alternative cast
    method = chart.transmissions.method
    for option, values in OPTION_VALUES.items():
        if not _applies(chart, option):
            continue
        current = getattr(chart.school, option)
        # Under an option no part is built from and no rule reads for this chart, the chart has its
        # own parts and 課体: only 騰蛇's bearing can differ, and it is read off the chart itself.
        alike = option not in _BUILT_FROM and SCHOOL_READ.get(option) is not method
        if option == "shehai_depth_first" and not any(w.rule in DEPTH_READ for w in chart.transmissions.trace):
            continue  # 渉害 not counted: the same 三伝, so the same chart, under either value
        for value in values:
            if value == current:
                continue
            if alike and (option != "tengshe_whenever_seen" or not _bearing_differs(chart)):
                continue
            school = (_DEFAULT_WITH[(option, value)] if chart.school is DEFAULT_SCHOOL
                      else _with(chart.school, option, value))
            if option == "noble_table" and not _seats_noble_elsewhere(chart, school):
                continue
            other = _recast(chart, school, option)
            if mine is None:
                mine = _patterns(chart)
            alternative = differences(chart, other, option, value, mine)
            if alternative.kinds:
                found.append(alternative)
    return tuple(sorted(found, key=lambda a: a.rank)) if len(found) > 1 else tuple(found)  # rank: a few calls
