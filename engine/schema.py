"""The chart as plain JSON-ready data (``--json``). The schema, version 1:

- ``schema``: 1
- ``day`` "甲子", ``hour`` "午", ``yuejiang`` "亥" — the three classical inputs
- ``moment``: null for a chart cast from the classical inputs, else
  ``{"local": ISO 8601 with offset, "zone": IANA name, "year"/"month"/"day"/"hour": "丙午" …,
  "yuejiang_from_calendar": "寅", "principal_term": {"name": "小雪", "instant": ISO UTC},
  "sectional_term": {…}}``
- ``school``: the school options in force
- ``plate``: ``{地盤 branch: 天盤 branch}`` for all twelve; ``offset``: k = (月将 − 時支) mod 12
- ``lessons``: four ``{"number", "upper", "lower", "relation" ("剋" | "賊" | "")}``
- ``transmissions``: three ``{"position", "branch", "ground", "general", "hidden_stem" (null when
  空亡), "kin", "void"}``
- ``method`` (the rule that chose 初伝), ``frame`` (伏吟 | 反吟 | 八専 | null), ``name`` (課名)
- ``generals``: ``{"noble", "noble_ground", "daytime", "clockwise", "by_heaven": {天盤 branch: 天将}}``
- ``void``: the day's two 空亡 branches
- ``trace``: the reasons, in order, as sentences
- ``facts``: ``{"xun", "void", "travel_horse", "ding", "heavenly_horse", "year", "month", "natal",
  "age", "walking_year", "vigour": [three 旺相休囚死 or null], "missing": [what input would supply
  each null]}``
- ``patterns``: the 課体 that hold, ``[{"name", "reason"}]``; ``undecided``: those an input is
  missing for, ``[{"name", "needs", "reason"}]``
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .calendar import SolarTerm
from .chart import Chart
from .facts import Facts, facts
from .patterns import classify
from .symbols import BRANCHES

SCHEMA_VERSION = 1


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
        "vigour": [s.vigour for s in known.steps], "missing": list(known.missing),
    }


def to_dict(chart: Chart, known: Facts | None = None) -> dict[str, Any]:
    """The chart as a dict of strings, numbers, lists and dicts (see the module docstring)."""
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
            {"number": x.number, "upper": str(x.upper), "lower": str(x.lower), "relation": x.relation}
            for x in chart.lessons
        ],
        "transmissions": [
            {
                "position": s.position, "branch": str(s.branch), "ground": str(s.ground),
                "general": s.general, "hidden_stem": None if s.hidden_stem is None else str(s.hidden_stem),
                "kin": s.kin, "void": s.void,
            }
            for s in chart.steps
        ],
        "method": t.method,
        "frame": t.frame,
        "name": t.name,
        "generals": {
            "noble": str(g.noble), "noble_ground": str(g.noble_ground),
            "daytime": g.daytime, "clockwise": g.clockwise,
            "by_heaven": {str(b): g.on(b) for b in BRANCHES},
        },
        "void": [str(b) for b in chart.void],
        "trace": list(t.trace),
        "facts": _facts(known),
        "patterns": [{"name": p.name, "reason": p.reason} for p in found.held],
        "undecided": [{"name": u.name, "needs": list(u.needs), "reason": u.reason} for u in found.undecided],
    }
