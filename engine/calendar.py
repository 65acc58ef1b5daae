"""Calendar of a chart (docs/rules.md §2): pillars, 月将 and the solar terms around an instant.

Pure Python at run time: the solar-term instants come from the generated table in
:mod:`engine.solar_terms` (JPL DE423, see tools/gen_solar_terms.py) and are found by bisection;
zones come from :mod:`zoneinfo` (the ``tzdata`` package makes that work without system files).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from functools import cache
from importlib.util import find_spec
from math import floor
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from .solar_terms import FIRST_YEAR, INSTANTS, LAST_YEAR
from .symbols import BRANCHES, PILLARS, Branch, Pillar
from .terms import FIRST_YEAR as CALENDAR_FIRST_YEAR
from .terms import LAST_YEAR as CALENDAR_LAST_YEAR

__all__ = [
    "FIRST_DATE",
    "LAST_DATE",
    "CalendarError",
    "Moment",
    "SolarTerm",
    "day_and_hour",
    "moment",
    "solar_terms",
    "yuejiang_at",
    "zone",
    "zone_names",
]

FIRST_DATE = date(CALENDAR_FIRST_YEAR, 1, 1)
LAST_DATE = date(CALENDAR_LAST_YEAR, 12, 31)


class CalendarError(ValueError):
    """An instant or zone the calendar cannot place; the message says what is accepted."""


@dataclass(frozen=True, slots=True)
class SolarTerm:
    """One of the 24 solar terms at a given instant."""

    name: str  # Japanese form, e.g. "冬至", "雨水", "驚蟄", "小満"
    longitude: int  # apparent solar ecliptic longitude, degrees: 270, 330, 345 …
    instant: datetime  # aware, UTC, to the second
    principal: bool  # True for a 中気 (multiple of 30°), False for a 節

    def __str__(self) -> str:
        return f"{self.name} {self.instant:%Y-%m-%d %H:%M:%S} UTC"


@dataclass(frozen=True, slots=True)
class Moment:
    """Everything the calendar says about one instant in one zone."""

    local: datetime  # aware, in `zone`
    zone: str  # IANA name
    year: Pillar  # changes at 立春
    month: Pillar  # changes at each 節
    day: Pillar  # with the day-change option applied
    hour: Pillar
    yuejiang: Branch  # 月将 from the last 中気 at or before the instant
    principal_term: SolarTerm  # that last 中気
    sectional_term: SolarTerm  # the last 節 at or before the instant


# Order of each year's row in INSTANTS: 小寒 (285°) first, then every 15° to 冬至 (270°).
TERM_NAMES: tuple[str, ...] = (
    "小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "清明", "穀雨", "立夏", "小満", "芒種", "夏至",
    "小暑", "大暑", "立秋", "処暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
)  # fmt: skip
TERM_LONGITUDES: tuple[int, ...] = tuple((285 + 15 * i) % 360 for i in range(24))

# 月将 by the 中気 that set it (¶43): 雨水 亥, 春分 戌, 穀雨 酉 … 大寒 子, i.e. one branch back per
# 30°. Indexed by the term's position in a year's row (odd positions are the 中気).
YUEJIANG_BY_TERM: tuple[Branch | None, ...] = tuple(
    BRANCHES[(11 - ((lon - 330) % 360) // 30) % 12] if lon % 30 == 0 else None for lon in TERM_LONGITUDES
)
# 月建 by the 節 that opened the month: 立春 寅, 驚蟄 卯 … 小寒 丑 (one branch on per 30°).
MONTH_BRANCH_BY_TERM: tuple[int, ...] = tuple((2 + ((lon - 315) % 360) // 30) % 12 for lon in TERM_LONGITUDES)

_LICHUN = 2  # position of 立春 in a year's row
_FIRST_DAY = FIRST_DATE.toordinal()
_LAST_DAY = LAST_DATE.toordinal()
_DAY_2000_01_01 = date(2000, 1, 1).toordinal()
_DAY_INDEX_2000_01_01 = 54  # 戊午
# Memos, each kept because the benchmarks show it (docs/performance.md): zones by their canonical
# name, so a cast given a zone name skips the case-folded look-up; each term of INSTANTS made once.
_ZONES: dict[str, ZoneInfo] = {}
_TERMS: dict[int, SolarTerm] = {}
_ACCEPTED_ZONE = "give an IANA zone name such as 'Asia/Tokyo' or 'America/New_York'"


_NOT_PLACES = frozenset({"localtime", "posixrules", "Factory"})  # the host's zone or nothing, never a place


# Made once: listing the zones walks the zone files (milliseconds), and autocomplete asks at each key.
@cache
def _canonical_zones() -> dict[str, str]:
    """Case-folded IANA name → its canonical spelling. ``localtime``, ``posixrules`` and ``Factory``
    are not in the list: they name the host's zone or nothing, never a place a reader meant."""
    names = available_timezones() - _NOT_PLACES
    return {name.casefold(): name for name in names}


