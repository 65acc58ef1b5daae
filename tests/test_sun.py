"""The sun at a place (docs/rules.md §10.3–10.5): sunrise and sunset, the equation of time, the hour and
the day by mean or apparent solar time, 晝夜 by the sun, polar days and nights, and the errors."""

from __future__ import annotations

import csv
from dataclasses import fields
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from engine import CastError, Place, School, cast, cast_classical
from engine.sun import ALTITUDE, altitude, equation_of_time, mean_solar, solar_time, sun_events
from engine.symbols import Branch

TOKYO = Place(35.6895, 139.6917)
URUMQI = Place(43.825, 87.600)
JST = ZoneInfo("Asia/Tokyo")
SHANGHAI = ZoneInfo("Asia/Shanghai")
REFERENCE = Path(__file__).parent / "data" / "reference_sun.csv"
MINUTE = timedelta(minutes=1)


@pytest.mark.parametrize(("day", "rise", "fall"), [
    (date(2026, 6, 21), datetime(2026, 6, 21, 4, 26, tzinfo=JST), datetime(2026, 6, 21, 19, 0, tzinfo=JST)),
    (date(2026, 12, 21), datetime(2026, 12, 21, 6, 47, tzinfo=JST), datetime(2026, 12, 21, 16, 31, tzinfo=JST)),
])
def test_tokyo_sunrise_and_sunset_to_the_minute(day: date, rise: datetime, fall: datetime) -> None:
    events = sun_events(day, TOKYO)
    assert events.polar is None and events.sunrise is not None and events.sunset is not None
    assert abs(events.sunrise - rise) <= MINUTE and abs(events.sunset - fall) <= MINUTE


def test_urumqi_by_the_clock_by_mean_and_by_apparent_solar_time() -> None:
    at = datetime(2026, 3, 1, 13, 20, tzinfo=SHANGHAI)
    assert mean_solar(at, URUMQI.lon) == datetime(2026, 3, 1, 11, 10, 24)
    apparent, eot = solar_time(at, URUMQI.lon, True)
    # JPL DE423 through skyfield (the sun's apparent hour angle there) gives 10:58:03, EoT −12.35 min;
    # docs/rules.md §10.5's 10:57 (−12.9 min) is half a minute early, and the branch is 巳 either way.
    assert abs(apparent - datetime(2026, 3, 1, 10, 58, 3)) <= timedelta(seconds=30)
    assert abs(eot - -12.35) * 60 <= 30
    hours = {by: cast(at, school=School(hour_by=by), place=URUMQI) for by in ("clock", "mean", "apparent")}
    assert [hours[by].hour for by in ("clock", "mean", "apparent")] == [Branch.未, Branch.午, Branch.巳]
    sun = hours["apparent"].sun
    assert sun is not None and sun.hour_differs and not sun.day_differs and sun.clock_hour is Branch.未
    assert [w.rule.value for w in sun.trace] == ["hour_by_apparent"]
    assert hours["apparent"].moment is not None and hours["apparent"].moment.local == at  # the clock stays shown
    assert hours["apparent"].yuejiang == hours["clock"].yuejiang  # the 月将 is the 中気's, not the sun's


def _rows() -> list[dict[str, str]]:
    with REFERENCE.open(encoding="utf-8") as data:
        return list(csv.DictReader(line for line in data if not line.startswith("#")))


def test_sunrise_sunset_and_equation_of_time_agree_with_de423_over_a_year_from_60s_to_60n() -> None:
    rows = _rows()
    assert len(rows) >= 400 and {float(r["lat"]) for r in rows} >= {-60.0, 60.0, 0.0 - 0.18}
    for row in rows:
        place, day = Place(float(row["lat"]), float(row["lon"])), date.fromisoformat(row["date"])
        events = sun_events(day, place)
        for mine, theirs in ((events.sunrise, row["sunrise_utc"]), (events.sunset, row["sunset_utc"])):
            assert mine is not None and theirs, row
            assert abs(mine - datetime.fromisoformat(theirs.replace("Z", "+00:00"))) <= MINUTE, row
        noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
        assert abs(equation_of_time(noon) - float(row["eot_minutes_at_noon_utc"])) * 60 <= 30, row
        # the instants found are where the sun's centre stands at −0.833°
        assert events.sunrise is not None and abs(altitude(events.sunrise, place) - ALTITUDE) < 0.05


