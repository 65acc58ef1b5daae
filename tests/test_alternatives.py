"""Schools side by side (docs/rules.md §10.1): over the 1,440 classical charts the alternatives list
exactly the options whose other values change the chart, found here by casting under each directly;
with the defaults nothing changes; a moment's chart tries the day change only at 23:00–24:00 and the
sun's options only with a place. The counts per option are the ones docs/rules.md §10 gives."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from engine import Place, School, cast, cast_classical
from engine.alternatives import OPTION_VALUES, alternatives
from engine.chart import GENERALS_FROM, PARTS_READ
from engine.classical import classical_charts
from engine.patterns import detect
from engine.symbols import BRANCHES
from engine.terms import General
from engine.transmissions import DEPTH_READ

# One chart per (option, value) for the options a classical chart can try: no calendar, no sun.
CLASSICAL_OPTIONS = [(name, value) for name, values in OPTION_VALUES.items()
                     if name not in ("day_changes_at_23", "daynight", "hour_by") for value in values[1:]]


def _school(name: str, value: Any) -> School:
    return School(**{name: value})


def _bears(chart: Any, whenever: bool) -> bool:
    ground = chart.generals.by_ground.index(General.騰蛇)
    heaven = BRANCHES[(ground + chart.plate.offset) % 12]
    return heaven in chart.transmissions.branches if whenever else chart.transmissions.branches[0] == heaven


def _what_differs(chart: Any, other: Any, name: str, value: Any) -> set[str]:
    kinds = set()
    if other.transmissions.branches != chart.transmissions.branches:
        kinds.add("transmissions")
    if other.transmissions.method != chart.transmissions.method:
        kinds.add("method")
    if any(other.generals.on(b) != chart.generals.on(b) for b in BRANCHES):
        kinds.add("generals")
    if {p.name for p in detect(other)} != {p.name for p in detect(chart)}:
        kinds.add("patterns")
    if name == "tengshe_whenever_seen" and _bears(chart, False) != _bears(other, value):
        kinds.add("tengshe")
    return kinds


def test_the_alternatives_are_exactly_the_options_that_change_each_classical_chart() -> None:
    counts: Counter[tuple[str, str]] = Counter()
    changed: Counter[str] = Counter()
    for chart in classical_charts():
        expected = {}
        for name, value in CLASSICAL_OPTIONS:
            other = cast_classical(chart.day, chart.yuejiang, chart.hour, school=_school(name, value))
            kinds = _what_differs(chart, other, name, value)
            if kinds:
                expected[(name, value)] = kinds
                counts.update((name, kind) for kind in kinds)
                changed[name] += 1
        found = alternatives(chart)
        assert {(a.option, a.value): set(a.kinds) for a in found} == expected, chart
        assert [a.rank for a in found] == sorted(a.rank for a in found)
        assert all(a.chart.school == _school(a.option, a.value) for a in found)
    # docs/rules.md §10 gives these counts over the 1,440 (720 at 午 and 720 at 子)
    assert changed == {"noble_table": 720, "fuyin_repeat_clash": 6, "shehai_depth_first": 96,
                       "maoxing_by_day": 31, "tengshe_whenever_seen": 272}, changed
    assert counts == {
        ("noble_table", "generals"): 720, ("noble_table", "patterns"): 284,
        ("fuyin_repeat_clash", "transmissions"): 6,
        ("shehai_depth_first", "transmissions"): 34, ("shehai_depth_first", "method"): 96,
        ("shehai_depth_first", "patterns"): 96,
        ("maoxing_by_day", "patterns"): 31, ("tengshe_whenever_seen", "tengshe"): 272,
    }, counts


def test_an_option_no_part_is_built_from_leaves_every_part_as_it_is() -> None:
    parts = ("day", "hour", "yuejiang", "plate", "lessons", "transmissions", "generals", "steps", "void")
    for chart in classical_charts():
        for name, value in CLASSICAL_OPTIONS:
            if name in PARTS_READ:
                continue
            other = cast_classical(chart.day, chart.yuejiang, chart.hour, school=_school(name, value))
            assert [getattr(other, p) for p in parts] == [getattr(chart, p) for p in parts], (chart, name)


def test_an_option_only_the_generals_are_placed_by_leaves_every_other_part_as_it_is() -> None:
    parts = ("day", "hour", "yuejiang", "plate", "lessons", "transmissions", "void")
    changed = 0
    for chart in classical_charts():
        for name, value in CLASSICAL_OPTIONS:
            if name not in GENERALS_FROM:
                continue
            other = cast_classical(chart.day, chart.yuejiang, chart.hour, school=_school(name, value))
            assert [getattr(other, p) for p in parts] == [getattr(chart, p) for p in parts], (chart, name)
            mine = [replace(s, general=o.general) for s, o in zip(chart.steps, other.steps, strict=True)]
            assert mine == list(other.steps), (chart, name)
            changed += other.generals != chart.generals
    assert changed == 720  # the 貴人 table: half the charts (docs/rules.md §10)


def test_the_depth_option_changes_only_the_transmissions_that_counted_it() -> None:
    # engine.alternatives does not try shehai_depth_first on a chart whose trace never came to 渉害.
    depth = School(shehai_depth_first=True)
    counted = 0
    for chart in classical_charts():
        other = cast_classical(chart.day, chart.yuejiang, chart.hour, school=depth)
        for one, two in ((chart, other), (other, chart)):
            if not any(w.rule in DEPTH_READ for w in one.transmissions.trace):
                assert two.transmissions == one.transmissions, chart
            else:
                counted += 1
    assert counted >= 2 * 96  # at least the charts the option changes (docs/rules.md §10)


def test_a_moments_alternatives_are_its_moment_cast_under_each_option() -> None:
    # Every 7 h 13 min over two years: each hour, 23:00 among them, in every month.
    tokyo = ZoneInfo("Asia/Tokyo")
    for i in range(2400):
        at = datetime(2024, 1, 1, 0, 30, tzinfo=tokyo) + i * timedelta(hours=7, minutes=13)
        chart = cast(at)
        expected = {}
        for name, values in OPTION_VALUES.items():
            if name in ("daynight", "hour_by") or (name == "day_changes_at_23" and at.hour != 23):
                continue
            for value in values[1:]:
                other = cast(at, school=_school(name, value))
                kinds = _what_differs(chart, other, name, value)
                if other.day != chart.day:
                    kinds.add("day")
                if kinds:
                    expected[(name, value)] = kinds
        found = alternatives(chart)
        assert {(a.option, a.value): set(a.kinds) for a in found} == expected, at
        for a in found:
            assert a.chart.school == _school(a.option, a.value)
            assert a.chart.moment == cast(at, school=a.chart.school).moment


def test_with_the_defaults_no_chart_changes_and_an_alternative_is_the_chart_under_its_school() -> None:
    chart = cast_classical("丁卯", "子", "子")
    (only,) = alternatives(chart)
    assert (only.option, only.value, only.kinds) == ("fuyin_repeat_clash", True, ("transmissions",))
    assert only.chart is cast_classical("丁卯", "子", "子", school=School(fuyin_repeat_clash=True))
    assert chart is cast_classical("丁卯", "子", "子", school=School())
    # from the other school, the default is the alternative
    back = alternatives(only.chart)
    assert [(a.option, a.value) for a in back] == [("fuyin_repeat_clash", False)]


def test_a_moment_tries_the_day_change_only_at_23_and_the_sun_only_with_a_place() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    late = datetime(2026, 6, 21, 23, 30, tzinfo=tokyo)
    options = {a.option for a in alternatives(cast(late))}
    assert "day_changes_at_23" in options and not options & {"daynight", "hour_by"}
    day_change = next(a for a in alternatives(cast(late)) if a.option == "day_changes_at_23")
    assert day_change.day and day_change.kinds[0] in ("transmissions", "method", "day")
    noon = datetime(2026, 6, 21, 12, 30, tzinfo=tokyo)
    assert "day_changes_at_23" not in {a.option for a in alternatives(cast(noon))}
    # Ürümqi on Beijing time: the hour by the sun changes the chart, and is listed first
    at = datetime(2026, 3, 1, 13, 20, tzinfo=ZoneInfo("Asia/Shanghai"))
    found = alternatives(cast(at, place=Place(43.825, 87.600)))
    by = {(a.option, a.value): a for a in found}
    assert by[("hour_by", "apparent")].hour and by[("hour_by", "apparent")].chart.hour.name == "巳"
    assert by[("hour_by", "mean")].chart.hour.name == "午"
    assert found[0].rank == 0 and ("daynight", "sun") not in by  # 13:20 is 晝 by the hours and by the sun
    # the classical inputs never try a calendar option
    assert not any(a.option in ("day_changes_at_23", "daynight", "hour_by")
                   for a in alternatives(cast_classical("甲子", "亥", "子")))


def test_every_option_has_its_values() -> None:
    assert [f.name for f in fields(School)] == list(OPTION_VALUES)
    for f in fields(School):
        assert OPTION_VALUES[f.name][0] == f.default
