"""Reading the moment a user types (``liuren cast --at``, ``/cast when:``) into an aware datetime.

The project's one moment parser: the CLI and the bot accept exactly the same forms. ``parse_when``
is pure: it is given the zone and the current instant, so tests need no clock. Zones are read by
the project's one zone parser, :func:`engine.calendar.zone`.

    >>> from datetime import datetime, UTC
    >>> parse_when("2026年11月29日 14時", "Asia/Tokyo", datetime(2026, 1, 1, tzinfo=UTC)).isoformat()
    '2026-11-29T14:00:00+09:00'
"""

from __future__ import annotations

import contextlib
import os
import re
import unicodedata
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from engine.calendar import CalendarError
from engine.calendar import zone as calendar_zone
from engine.terms import FIRST_YEAR, LAST_YEAR

# The bot's zone when neither the user nor the server names one: $LIUREN_TZ, else Japan (the readers'
# default, docs/admin.md). The terminal apps default to the machine's own zone (texts/cli/zone.py).
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


def zone_data_version() -> str:
    """What identifies the zone rules in use: the tzdata package's version and the system's."""
    from importlib import metadata  # imported when asked (a bot asks after READY), not by every start

    parts = []
    with contextlib.suppress(metadata.PackageNotFoundError):
        parts.append("tzdata " + metadata.version("tzdata"))
    with contextlib.suppress(OSError), Path("/usr/share/zoneinfo/tzdata.zi").open(encoding="ascii") as handle:
        parts.append("system " + handle.readline().strip().removeprefix("# version "))
    return "; ".join(parts) or "unknown"


def zone_named(name: str) -> ZoneInfo:
    """The IANA zone called ``name`` (any case); ``WhenError`` (reason ``"zone"``) for anything else."""
    try:
        return calendar_zone(name)
    except CalendarError as error:
        raise WhenError(name, "zone", str(error)) from error


# The patterns below are strings, compiled by the re module when a text is first read (and kept in
# its cache), not at import: a start reads no date.
# A zone abbreviation typed after the time ("14:00 JST"); UTC/GMT/Z are offsets, not abbreviations.
_ABBREVIATION = r"(?<![A-Za-z])([A-Z]{2,5})$"
_NOT_ABBREVIATIONS = frozenset({"UTC", "GMT", "Z", "UT", "AM", "PM"})


# A part of the day written before the hour (午後2時, 下午2点, 晚上8点, 凌晨3点): the hour it names on a
# 24-hour clock, from the hour as written (0–12). 24 is midnight at the end of the day named.
_AFTERNOON = ("午後", "下午", "午后", "傍晚")
_EVENING = ("晚上", "夜里", "夜裡", "夜晚", "夜间", "夜間")
_DAY_PARTS: tuple[tuple[tuple[str, ...], Callable[[int], int]], ...] = (
    (("午前", "凌晨"), lambda h: h % 12),  # 午前0時, 凌晨3点; 凌晨12点 is the day's first instant
    (("上午", "早上", "早晨", "清晨"), lambda h: h),  # 上午10点; 上午12点 is noon, as readers mean it
    (("中午",), lambda h: h if h >= 11 else h + 12),  # 中午12点, 中午1点 (13:00)
    (_AFTERNOON, lambda h: h % 12 + 12),  # 午後2時, 下午2点; 下午12点 stays noon
    (_EVENING, lambda h: h + 12 if h < 12 else 24),  # 晚上8点; 晚上12点 is the midnight that ends the day
)
_HOUR_MARK = r"[時时点點]"
_DAY_PART = "(" + "|".join(w for words, _ in _DAY_PARTS for w in words) + r")\s*(\d{1,2})(?=\s*" + _HOUR_MARK + ")"
_PART_HOUR = {w: rule for words, rule in _DAY_PARTS for w in words}
# Hours and minutes in Chinese numerals (两点, 十点半, 三点十五分), 0–59.
_CJK_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "两": 2, "兩": 2}
_CJK_NUMBER = r"[〇零一二两兩三四五六七八九十]{1,3}(?=\s*(?:" + _HOUR_MARK + r"|分|秒|刻))"
_QUARTER = r"(\d{1,2})\s*(" + _HOUR_MARK + r")\s*([13])\s*刻"  # 2点一刻, 2点三刻
_CJK_DATE_YMD = r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"
_CJK_DATE_MD = r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"
# 14時30分, 2点15 (Chinese leaves out 分), 2点整 (on the hour).
_CJK_TIME = r"(\d{1,2})\s*" + _HOUR_MARK + r"\s*(?:整|(\d{1,2})\s*分?)?(?:\s*(\d{1,2})\s*秒)?"
# A clock time must be present: a chart needs the hour, and guessing midnight would invent it.
_HAS_CLOCK = r"(?<!\d)\d{1,2}:\d{2}"
# The commonest form (the one the docs and the bench type), read without dateutil
_PLAIN = r"(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?"


