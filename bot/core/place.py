"""/cast's ``place``: a city's name (Japanese, Chinese or English) or ``lat,lon``, resolved through
texts.place (docs/rules.md §10.2); every refusal a ReplyError in the reader's words, nothing guessed.

The gazetteer is read once (about a second) on the worker threads, never on the event loop.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from discord import app_commands

from bot.core.errors import ReplyError
from bot.core.options import AUTOCOMPLETE_MAX
from bot.core.user_text import clip, echo
from bot.core.words import Lang, text, word
from bot.core.worker import off_loop
from bot.core.zones import parse_zone
from bot.store import Bad, KeptPlace, stored_text
from texts.place import AmbiguousPlace, Located, PlaceError, candidates, own_zone, parse_place, suggest

__all__ = ["PLACE_MAX", "kept_place", "place_choices", "place_text", "place_zone", "resolve_place"]

PLACE_MAX = 100  # characters of a place (as /cast declares)
CANDIDATES_SHOWN = 8


async def resolve_place(typed: str, lang: Lang) -> Located:
    """The place typed, resolved; ReplyError for an ambiguous name (with its candidates), an unknown
    name, coordinates off the Earth, or a name when the gazetteer is not installed."""
    shown = echo(typed)
    try:
        return await off_loop(parse_place, typed[:PLACE_MAX])
    except AmbiguousPlace as error:
        found = error.candidates
        listed = word("list.sep", lang).join(str(c) for c in found[:CANDIDATES_SHOWN])
        if len(found) > CANDIDATES_SHOWN:
            listed += " …"
        raise ReplyError(text("error.place.ambiguous", lang, place=shown, count=len(found), candidates=listed,
                              example=f"{shown}, {found[0].country}")) from None
    except PlaceError:
        if typed.strip()[:1] in set("+-0123456789"):  # read as coordinates, out of range
            raise ReplyError(text("error.place.coordinates", lang, place=shown)) from None
        try:
            await off_loop(candidates, "")
        except PlaceError:  # the [place] extra is not installed
            raise ReplyError(text("error.place.gazetteer", lang)) from None
        raise ReplyError(text("error.place.unknown", lang, place=shown)) from None


async def place_zone(located: Located) -> ZoneInfo | None:
    """The place's own zone (texts.place.own_zone: for coordinates, the nearest city's, looked up
    on the worker threads); ``None`` when none is known."""
    name = located.zone if located.zone is not None else await off_loop(own_zone, located)
    try:
        return parse_zone(name) if name else None
    except ValueError:
        return None


async def kept_place(typed: str, lang: Lang) -> KeptPlace:
    """The place typed, resolved (``resolve_place``'s refusals) and kept with its own zone."""
    located = await resolve_place(typed, lang)
    zone = await place_zone(located)
    return KeptPlace(located.place, located.name, zone)


def place_text(place: KeptPlace | Bad | None, lang: Lang) -> str:
    """A kept place as shown in settings and profiles: name, coordinates and zone ("not set": none)."""
    if place is None:
        return text("daily.unset", lang)
    if isinstance(place, Bad):
        return echo(stored_text(place))
    coordinates = f"{place.place.lat:.4f},{place.place.lon:.4f}"
    shown = coordinates if place.name == coordinates else f"{place.name} {coordinates}"  # lat,lon: named so
    return shown if place.zone is None else f"{shown} ({place.zone.key})"


def _value(city: Located) -> str:
    """What a suggestion sends: ``name, CC`` when that names one city, else its coordinates."""
    named = f"{city.name}, {city.country}"
    return named if len(candidates(named)) == 1 else f"{city.place.lat:.4f},{city.place.lon:.4f}"


def _choices(current: str) -> list[app_commands.Choice[str]]:
    try:
        found = suggest(current[:PLACE_MAX], AUTOCOMPLETE_MAX)
    except PlaceError:  # no gazetteer: coordinates only, nothing to suggest
        return []
    return [app_commands.Choice(name=clip(str(c), 100), value=_value(c)) for c in found]


async def place_choices(current: str) -> list[app_commands.Choice[str]]:
    """Cities whose name starts with what is typed, largest first (Discord's 25 at most)."""
    if not current.strip():
        return []
    return await off_loop(_choices, current)
