"""The chart as plain JSON-ready data (``--json``). The schema, version 4:

- ``schema``: 4 (version 1 carried the reasons as Japanese sentences; 2 carries them as data; 3
  puts the reading's entries under ``reading.entries`` and adds ``reading.matters``; 4 adds ``sun``
  and ``alternatives``, and the school options ``daynight`` and ``hour_by``)
- ``day`` "甲子", ``hour`` "午", ``yuejiang`` "亥" — the three classical inputs
- ``moment``: null for a chart cast from the classical inputs, else
  ``{"local": ISO 8601 with offset, "zone": IANA name, "year"/"month"/"day"/"hour": "丙午" …,
  "yuejiang_from_calendar": "寅", "principal_term": {"name": "小雪", "instant": ISO UTC},
  "sectional_term": {…}}``
- ``school``: the school options in force
- ``plate``: ``{地盤 branch: 天盤 branch}`` for all twelve; ``offset``: k = (月将 − 時支) mod 12
- ``lessons``: four ``{"number", "upper", "lower", "relation" ("剋" | "賊" | null)}``
- ``transmissions``: three ``{"position", "branch", "ground", "general", "hidden_stem" (null when
  空亡), "kin", "void"}``
- ``method`` (the rule that chose 初伝), ``frame`` (伏吟 | 反吟 | 八専 | null), ``name`` (課名)
- ``generals``: ``{"noble", "noble_ground", "daytime", "clockwise", "by_heaven": {天盤 branch: 天将}}``
- ``void``: the day's two 空亡 branches
- ``trace``: the reasons, in order, each a *why*: ``{"rule": "several", "seed": [55], "values":
  {"relation": "賊", "count": 3, "candidates": ["未", "子", "巳"]}}`` — ``rule`` names the rule
  (``engine.reasons.Rule``), ``seed`` the ¶ of the seed that states it, ``values`` what it was
  applied to (every term as its CJK name, numbers as numbers, lists as lists). The presentation
  layer (``liuren cast --json``) adds ``"text"``: the reason in the reader's language.
- ``facts``: ``{"xun", "void", "travel_horse", "ding", "heavenly_horse", "year", "month", "natal",
  "age", "walking_year", "vigour": [three 旺相休囚死 or null], "missing": [what input would supply
  each null]}``
- ``patterns``: the 課体 that hold, ``[{"name", "reason"}]``; ``undecided``: those an input is
  missing for, ``[{"name", "needs", "reason"}]``
- ``sun``: null without a place, else what the sun said (docs/rules.md §10.3–10.4): ``{"place":
  {"lat", "lon"}, "clock": the local clock time (ISO 8601), "solar": the solar time the hour and day
  were read on ("HH:MM:SS", null under hour_by clock), "equation_of_time": minutes (null unless
  apparent), "clock_day"/"clock_hour": what the clock alone gives, "day"/"hour": what was used,
  "hour_differs", "day_differs", "sunrise"/"sunset": ISO 8601 in the chart's zone (null unless
  daynight sun, or in a polar day or night), "polar": "day" | "night" | null, "daytime": 晝 as used,
  "hours_daytime": 晝 by the hours 卯–申, "daytime_differs", "trace": the reasons, as ``trace``}``
- ``alternatives``: the charts one other school option would give, where they differ (docs/rules.md
  §10.1), most important first: ``[{"option": a ``school`` key, "value", "kinds": what differs, of
  "transmissions" "method" "hour" "day" "generals" "patterns" "tengshe", "transmissions": the
  alternative's three branches (null when the same), "method" (null when the same), "day", "hour"
  (the alternative's, null when the same), "generals": the 天盤 branches whose 天将 changes,
  "patterns_gained", "patterns_lost": 課体 names, "tengshe": whether 騰蛇's R3 bearing changes}]``;
  ``[]`` when no option changes the chart
- ``reading`` (added by ``liuren cast --json`` with ``--reading``, ``--question`` or ``--matter``):
  ``{"matters": [...], "entries": [...]}``. ``matters``, in docs/rules.md §9.2's order, one per matter read
  (texts/matter_reading.py): ``{"key" (petition … child), "words" (the question's words that decided
  it; [] when chosen), "spirits": [{"general", "heaven" (天盤), "ground" (地盤), "transmissions"
  (the 伝 it rides), "lessons" (numbers), "void", "vigour" (null without the month), "kin" (to the
  day stem), "bears" (true/false for an opening the seed conditions on 發用, 勾陳 and 騰蛇; else
  null), "line" (the name line's unit id, or null)}], "units": [the corpus ids it quotes, in
  order]}``. ``entries``: the general reading, each ``{"section", "role", "position", "unit", …}``;
  a unit a matter quoted is not quoted again there.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from enum import Enum
from typing import Any

from .alternatives import Alternative, alternatives
from .calendar import SolarTerm
from .chart import Chart
from .facts import Facts, facts
from .patterns import classify
from .reasons import Why
from .solar import Solar
from .symbols import BRANCHES, Pillar

SCHEMA_VERSION = 4


def plain(value: object) -> Any:
    """A reason's value as JSON data: terms by their name, tuples as lists, numbers as they are."""
    if isinstance(value, Enum):
        return value._name_  # the plain attribute: Enum's .name is a property, read ~60 times a chart
    if isinstance(value, Pillar):
        return str(value)
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def why_dict(why: Why) -> dict[str, Any]:
    """One reason as ``{"rule", "seed", "values"}``."""
    return {"rule": why.rule._value_, "seed": list(why.seed), "values": {k: plain(v) for k, v in why.values}}