def _plain(text: str) -> datetime | None:
    """``YYYY-MM-DD HH:MM[:SS]`` naming a real date and time, as dateutil reads it; None otherwise
    (another form, or values dateutil may read its own way, such as a 13th month)."""
    found = re.fullmatch(_PLAIN, text)
    if found is None:
        return None
    try:
        year, month, day, hour, minute, second = map(int, found.groups(default="0"))
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None


def _cjk_number(numeral: str) -> str:
    """``十五`` → ``15``, ``两`` → ``2``, ``二十`` → ``20``; the text unchanged when it is not 0–59."""
    tens, ten, ones = numeral.partition("十")
    if not ten:
        value = _CJK_DIGITS[numeral] if len(numeral) == 1 else None
    elif len(tens) <= 1 and len(ones) <= 1:
        value = (_CJK_DIGITS[tens] if tens else 1) * 10 + (_CJK_DIGITS[ones] if ones else 0)
    else:
        value = None
    return numeral if value is None or value > 59 else str(value)


def _day_part_hour(found: re.Match[str]) -> str:
    """The 24-hour clock hour of 下午2, 晚上8 …; 下午14 is 14; 上午14 is left as typed (and refused)."""
    word, hour = found.group(1), int(found.group(2))
    if hour <= 12:
        return str(_PART_HOUR[word](hour))
    return str(hour) if hour < 24 and _PART_HOUR[word](hour - 12) == hour else found.group(0)