def _listed_by_tzdata(name: str) -> bool:
    """Whether ``name`` is spelled as the tzdata package lists it. ``available_timezones`` starts
    from that list, so such a name is canonical there too: one file read, not every file under the
    system's zone folders opened. False without tzdata."""
    if name in _NOT_PLACES:
        return False
    # The list is read through the package's loader: importlib.resources, as available_timezones
    # reads it, is a few modules more to import for the one start that checks its zone
    spec = find_spec("tzdata")
    read = getattr(spec.loader, "get_data", None) if spec is not None else None
    if spec is None or read is None or not spec.submodule_search_locations:  # no tzdata: the system's files
        return False
    try:
        listing = read(f"{spec.submodule_search_locations[0]}/zones")
    except OSError:
        return False
    return isinstance(listing, bytes) and name in {line.strip() for line in listing.decode("utf-8").splitlines()}


def zone_names(fragment: str = "", limit: int | None = None) -> tuple[str, ...]:
    """IANA zone names containing ``fragment`` (any case), shortest first; for autocomplete."""
    needle = fragment.strip().casefold()
    found = sorted((n for low, n in _canonical_zones().items() if needle in low), key=lambda n: (len(n), n))
    return tuple(found if limit is None else found[:limit])


def zone(name: str) -> ZoneInfo:
    """The ZoneInfo for an IANA zone name, forgiving case (``asia/tokyo``), cached.

    This is the project's one zone parser. ``CalendarError`` for anything that is not an IANA name:
    an abbreviation (``JST``), ``localtime`` (the host's zone, never what a reader meant), a blank.
    """
    found = _ZONES.get(name) if isinstance(name, str) else None
    if found is not None:
        return found
    if not isinstance(name, str) or not name.strip():
        raise CalendarError(f"unknown time zone {name!r}: {_ACCEPTED_ZONE}")
    # Until something needs the listing, a name spelled as tzdata lists it is checked against that
    # list alone; once the listing is made, every name is looked up there (a dict, no file read).
    listed = _canonical_zones.cache_info().currsize == 0 and _listed_by_tzdata(name)
    canonical = name if listed else _canonical_zones().get(name.strip().casefold())
    if canonical is None:
        raise CalendarError(f"unknown time zone {name.strip()[:60]!r}: {_ACCEPTED_ZONE}")
    try:
        found = ZoneInfo(canonical)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:
        raise CalendarError(f"unknown time zone {name.strip()[:60]!r}: {_ACCEPTED_ZONE}") from error
    if name == canonical:  # kept under its own spelling only, so the memo holds at most one per zone
        _ZONES[name] = found
    return found