def _term(term: SolarTerm) -> dict[str, Any]:
    return {"name": term.name, "longitude": term.longitude, "instant": term.instant.isoformat()}


def _facts(known: Facts) -> dict[str, Any]:
    def text(value: object) -> str | None:
        return None if value is None else str(value)

    return {
        "xun": str(known.xun), "void": [str(b) for b in known.void],
        "travel_horse": str(known.travel_horse), "ding": str(known.ding),
        "heavenly_horse": text(known.heavenly_horse), "year": text(known.year), "month": text(known.month),
        "natal": text(known.natal), "age": known.age, "walking_year": text(known.walking_year),
        "vigour": [plain(s.vigour) for s in known.steps],
        "missing": [{"fact": m.fact.name, "supply": [str(x) for x in m.supply]} for m in known.missing],
    }


def sun_dict(sun: Solar | None) -> dict[str, Any] | None:
    """What the sun said (``sun`` in the module docstring); ``None`` without a place."""
    if sun is None:
        return None

    def when(value: datetime | None) -> str | None:
        return None if value is None else value.isoformat(timespec="seconds")

    return {
        "place": {"lat": sun.place.lat, "lon": sun.place.lon},
        "clock": when(sun.clock), "solar": None if sun.solar is None else f"{sun.solar:%H:%M:%S}",
        "equation_of_time": None if sun.equation_of_time is None else round(sun.equation_of_time, 2),
        "clock_day": str(sun.clock_day), "clock_hour": str(sun.clock_hour),
        "day": str(sun.day), "hour": str(sun.hour),
        "hour_differs": sun.hour_differs, "day_differs": sun.day_differs,
        "sunrise": when(sun.sunrise), "sunset": when(sun.sunset), "polar": sun.polar,
        "daytime": sun.daytime, "hours_daytime": sun.hours_daytime, "daytime_differs": sun.daytime_differs,
        "trace": [why_dict(w) for w in sun.trace],
    }


def alternative_dict(alternative: Alternative) -> dict[str, Any]:
    """One alternative (``alternatives`` in the module docstring)."""
    other = alternative.chart
    return {
        "option": alternative.option, "value": alternative.value, "kinds": list(alternative.kinds),
        "transmissions": None if alternative.transmissions is None else [str(b) for b in alternative.transmissions],
        "method": None if alternative.method is None else alternative.method.name,
        "day": str(other.day) if alternative.day else None, "hour": str(other.hour) if alternative.hour else None,
        "generals": [str(b) for b in alternative.generals],
        "patterns_gained": list(alternative.patterns_gained), "patterns_lost": list(alternative.patterns_lost),
        "tengshe": alternative.tengshe,
    }


def to_dict(
    chart: Chart, known: Facts | None = None, others: tuple[Alternative, ...] | None = None
) -> dict[str, Any]:
    """The chart as a dict of strings, numbers, lists and dicts (see the module docstring); ``others``
    are the chart's alternatives when the caller has them already."""
    known = known if known is not None else facts(chart)
    found = classify(chart, known)
    m = chart.moment
    moment = None if m is None else {
        "local": m.local.isoformat(),
        "zone": m.zone,
        "year": str(m.year),
        "month": str(m.month),
        "day": str(m.day),
        "hour": str(m.hour),
        "yuejiang_from_calendar": str(m.yuejiang),
        "principal_term": _term(m.principal_term),
        "sectional_term": _term(m.sectional_term),
    }
    t = chart.transmissions
    g = chart.generals
    return {
        "schema": SCHEMA_VERSION,
        "day": str(chart.day),
        "hour": str(chart.hour),
        "yuejiang": str(chart.yuejiang),
        "moment": moment,
        "school": asdict(chart.school),
        "offset": chart.plate.offset,
        "plate": {str(b): str(chart.plate.up(b)) for b in BRANCHES},
        "lessons": [
            {"number": x.number, "upper": str(x.upper), "lower": str(x.lower), "relation": plain(x.relation)}
            for x in chart.lessons
        ],
        "transmissions": [
            {
                "position": s.position._name_, "branch": str(s.branch), "ground": str(s.ground),
                "general": s.general._name_, "hidden_stem": None if s.hidden_stem is None else str(s.hidden_stem),
                "kin": s.kin._name_, "void": s.void,
            }
            for s in chart.steps
        ],
        "method": t.method.name,
        "frame": plain(t.frame),
        "name": t.name,
        "generals": {
            "noble": str(g.noble), "noble_ground": str(g.noble_ground),
            "daytime": g.daytime, "clockwise": g.clockwise,
            "by_heaven": {b._name_: g.on(b)._name_ for b in BRANCHES},
        },
        "void": [str(b) for b in chart.void],
        "trace": [why_dict(w) for w in t.trace],
        "facts": _facts(known),
        "patterns": [{"name": p.name.name, "reasons": [why_dict(w) for w in p.reasons]} for p in found.held],
        "undecided": [
            {"name": u.name.name, "needs": [n.name for n in u.needs], "why": why_dict(u.why)} for u in found.undecided
        ],
        "sun": sun_dict(chart.sun),
        "alternatives": [alternative_dict(a) for a in (alternatives(chart) if others is None else others)],
    }