def _normalize(text: str) -> str:
    """Fold full-width characters and rewrite CJK date/time words into dateutil's forms.

    A midnight that ends the day named (晚上12点) comes out as hour 24, which :func:`parse_when`
    moves to 00:00 of the next day.
    """
    text = unicodedata.normalize("NFKC", text).strip()
    text = re.sub(_CJK_NUMBER, lambda m: _cjk_number(m.group(0)), text)
    text = re.sub(_QUARTER, lambda m: f"{m.group(1)}{m.group(2)}{int(m.group(3)) * 15}分", text)
    text = re.sub(_DAY_PART, _day_part_hour, text)
    text = re.sub(_CJK_DATE_YMD, lambda m: f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d} ", text)
    text = re.sub(_CJK_DATE_MD, lambda m: f"{int(m.group(1))}/{int(m.group(2))} ", text)
    text = re.sub(
        _CJK_TIME, lambda m: f"{int(m.group(1)):02d}:{int(m.group(2) or 0):02d}:{int(m.group(3) or 0):02d}", text
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
    raw = text
    plain = _plain(text.strip())  # in ASCII, the plain form is what normalising would leave
    if plain is not None:
        return _in_range(raw, _on_clock_of(_in_range(raw, plain), tz))
    local_now = now.astimezone(tz)
    text = _normalize(text)
    if not text or text.lower() in NOW_WORDS:
        return local_now
    found = re.search(_ABBREVIATION, text)
    abbreviation = found.group(1) if found is not None and found.group(1) not in _NOT_ABBREVIATIONS else None
    if found is not None and abbreviation is not None:
        text = text[: found.start()].strip()
    if not any(c.isdigit() for c in text):
        raise WhenError(raw, "unreadable", f"cannot read {raw!r} as a date and time")
    if not re.search(_HAS_CLOCK, text):
        raise WhenError(raw, "no_time", f"{raw!r} has no clock time (hour:minute)")
    default = local_now.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)
    # 晚上12点 is 24:00 of the day named, which dateutil does not read: 00:00, then a day later.
    ending = re.search(r"(?:^|[\sT])(24)(:00:00)(?!\d)", text)
    if ending is not None:
        text = text[: ending.start(1)] + "00" + text[ending.end(1) :]
    from dateutil import parser as dateutil_parser  # imported by the first text read, not at start-up

    try:
        parsed: datetime = _plain(text) or dateutil_parser.parse(
            text, default=default, yearfirst=True, dayfirst=False, tzinfos=_known_zone)
    except WhenError:
        raise
    except (dateutil_parser.ParserError, ValueError, OverflowError) as error:
        raise WhenError(raw, "unreadable", f"cannot read {raw!r} as a date and time") from error
    if ending is not None:
        parsed += timedelta(days=1)
    if not FIRST_YEAR <= parsed.year <= LAST_YEAR:
        raise WhenError(raw, "range", f"{raw!r} is outside the years {FIRST_YEAR}–{LAST_YEAR}")
    if parsed.tzinfo is not None:
        if abbreviation is not None:
            raise WhenError(raw, "abbreviation", f"{raw!r} has both an offset and the abbreviation {abbreviation}")
        result = parsed.astimezone(tz)
    else:
        result = _on_clock_of(parsed, tz)
        if abbreviation is not None and abbreviation != result.tzname():
            # An abbreviation is only a check on the zone: it must name the zone's own time then.
            raise WhenError(raw, "abbreviation", f"{raw!r} says {abbreviation} but {tz} keeps {result.tzname()} "
                            "then: give the zone name (tz) instead of an abbreviation")
    return _in_range(raw, result)


def _known_zone(name: str | None, offset: int | None) -> int | None:
    """dateutil's zone hook: an offset it read is kept (as dateutil would); a zone word with no
    offset ("14:00 T") is refused, not read as local time."""
    if offset is None and name is not None:
        raise WhenError(name, "zone", f"{name!r} after the time is not a time zone")
    return offset


def _on_clock_of(local: datetime, tz: tzinfo) -> datetime:
    """A naive clock time of ``tz`` as an aware moment; round-tripped through UTC so a clock time
    inside a DST gap lands on a real instant."""
    return local.replace(tzinfo=tz).astimezone(UTC).astimezone(tz)


def _in_range(raw: str, result: datetime) -> datetime:
    if not FIRST_YEAR <= result.year <= LAST_YEAR:
        raise WhenError(raw, "range", f"{raw!r} is outside the years {FIRST_YEAR}–{LAST_YEAR}")
    return result


def on_clock(instant: datetime, zone: tzinfo | None) -> str:
    """``instant`` as the clock of ``zone`` (a chart's own) shows it, with the zone's abbreviation then.

    How a chart shows every instant it names (the 中気 that set its 月将 …); the JSON keeps UTC.

    >>> from engine.calendar import zone
    >>> on_clock(datetime(2026, 11, 22, 7, 23, 21, tzinfo=UTC), zone("Asia/Tokyo"))
    '2026-11-22 16:23:21 JST'
    >>> on_clock(datetime(2026, 11, 22, 7, 23, 21, tzinfo=UTC), None)
    '2026-11-22 07:23:21 UTC'
    """
    if instant.tzinfo is None:
        raise ValueError("instant must be an aware datetime")
    local = instant.astimezone(zone or UTC)
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or f'{local:%z}'}"