def _term(index: int) -> SolarTerm:
    """The solar term at position ``index`` of INSTANTS (built once, then cached)."""
    term = _TERMS.get(index)
    if term is None:
        position = index % 24
        term = SolarTerm(
            TERM_NAMES[position],
            TERM_LONGITUDES[position],
            datetime.fromtimestamp(INSTANTS[index], UTC),
            position % 2 == 1,
        )
        _TERMS[index] = term
    return term


def solar_terms(year: int) -> tuple[SolarTerm, ...]:
    """The 24 terms whose instants fall in that Gregorian year (UTC), in time order."""
    if isinstance(year, bool) or not isinstance(year, int) or not FIRST_YEAR <= year <= LAST_YEAR:
        raise CalendarError(f"no solar terms for year {year!r}: give a year {FIRST_YEAR}..{LAST_YEAR}")
    base = (year - FIRST_YEAR) * 24
    return tuple(_term(i) for i in range(base, base + 24))


def _last_term_index(seconds: float) -> int:
    """Position in INSTANTS of the last term at or before ``seconds`` (POSIX)."""
    # The table holds whole seconds, so flooring first changes no answer and keeps the
    # bisection on int-to-int comparisons (about twice as fast as float-to-int).
    index = bisect_right(INSTANTS, floor(seconds)) - 1
    if index < 1 or index >= len(INSTANTS) - 1:
        raise CalendarError(
            f"instant {seconds!r} is outside the solar-term table: give a moment in "
            f"{FIRST_DATE.isoformat()}..{LAST_DATE.isoformat()}"
        )
    return index


def yuejiang_at(instant: datetime) -> Branch:
    """月将 at an aware instant: set by the last 中気 at or before it (docs/rules.md §2, ¶43)."""
    if not isinstance(instant, datetime) or instant.utcoffset() is None:
        raise CalendarError(f"cannot place {instant!r}: give an aware datetime (with tzinfo), e.g. from moment()")
    index = _last_term_index(instant.timestamp())
    if index % 2 == 0:  # a 節: the 中気 before it rules
        index -= 1
    branch = YUEJIANG_BY_TERM[index % 24]
    assert branch is not None
    return branch


def _zone_name(tz: tzinfo, local: datetime) -> str:
    if isinstance(tz, ZoneInfo):
        return tz.key
    if tz is UTC:
        return "UTC"
    return local.tzname() or "UTC"


def moment(at: datetime, tz: str | None = None, *, day_changes_at_23: bool = True) -> Moment:
    """Pillars, 月将 and solar terms of an instant.

    If `at` is naive, `tz` is required and `at` is local time there; if aware and tz given,
    convert to tz; if aware and tz None, use at's own zone (its key if ZoneInfo, else 'UTC'
    offset name). With ``day_changes_at_23`` (子初換日, the default) the day pillar turns at
    23:00 local time, otherwise at midnight. A naive wall time that a DST change skipped is
    read with the offset before the change, so ``local`` shows the real clock time (02:30 on a
    spring-forward night becomes 03:30); a repeated one follows its ``fold`` (PEP 495).
    Raises CalendarError for a naive datetime without tz, an unknown zone, or a local date
    outside 1900-01-01..2100-12-31.
    """
    if not isinstance(at, datetime):
        raise CalendarError(f"cannot place {at!r}: give a datetime (aware, or naive with a zone name)")
    try:
        local, name, seconds = _place(at, tz)
    except (OverflowError, ValueError) as error:
        if isinstance(error, CalendarError):
            raise
        raise CalendarError(
            f"{at.isoformat()} is outside the calendar: give a moment whose local date is in "
            f"{FIRST_DATE.isoformat()}..{LAST_DATE.isoformat()}"
        ) from None
    day = local.toordinal()
    if not _FIRST_DAY <= day <= _LAST_DAY:
        raise CalendarError(
            f"{local.isoformat()} is outside the calendar: give a moment whose local date is in "
            f"{FIRST_DATE.isoformat()}..{LAST_DATE.isoformat()}"
        )
    year, month, yuejiang, principal, sectional = _span(_last_term_index(seconds))
    day_pillar, hour_pillar = _day_and_hour(day, local.hour, day_changes_at_23)
    return Moment(local, name, year, month, day_pillar, hour_pillar, yuejiang, principal, sectional)


