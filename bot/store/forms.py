"""The stored forms of the typed values the rows carry — the school options, zones, instants, the
reply language — each encoded and decoded here only, so nothing above the store parses them.

A stored value that no longer decodes (bad JSON, a zone name this zone data does not know) becomes
``Bad``: its text as stored and why, for the reader of the row to report (never dropped, never a
crash while reading the row).
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar, get_args
from zoneinfo import ZoneInfo

from engine import calendar
from engine.school import School
from engine.sun import Place

__all__ = [
    "LANGUAGES",
    "Bad",
    "KeptPlace",
    "Language",
    "decoded",
    "instant_of",
    "instant_text",
    "place_json",
    "place_of",
    "school_from_json",
    "school_json",
    "school_of",
    "school_options",
    "stored_language",
    "stored_text",
    "zone_of",
]

log = logging.getLogger("bot")
T = TypeVar("T")

# The reply languages a server may choose (texts.words.Lang's codes: the store cannot import the
# texts, so it declares them again; tests/test_layers.py pins that the two agree).
Language = Literal["ja", "en", "zh-TW", "zh-CN"]
LANGUAGES: tuple[Language, ...] = get_args(Language)


@dataclass(frozen=True, slots=True)
class Bad:
    """A stored value that does not decode: ``text`` as stored and ``why``."""

    text: str
    why: str


@dataclass(frozen=True, slots=True)
class KeptPlace:
    """A place as kept (a server's or a member's default, a case's): its coordinates, its name as
    resolved and its IANA zone (None: none known)."""

    place: Place
    name: str
    zone: ZoneInfo | None = None


def decoded(value: T | Bad, what: str) -> T:
    """``value``, or ValueError naming what is stored and why (for a reader that cannot go on)."""
    if isinstance(value, Bad):
        raise ValueError(f"stored {what} {value.text[:80]!r} does not decode: {value.why}")
    return value


def stored_text(value: datetime | ZoneInfo | School | KeptPlace | Bad) -> str:
    """The value as it is stored (a bad one as it was found)."""
    if isinstance(value, Bad):
        return value.text
    if isinstance(value, KeptPlace):
        return place_json(value)
    if isinstance(value, datetime):
        return instant_text(value)
    if isinstance(value, ZoneInfo):
        return value.key
    return school_json(value)


# -- the school options -------------------------------------------------------------------------


def school_options(school: School) -> dict[str, Any]:
    """The options that are stored (every one, so later defaults cannot change a stored one)."""
    return {
        "day_changes_at_23": school.day_changes_at_23,
        "noble_table": school.noble_table,
        "fuyin_repeat_clash": school.fuyin_repeat_clash,
        "shehai_depth_first": school.shehai_depth_first,
        "maoxing_by_day": school.maoxing_by_day,
        "daynight": school.daynight,
        "hour_by": school.hour_by,
    }


@functools.lru_cache(maxsize=16)  # every /cast stores its server's options with its case
def school_json(school: School) -> str:
    """The school options as stored."""
    return json.dumps(school_options(school), ensure_ascii=False, sort_keys=True)


def school_from_json(value: str | None) -> School:
    """The stored options back; an option missing from the text takes today's default.
    ValueError for text that is not a JSON object."""
    if not value:
        return School()
    data = json.loads(value)
    if not isinstance(data, dict):
        raise ValueError(f"stored school options are not an object: {value!r}")
    base = School()
    noble = data.get("noble_table", base.noble_table)
    return School(
        day_changes_at_23=bool(data.get("day_changes_at_23", base.day_changes_at_23)),
        noble_table="甲羊" if noble == "甲羊" else "甲牛",
        fuyin_repeat_clash=bool(data.get("fuyin_repeat_clash", base.fuyin_repeat_clash)),
        shehai_depth_first=bool(data.get("shehai_depth_first", base.shehai_depth_first)),
        maoxing_by_day=bool(data.get("maoxing_by_day", base.maoxing_by_day)),
        **{k: data[k] for k in ("daynight", "hour_by") if k in data},  # the sun's options: School checks them
    )


def school_of(value: Any) -> School | Bad:
    """A stored school column decoded (NULL or empty: the defaults)."""
    text = None if value is None else str(value)
    try:
        return school_from_json(text)
    except (ValueError, TypeError) as error:
        return Bad(text or "", f"school options: {error}")


# -- zones, instants, the reply language ----------------------------------------------------------


def zone_of(value: Any) -> ZoneInfo | Bad | None:
    """A stored zone name decoded by the engine's one zone parser (None: none stored)."""
    if value is None or value == "":
        return None
    try:
        return calendar.zone(str(value))
    except ValueError as error:  # a name this zone data no longer knows
        return Bad(str(value), str(error))


def place_json(place: KeptPlace) -> str:
    """A place as stored: its coordinates, name and zone as a JSON object."""
    zone = None if place.zone is None else place.zone.key
    return json.dumps({"lat": place.place.lat, "lon": place.place.lon, "name": place.name, "zone": zone},
                      ensure_ascii=False, sort_keys=True)


def place_of(value: Any) -> KeptPlace | Bad | None:
    """A stored place decoded (None: none stored); coordinates off the Earth, a zone this zone data
    does not know or text that is not the object ``place_json`` writes: ``Bad``."""
    if value is None or value == "":
        return None
    text = value.decode() if isinstance(value, bytes) else str(value)
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        zone = data.get("zone")  # a name this zone data no longer knows: ValueError
        return KeptPlace(Place(float(data["lat"]), float(data["lon"])), str(data["name"]),
                         None if zone is None else calendar.zone(str(zone)))
    except (ValueError, TypeError, KeyError) as error:
        return Bad(text, f"place: {error}")


def instant_text(instant: datetime) -> str:
    """An aware instant as stored: ISO 8601 in UTC."""
    return instant.astimezone(UTC).isoformat()


def instant_of(value: Any) -> datetime | Bad | None:
    """A stored ISO instant decoded (aware; None: none stored)."""
    if value is None:
        return None
    try:
        found = datetime.fromisoformat(str(value))
    except ValueError as error:
        return Bad(str(value), str(error))
    if found.tzinfo is None:
        return Bad(str(value), "not an aware instant")
    return found


def stored_language(value: Any, where: str) -> Language | None:
    """A stored reply language; one the bot does not know is logged (naming ``where``) and read
    as none chosen, so the reader's own language answers (as before it was stored)."""
    if value is None:
        return None
    for language in LANGUAGES:
        if value == language:
            return language
    log.warning("%s: stored reply language %r is not one of %s; read as none chosen", where,
                str(value)[:40], ", ".join(LANGUAGES))
    return None