def test_polar_day_is_day_and_polar_night_is_night() -> None:
    tromso = Place(69.65, 18.96)
    oslo = ZoneInfo("Europe/Oslo")
    assert sun_events(date(2026, 6, 21), tromso).polar == "day"
    assert sun_events(date(2026, 12, 21), tromso).polar == "night"
    midnight = cast(datetime(2026, 6, 21, 0, 30, tzinfo=oslo), school=School(daynight="sun"), place=tromso)
    noon = cast(datetime(2026, 12, 21, 12, 0, tzinfo=oslo), school=School(daynight="sun"), place=tromso)
    assert midnight.generals.daytime and not noon.generals.daytime
    assert midnight.sun is not None and midnight.sun.polar == "day" and midnight.sun.sunrise is None
    assert [w.rule.value for w in midnight.sun.trace] == ["polar_day"]
    assert noon.sun is not None and [w.rule.value for w in noon.sun.trace] == ["polar_night"]


def test_daynight_by_the_sun_changes_only_the_noble_column() -> None:
    # 18:30 JST at midsummer is the hour 酉 (夜 by the hours) but before sunset (19:00): 晝 by the sun
    at = datetime(2026, 6, 21, 18, 30, tzinfo=JST)
    hours, sun = cast(at, place=TOKYO), cast(at, school=School(daynight="sun"), place=TOKYO)
    assert not hours.generals.daytime and sun.generals.daytime
    assert sun.sun is not None and sun.sun.daytime_differs and sun.sun.sunset is not None
    assert (sun.hour, sun.day, sun.transmissions, sun.plate) == (hours.hour, hours.day, hours.transmissions,
                                                                 hours.plate)
    assert sun.generals.noble != hours.generals.noble
    # and at 05:00 (卯, 晝 by the hours) the sun agrees
    dawn = cast(datetime(2026, 6, 21, 5, 0, tzinfo=JST), school=School(daynight="sun"), place=TOKYO)
    assert dawn.sun is not None and dawn.generals.daytime and not dawn.sun.daytime_differs


def test_the_day_changes_on_solar_time() -> None:
    # 00:30 in Shanghai is 22:20 mean solar time the evening before in Ürümqi: 亥 of the day before
    at = datetime(2026, 3, 1, 0, 30, tzinfo=SHANGHAI)
    clock, mean = cast(at, place=URUMQI), cast(at, school=School(hour_by="mean"), place=URUMQI)
    assert clock.hour is Branch.子 and mean.hour is Branch.亥
    assert mean.day.index == (clock.day.index - 1) % 60
    assert mean.sun is not None and mean.sun.day_differs and mean.sun.clock_day == clock.day
    assert [w.rule.value for w in mean.sun.trace] == ["hour_by_mean", "day_by_sun"]
    assert mean.moment is not None and clock.moment is not None
    assert (mean.moment.year, mean.moment.month) == (clock.moment.year, clock.moment.month)


def test_the_sun_options_need_a_moment_and_a_place() -> None:
    at = datetime(2026, 3, 1, 13, 20, tzinfo=SHANGHAI)
    for school in (School(daynight="sun"), School(hour_by="mean"), School(hour_by="apparent")):
        with pytest.raises(CastError, match="no place was given"):
            cast(at, school=school)
        with pytest.raises(CastError, match="no moment and no place"):
            cast_classical("甲子", "亥", "午", school=school)
        assert cast_classical("甲子", "亥", "午", school=school.by_the_clock()) is cast_classical("甲子", "亥", "午")
    with pytest.raises(ValueError, match="latitude"):
        Place(91, 0)
    with pytest.raises(ValueError, match="hour rule"):
        School(hour_by=_text("sun"))


def _text(value: str) -> Any:
    return value


def test_with_the_defaults_a_place_changes_nothing_of_the_chart() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(0, 24 * 365, 37):
        at = start + timedelta(hours=i)
        plain, placed = cast(at, "Europe/Madrid"), cast(at, "Europe/Madrid", place=Place(40.4168, -3.7038))
        assert placed.sun is not None and not placed.sun.trace and plain.sun is None
        assert all(getattr(plain, f.name) == getattr(placed, f.name) for f in fields(plain) if f.name != "sun")
