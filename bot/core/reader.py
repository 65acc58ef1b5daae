"""Who is reading: the reader's language, the server's settings, their profile and the zone and place
a cast is made in, with where each came from — resolved once per interaction.

``resolve`` reads the server's settings row once and (when asked) the profile once, both decoded by
the store, chooses the zone (for a cast: ``with_zone``), and keeps the result on the interaction
(``interaction.extras``), so a command, its buttons' error path and its helpers never read or
parse them again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Literal
from zoneinfo import ZoneInfo

import discord

from bot.store import Bad, GuildOptions, KeptPlace, Profile
from engine.school import School
from engine.terms import FIRST_YEAR, LAST_YEAR
from texts.memo import LRU
from texts.when import ACCEPTED_FORMS, WhenError, parse_when

from .errors import ReplyError
from .words import Lang, language_of, text

if TYPE_CHECKING:
    from .host import LiurenBot

__all__ = ["PlaceSource", "Reader", "ZoneSource", "resolve", "when_error_text"]

ZoneSource = Literal["given", "profile", "server", "bot"]
PlaceSource = Literal["given", "profile", "server"]
_RANK: dict[str, int] = {"given": 3, "profile": 2, "server": 1, "bot": 0}
_MOMENTS: LRU[tuple[str, str, date], datetime] = LRU(1024)  # moments read from text (≈ 0.3 KB each)
_KEY = "liuren.reader"


@dataclass(frozen=True, slots=True)
class Reader:
    """The reader of one interaction and the settings that apply to them."""

    lang: Lang
    options: GuildOptions
    profile: Profile | None
    profile_read: bool = False  # whether `profile` was looked up (None then means: no profile)
    zone: ZoneInfo | None = None  # the zone a cast is made in; resolved only for a cast (with_zone)
    zone_source: ZoneSource = "bot"
    place: KeptPlace | None = None  # the place a cast is read at (given, the profile's, the server's)
    place_source: PlaceSource | None = None
    zoned_by_place: bool = False  # the zone is the place's own (no zone given where the place was)

    @property
    def school(self) -> School:
        """The server's school options (the defaults outside a server)."""
        return self.options.chosen_school

    def zone_note(self) -> str:
        """Where the zone (and the place) came from, in the reader's words (shown beside the zone)."""
        note = text("embed.zone.place" if self.zoned_by_place else f"embed.zone.{self.zone_source}", self.lang)
        if self.place is None or self.place_source is None:
            return note
        return text("embed.place.note", self.lang, zone=note, place=self.place.name,
                    source=text(f"embed.zone.{self.place_source}", self.lang))

    def at_place(self, place: KeptPlace, source: PlaceSource) -> Reader:
        """The reader casting at ``place``; the place brings its own zone when no zone was given where
        (or above where) the place was: a given place over a profile's zone, a profile's over a server's."""
        reader = replace(self, place=place, place_source=source)
        if place.zone is None or _RANK[source] <= _RANK[self.zone_source]:
            return reader
        return replace(reader, zone=place.zone, zoned_by_place=True)

    def wants_image(self, option: bool | None = None) -> bool:
        """The command's own choice, else the server's (attached unless the server turned it off)."""
        return option if option is not None else self.options.image is not False

    def cast_zone(self) -> ZoneInfo:
        """The zone a cast is made in (``resolve(..., with_zone=True)``)."""
        if self.zone is None:
            raise RuntimeError("the reader was resolved without a zone: pass with_zone=True")
        return self.zone

    def moment(self, when: str, now: datetime) -> datetime:
        """The moment ``when`` names in the reader's zone; ReplyError naming every accepted form."""
        zone = self.cast_zone()
        local_now = now.astimezone(zone)
        # A text names the same moment all day long unless it means now (parsing it is most
        # of a warm /cast's own work): keyed on the day, and "now" never kept.
        key = (when[:100], zone.key, local_now.date())
        found = _MOMENTS.get(key)
        if found is not None:
            return found
        try:
            moment = parse_when(when[:100], zone, now)
        except WhenError as error:
            raise ReplyError(when_error_text(error, self.lang)) from None
        if moment != local_now:
            _MOMENTS.put(key, moment)
        return moment


def when_error_text(error: WhenError, locale: discord.Locale | str) -> str:
    """The reply to a moment that cannot be read: why, and every accepted form."""
    lang = language_of(locale)
    if error.reason == "zone":
        return text("error.zone", lang, zone=error.text[:40])
    return text(
        "error.when", lang, text=error.text[:60], why=text(f"error.when.{error.reason}", lang),
        forms=" / ".join(f"`{f}`" for f in ACCEPTED_FORMS), first=FIRST_YEAR, last=LAST_YEAR,
    )


async def resolve(bot: LiurenBot, interaction: discord.Interaction[Any], *, tz: ZoneInfo | None = None,
                  with_profile: bool = False, with_zone: bool = False) -> Reader:
    """The interaction's reader (cached on it): the server's reply language when it set one, else
    the reader's own Discord language; with ``with_zone`` (a cast) the zone from the option, the
    profile, the server, or the bot (``with_zone`` reads the profile too)."""
    with_profile = with_profile or with_zone
    found = interaction.extras.get(_KEY)
    if (isinstance(found, Reader) and (found.profile_read or not with_profile)
            and (found.zone is not None or not with_zone) and tz is None):
        return found
    # One trip to the database for both, when neither is remembered
    options, profile = await bot.store.reader(interaction.guild_id, interaction.user.id if with_profile else None)
    lang = options.language if options.language is not None else language_of(interaction.locale)
    if with_zone:
        zone, source = _zone(bot, tz, profile, options, lang)
        reader = Reader(lang, options, profile, with_profile, zone, source)
        stored = _place(profile, options, lang)
        if stored is not None:
            reader = reader.at_place(*stored)
    else:
        reader = Reader(lang, options, profile, with_profile)
    interaction.extras[_KEY] = reader
    return reader


def _zone(bot: LiurenBot, tz: ZoneInfo | None, profile: Profile | None, options: GuildOptions,
          lang: Lang) -> tuple[ZoneInfo, ZoneSource]:
    if tz is not None:
        return tz, "given"
    stored: tuple[tuple[ZoneInfo | Bad | None, ZoneSource], ...] = (
        (profile.zone if profile else None, "profile"), (options.timezone, "server"),
    )
    for zone, source in stored:
        if isinstance(zone, Bad):  # a stored name this zone data no longer knows
            raise ReplyError(text("error.zone", lang, zone=zone.text[:40]))
        if zone is not None:
            return zone, source
    return bot.config.zone, "bot"


def _place(profile: Profile | None, options: GuildOptions, lang: Lang) -> tuple[KeptPlace, PlaceSource] | None:
    stored: tuple[tuple[KeptPlace | Bad | None, PlaceSource], ...] = (
        (profile.place if profile else None, "profile"), (options.place, "server"),
    )
    for place, source in stored:
        if isinstance(place, Bad):  # a stored place that no longer decodes: said, not skipped
            raise ReplyError(text("error.place.stored", lang, place=place.text[:60]))
        if place is not None:
            return place, source
    return None
