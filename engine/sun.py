"""The sun seen from a place: declination, equation of time, solar time, sunrise and sunset.

NOAA's solar calculator (after Meeus, *Astronomical Algorithms*, ch. 25 and 28), written short:
good to well under a minute for sunrise and sunset between 60°S and 60°N, and to a few seconds
for the equation of time. Pure arithmetic; the instant is civil UTC (ΔT, about a minute, moves the
sun by far less than the accuracy asked).

    >>> from datetime import datetime, UTC
    >>> round(equation_of_time(datetime(2026, 3, 1, 5, 20, tzinfo=UTC)), 1)
    -12.4
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from math import acos, asin, cos, degrees, radians, sin, tan

__all__ = ["ALTITUDE", "Place", "SunEvents", "altitude", "declination", "equation_of_time", "mean_solar", "solar_time",
           "sun_events"]

ALTITUDE = -0.833  # the sun's centre at rising and setting: refraction 34′ and the semi-diameter 16′
_J2000 = datetime(2000, 1, 1, 12, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Place:
    """A point on the Earth: latitude and longitude in decimal degrees, north and east positive."""

    lat: float
    lon: float

    def __post_init__(self) -> None:
        for name, value, bound in (("latitude", self.lat, 90.0), ("longitude", self.lon, 180.0)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not -bound <= value <= bound:
                raise ValueError(f"{name} {value!r} is out of range: give decimal degrees within ±{bound:g}")

    def __str__(self) -> str:
        return f"{self.lat:.4f},{self.lon:.4f}"


def _centuries(instant: datetime) -> float:
    return (instant - _J2000).total_seconds() / 86400 / 36525


def _sun(t: float) -> tuple[float, float]:
    """Declination (radians) and equation of time (minutes) at ``t`` Julian centuries from J2000."""
    mean_long = radians((280.46646 + t * (36000.76983 + t * 0.0003032)) % 360)
    anomaly = radians(357.52911 + t * (35999.05029 - 0.0001537 * t))
    ecc = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    centre = (sin(anomaly) * (1.914602 - t * (0.004817 + 0.000014 * t))
              + sin(2 * anomaly) * (0.019993 - 0.000101 * t) + sin(3 * anomaly) * 0.000289)
    omega = radians(125.04 - 1934.136 * t)
    apparent_long = radians(degrees(mean_long) + centre - 0.00569 - 0.00478 * sin(omega))
    mean_obliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    obliquity = radians(mean_obliquity + 0.00256 * cos(omega))
    dec = asin(sin(obliquity) * sin(apparent_long))
    y = tan(obliquity / 2) ** 2
    eot = (y * sin(2 * mean_long) - 2 * ecc * sin(anomaly) + 4 * ecc * y * sin(anomaly) * cos(2 * mean_long)
           - 0.5 * y * y * sin(4 * mean_long) - 1.25 * ecc * ecc * sin(2 * anomaly))
    return dec, 4 * degrees(eot)


def declination(instant: datetime) -> float:
    """The sun's apparent declination in degrees at an aware instant."""
    return degrees(_sun(_centuries(instant))[0])


def equation_of_time(instant: datetime) -> float:
    """Apparent minus mean solar time, in minutes (−14 … +16 over a year)."""
    return _sun(_centuries(instant))[1]


def mean_solar(instant: datetime, lon: float) -> datetime:
    """Local mean solar time at longitude ``lon``: UTC + lon/15 h, as a naive wall time."""
    return instant.astimezone(UTC).replace(tzinfo=None) + timedelta(hours=lon / 15)


def solar_time(instant: datetime, lon: float, apparent: bool) -> tuple[datetime, float]:
    """Mean (or, with ``apparent``, true) local solar time at ``lon`` as a naive wall time, and the
    equation of time in minutes that apparent time adds to mean time."""
    eot = equation_of_time(instant)
    mean = mean_solar(instant, lon)
    return (mean + timedelta(minutes=eot) if apparent else mean), eot


@dataclass(frozen=True, slots=True)
class SunEvents:
    """Sunrise and sunset (aware, UTC) of one solar day at a place; both ``None`` when the sun does not
    cross the horizon that day, and ``polar`` says whether it stays up ("day") or down ("night")."""

    sunrise: datetime | None
    sunset: datetime | None
    polar: str | None  # "day" | "night" | None


def _event(day: date, place: Place, rising: bool) -> datetime | str:
    """The instant the sun's centre crosses ``ALTITUDE`` on ``day`` (mean solar date at the place),
    refined twice at the found instant; "day"/"night" when it never does."""
    noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC) - timedelta(hours=place.lon / 15)
    guess = noon
    lat = radians(place.lat)
    for _ in range(3):
        dec, eot = _sun(_centuries(guess))
        cos_h = (sin(radians(ALTITUDE)) - sin(lat) * sin(dec)) / (cos(lat) * cos(dec))
        if cos_h < -1:
            return "day"
        if cos_h > 1:
            return "night"
        hour_angle = degrees(acos(cos_h))  # degrees of the sun's travel from noon, 4 minutes each
        guess = noon + timedelta(minutes=-eot + (-4 if rising else 4) * hour_angle)
    return guess


def sun_events(day: date, place: Place) -> SunEvents:
    """Sunrise and sunset of the solar ``day`` (the date of local mean solar time) at ``place``."""
    rise, fall = _event(day, place, True), _event(day, place, False)
    if isinstance(rise, datetime) and isinstance(fall, datetime):
        return SunEvents(rise, fall, None)
    # one of the two may still happen on a day the sun only just crosses; the noon altitude decides
    dec = _sun(_centuries(datetime(day.year, day.month, day.day, 12, tzinfo=UTC)))[0]
    noon_altitude = degrees(asin(sin(radians(place.lat)) * sin(dec) + cos(radians(place.lat)) * cos(dec)))
    return SunEvents(None, None, "day" if noon_altitude > ALTITUDE else "night")


def altitude(instant: datetime, place: Place) -> float:
    """The sun's geometric altitude in degrees at an instant (for checks: 晝 when above ``ALTITUDE``)."""
    dec, eot = _sun(_centuries(instant))
    utc = instant.astimezone(UTC)
    minutes = utc.hour * 60 + utc.minute + utc.second / 60 + utc.microsecond / 6e7
    hour_angle = radians((minutes + eot + 4 * place.lon) / 4 - 180)
    lat = radians(place.lat)
    return degrees(asin(sin(lat) * sin(dec) + cos(lat) * cos(dec) * cos(hour_angle)))

