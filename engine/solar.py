"""What the sun said for a chart cast at a place (docs/rules.md §10.3–10.4), as one value.

The hour branch and the day read on mean or apparent solar time instead of the clock; 晝夜 by
sunrise and sunset instead of the hours 卯–申. The clock's answers are kept beside the ones used,
so every output can say when the sun changed the hour, the day or the 貴人's column, and why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from .calendar import Moment, day_and_hour
from .generals import is_daytime
from .reasons import Rule, Why, why
from .school import School
from .sun import Place, SunEvents, mean_solar, solar_time, sun_events
from .symbols import Branch, Pillar

__all__ = ["Solar", "read_sun"]


@dataclass(frozen=True, slots=True)
class Solar:
    """The place, the solar time and sunrise/sunset a chart used, and what the clock alone gives.

    ``solar`` is the wall time the hour and day were read on (``None`` under ``hour_by="clock"``);
    ``equation_of_time`` in minutes (``None`` unless apparent time was used); ``sunrise``/``sunset``
    in the chart's zone, of the solar day around the instant (``None`` unless ``daynight="sun"``, or
    in a polar day or night, which ``polar`` names: "day" | "night")."""

    place: Place
    clock: datetime
    solar: datetime | None
    equation_of_time: float | None
    clock_day: Pillar
    clock_hour: Branch
    day: Pillar
    hour: Branch
    sunrise: datetime | None
    sunset: datetime | None
    polar: str | None
    daytime: bool  # 晝 as used for the 貴人
    hours_daytime: bool  # 晝 as the hours 卯–申 of the hour used give
    trace: tuple[Why, ...]

    @property
    def hour_differs(self) -> bool:
        """The hour branch used is not the clock's."""
        return self.hour != self.clock_hour

    @property
    def day_differs(self) -> bool:
        """The day pillar used is not the clock's."""
        return self.day != self.clock_day

    @property
    def daytime_differs(self) -> bool:
        """晝夜 by the sun is not what the hours give."""
        return self.daytime != self.hours_daytime


def _hms(wall: datetime) -> str:
    return f"{wall:%H:%M:%S}"


def read_sun(when: Moment, at: datetime, place: Place, school: School) -> tuple[Moment, Solar]:
    """The moment with its day and hour read as ``school`` asks, and the :class:`Solar` record.

    ``at`` is the instant (aware). Under ``hour_by="clock"`` the moment is returned as it is.
    """
    trace: list[Why] = []
    clock_day, clock_hour = when.day, when.hour.branch
    wall: datetime | None = None
    eot: float | None = None
    if school.hour_by != "clock":
        wall, minutes = solar_time(at, place.lon, school.hour_by == "apparent")
        eot = minutes if school.hour_by == "apparent" else None
        day, hour = day_and_hour(wall, day_changes_at_23=school.day_changes_at_23)
        if eot is None:
            trace.append(why(Rule.HOUR_BY_MEAN, lon=f"{place.lon:+.3f}", clock=_hms(when.local), solar=_hms(wall),
                             clock_hour=clock_hour, hour=hour.branch))
        else:
            trace.append(why(Rule.HOUR_BY_APPARENT, lon=f"{place.lon:+.3f}", clock=_hms(when.local),
                             solar=_hms(wall), equation=f"{eot:+.1f}", clock_hour=clock_hour, hour=hour.branch))
        if day != clock_day:
            trace.append(why(Rule.DAY_BY_SUN, clock_day=clock_day, day=day))
        when = replace(when, day=day, hour=hour)
    hour_branch = when.hour.branch
    hours_daytime = is_daytime(hour_branch)
    daytime = hours_daytime
    rise = fall = None
    polar = None
    if school.daynight == "sun":
        events = _events_around(at, place)
        polar = events.polar
        zone = when.local.tzinfo
        if events.sunrise is not None and events.sunset is not None:
            rise, fall = events.sunrise.astimezone(zone), events.sunset.astimezone(zone)
            daytime = events.sunrise <= at < events.sunset
            rule = Rule.SUN_UP if daytime else Rule.SUN_DOWN
            trace.append(why(rule, sunrise=f"{rise:%H:%M}", sunset=f"{fall:%H:%M}", clock=f"{when.local:%H:%M}"))
        else:
            daytime = polar == "day"
            trace.append(why(Rule.POLAR_DAY if daytime else Rule.POLAR_NIGHT))
    solar = Solar(place, when.local, wall, eot, clock_day, clock_hour, when.day, hour_branch, rise, fall, polar,
                  daytime, hours_daytime, tuple(trace))
    return when, solar


def _events_around(at: datetime, place: Place) -> SunEvents:
    """Sunrise and sunset of the solar day the instant falls in (by mean solar time at the place),
    so a zone far from the place's meridian never pairs an instant with the wrong day's sun."""
    return sun_events(mean_solar(at, place.lon).date(), place)
