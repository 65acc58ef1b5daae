"""Zones and wall times: the bot's one way to read a zone name (through engine.calendar.zone, the
project's one parser), the names offered while typing one, and ``HH:MM``."""

from __future__ import annotations

import re
from datetime import time
from zoneinfo import ZoneInfo

from engine import calendar
from texts.when import zone_data_version

__all__ = ["parse_time", "parse_zone", "zone_data_version", "zone_suggestions"]


def parse_zone(name: str) -> ZoneInfo:
    """The IANA zone called `name` (any case). ValueError (engine.calendar.CalendarError) for
    anything that is not an IANA zone name."""
    return calendar.zone(name)  # looked up at call time, so a test can count the parses


def zone_suggestions(prefix: str, limit: int = 25) -> tuple[str, ...]:
    """Zone names containing `prefix` (case-insensitive), shortest first — for autocomplete."""
    return calendar.zone_names(prefix, limit)


_HHMM = re.compile(r"(\d{1,2}):(\d{2})")


def parse_time(text: str) -> time:
    """ "HH:MM" (or "H:MM"), 00:00–23:59, as a wall-clock time; ValueError naming the problem."""
    match = _HHMM.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a time of the form HH:MM")
    hour, minute = int(match[1]), int(match[2])
    if hour > 23 or minute > 59:
        raise ValueError(f"{text!r} is not a time of day (00:00–23:59)")
    return time(hour, minute)
