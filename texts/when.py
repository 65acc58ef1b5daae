"""Reading the moment a user types (``liuren cast --at``, ``/cast when:``) into an aware datetime.

The project's one moment parser: the CLI and the bot accept exactly the same forms. ``parse_when``
is pure: it is given the zone and the current instant, so tests need no clock. Zones are read by
the project's one zone parser, :func:`engine.calendar.zone`.

    >>> from datetime import datetime, UTC
    >>> parse_when("2026年11月29日 14時", "Asia/Tokyo", datetime(2026, 1, 1, tzinfo=UTC)).isoformat()
    '2026-11-29T14:00:00+09:00'
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo

from dateutil import parser as dateutil_parser  # type: ignore[import-untyped,unused-ignore]

from engine.calendar import CalendarError
from engine.calendar import zone as calendar_zone
from engine.terms import FIRST_YEAR, LAST_YEAR

# The zone a moment is read in when nobody names one: $LIUREN_TZ, else Japan (the readers' default).
DEFAULT_ZONE = "Asia/Tokyo"


def default_zone(environ: Mapping[str, str] | None = None) -> str:
    """``$LIUREN_TZ`` when set (and not blank), else :data:`DEFAULT_ZONE`."""
    env = os.environ if environ is None else environ
    return (env.get("LIUREN_TZ") or "").strip() or DEFAULT_ZONE

# What a user may type; shown verbatim in every error so the reply says how to fix the input.
ACCEPTED_FORMS: tuple[str, ...] = (
    "now",
    "2026-11-29T14:00+09:00",
    "2026-11-29 14:00",
    "14:00",
    "2026年11月29日 14時",
    "11/29 14:00",
)

NOW_WORDS = frozenset({"now", "今", "いま", "現在", "现在", "今すぐ"})


class WhenError(ValueError):
    """The text is not a moment this bot can cast for.

    ``reason`` is one of ``"unreadable"``, ``"no_time"``, ``"range"``, ``"zone"``, ``"abbreviation"``
    (a zone abbreviation that disagrees with the zone); the message always lists ``ACCEPTED_FORMS`` so a
    user can correct the input. Readers see it through the presentation layer, by ``reason``.
    """

    def __init__(self, text: str, reason: str, detail: str) -> None:
        self.text = text
        self.reason = reason
        self.detail = detail
        forms = ", ".join(ACCEPTED_FORMS)
        super().__init__(f"{detail} — accepted forms: {forms} (years {FIRST_YEAR}–{LAST_YEAR})")


def zone_named(name: str) -> ZoneInfo:
    """The IANA zone called ``name`` (any case); ``WhenError`` (reason ``"zone"``) for anything else."""
    try:
        return calendar_zone(name)
    except CalendarError as error:
        raise WhenError(name, "zone", str(error)) from error


# A zone abbreviation typed after the time ("14:00 JST"); UTC/GMT/Z are offsets, not abbreviations.
_ABBREVIATION = re.compile(r"(?<![A-Za-z])([A-Z]{2,5})$")
_NOT_ABBREVIATIONS = frozenset({"UTC", "GMT", "Z", "UT", "AM", "PM"})


_PM = re.compile(r"午後\s*(\d{1,2})(?=時)")
_AM = re.compile(r"午前\s*(\d{1,2})(?=時)")
_CJK_DATE_YMD = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")
_CJK_DATE_MD = re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")
_CJK_TIME = re.compile(r"(\d{1,2})\s*[時时点點]\s*(?:(\d{1,2})\s*分)?(?:\s*(\d{1,2})\s*秒)?")
# A clock time must be present: a chart needs the hour, and guessing midnight would invent it.
_HAS_CLOCK = re.compile(r"(?:^|[\sT])\d{1,2}:\d{2}")


def _normalize(text: str) -> str:
    """Fold full-width characters and rewrite CJK date/time words into dateutil's forms."""
    text = unicodedata.normalize("NFKC", text).strip()
    text = _PM.sub(lambda m: str(int(m.group(1)) % 12 + 12), text)
    text = _AM.sub(lambda m: str(int(m.group(1)) % 12), text)
    text = _CJK_DATE_YMD.sub(lambda m: f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d} ", text)
    text = _CJK_DATE_MD.sub(lambda m: f"{int(m.group(1))}/{int(m.group(2))} ", text)
    text = _CJK_TIME.sub(
        lambda m: f"{int(m.group(1)):02d}:{int(m.group(2) or 0):02d}:{int(m.group(3) or 0):02d}", text
    )
    text = re.sub(r"(\d{2}):00:00\s*半", r"\1:30:00", text)
    return " ".join(text.split())


def parse_when(text: str, zone: str | tzinfo, now: datetime) -> datetime:
    """The moment ``text`` names, as an aware datetime in ``zone``.

    ``now`` (aware) is used for "now" and for the parts a form leaves out (today's date for
    ``14:00``, this year for ``11/29 14:00``). A text with an explicit UTC offset keeps its instant
    and is shown in ``zone``. Raises ``WhenError`` for text that is not a moment, a moment without a
    clock time, or a year outside 1900–2100.
    """
    tz = zone_named(zone) if isinstance(zone, str) else zone
    if now.tzinfo is None:
        raise ValueError("now must be an aware datetime")
    local_now = now.astimezone(tz)
    raw = text
    text = _normalize(text)
    if not text or text.lower() in NOW_WORDS:
        return local_now
    found = _ABBREVIATION.search(text)
    abbreviation = found.group(1) if found is not None and found.group(1) not in _NOT_ABBREVIATIONS else None
    if found is not None and abbreviation is not None:
        text = text[: found.start()].strip()
    if not any(c.isdigit() for c in text):
        raise WhenError(raw, "unreadable", f"cannot read {raw!r} as a date and time")
    if not _HAS_CLOCK.search(text):
        raise WhenError(raw, "no_time", f"{raw!r} has no clock time (hour:minute)")
    default = local_now.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)
    try:
        parsed: datetime = dateutil_parser.parse(text, default=default, yearfirst=True, dayfirst=False)
    except (dateutil_parser.ParserError, ValueError, OverflowError) as error:
        raise WhenError(raw, "unreadable", f"cannot read {raw!r} as a date and time") from error
    if not FIRST_YEAR <= parsed.year <= LAST_YEAR:
        raise WhenError(raw, "range", f"{raw!r} is outside the years {FIRST_YEAR}–{LAST_YEAR}")
    if parsed.tzinfo is not None:
        if abbreviation is not None:
            raise WhenError(raw, "abbreviation", f"{raw!r} has both an offset and the abbreviation {abbreviation}")
        result = parsed.astimezone(tz)
    else:
        # Round-trip through UTC so a clock time inside a DST gap lands on a real instant.
        result = parsed.replace(tzinfo=tz).astimezone(UTC).astimezone(tz)
        if abbreviation is not None and abbreviation != result.tzname():
            # An abbreviation is only a check on the zone: it must name the zone's own time then.
            raise WhenError(raw, "abbreviation", f"{raw!r} says {abbreviation} but {tz} keeps {result.tzname()} "
                            "then: give the zone name (tz) instead of an abbreviation")
    if not FIRST_YEAR <= result.year <= LAST_YEAR:
        raise WhenError(raw, "range", f"{raw!r} is outside the years {FIRST_YEAR}–{LAST_YEAR}")
    return result