def day_and_hour(wall: datetime, *, day_changes_at_23: bool = True) -> tuple[Pillar, Pillar]:
    """The day and hour pillars read on a wall time (the clock's, or a solar time, docs/rules.md §10.4)."""
    return _day_and_hour(wall.toordinal(), wall.hour, day_changes_at_23)


def _day_and_hour(day: int, hour: int, day_changes_at_23: bool) -> tuple[Pillar, Pillar]:
    if day_changes_at_23 and hour == 23:
        day += 1
    day_index = (day - _DAY_2000_01_01 + _DAY_INDEX_2000_01_01) % 60
    hour_branch = (hour + 1) // 2 % 12  # docs/rules.md §2: 子 23:00-00:59, 丑 01:00-02:59 … by the local clock
    # 五鼠遁: a 甲/己 day opens with 甲子, 乙/庚 with 丙子 …: index 12*(stem mod 5) + branch.
    hour_index = (12 * (day_index % 5) + hour_branch) % 60
    return PILLARS[day_index], PILLARS[hour_index]


def _place(at: datetime, tz: str | None) -> tuple[datetime, str, float]:
    """The local time, zone name and POSIX seconds of ``at`` (see :func:`moment`)."""
    if at.tzinfo is None or at.utcoffset() is None:
        if tz is None:
            raise CalendarError(
                f"naive datetime {at.isoformat()} has no time zone: attach tzinfo or "
                f"{_ACCEPTED_ZONE.replace('give', 'pass tz=')}"
            )
        info = zone(tz)
        instant = at.replace(tzinfo=info).astimezone(UTC)
        # Back to the zone: a wall time a DST change skipped (read, per PEP 495, with the offset
        # before the change) comes back as the clock time that instant really had, 02:30 → 03:30.
        local = instant.astimezone(info)
        name = info.key
        seconds = instant.timestamp()
    elif tz is not None:
        info = zone(tz)
        local = at.astimezone(info)
        name = info.key
        seconds = at.timestamp()  # the same instant; often cheaper than through the zone
    else:
        local = at
        name = _zone_name(at.tzinfo, at)
        seconds = at.timestamp()
    return local, name, seconds


_Span = tuple[Pillar, Pillar, Branch, SolarTerm, SolarTerm]
# What follows from each term on, made once: a cast from an instant finds it by the term's position.
_SPANS: dict[int, _Span] = {}


def clear_cache() -> None:
    """Forget the spans worked out (for benchmarks that time a cast from scratch); terms stay made."""
    _SPANS.clear()


def _span(index: int) -> _Span:
    """Year and month pillars, 月将 and the two ruling terms from the last term ``index``."""
    span = _SPANS.get(index)
    if span is not None:
        return span
    if index % 2:  # the last term is a 中気; the 節 before it opened the month
        principal, sectional = index, index - 1
    else:
        principal, sectional = index - 1, index
    solar_year = FIRST_YEAR + sectional // 24 - (sectional % 24 < _LICHUN)
    # 60 years per cycle, 1984 甲子. Months: 12 a year, so 5 years make a cycle; a 甲/己 year
    # opens with 丙寅 (五虎遁), which gives index 12*Y + month + 14 (mod 60), month 0 = 寅月.
    month_number = (MONTH_BRANCH_BY_TERM[sectional % 24] - 2) % 12
    yuejiang = YUEJIANG_BY_TERM[principal % 24]
    assert yuejiang is not None
    span = (
        PILLARS[(solar_year - 1984) % 60],
        PILLARS[(12 * solar_year + month_number + 14) % 60],
        yuejiang,
        _term(principal),
        _term(sectional),
    )
    _SPANS[index] = span
    return span
