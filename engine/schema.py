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
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .calendar import SolarTerm
from .chart import Chart
from .symbols import BRANCHES

SCHEMA_VERSION = 1


def _term(term: SolarTerm) -> dict[str, Any]:
    return {"name": term.name, "longitude": term.longitude, "instant": term.instant.isoformat()}


def to_dict(chart: Chart) -> dict[str, Any]:
    """The chart as a dict of strings, numbers, lists and dicts (see the module docstring)."""
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
    }
