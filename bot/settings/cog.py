"""/settings: a server's defaults (a discord.py extension).

``timezone`` (used by /daily set and /cast), ``place`` (where /cast reads the sun when no place is
given; a member's own, in /profile, comes first), ``school`` (the engine.school.School options),
``language`` (the reply language, overriding each reader's Discord locale only when set), ``image``
(whether replies attach the chart picture) and ``show``. They apply to /cast, /chart, the buttons
under a chart, the daily post and the casebook (a case keeps the options it was cast with).
Changing them needs Manage Server.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.core import ack
from bot.core.options import ServerZoneOption, guild_of
from bot.core.place import PLACE_MAX, kept_place, place_choices, place_text
from bot.core.reader import resolve
from bot.core.words import Lang, as_lang, language_of, ls, text, word
from bot.store import stored_text
from engine.alternatives import OPTION_VALUES
from engine.school import DayNight, HourBy, School
from texts.alternatives import option_words

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Settings", "school_summary"]

DAY_CHANGE_CHOICES = [Choice(name="23:00 (子初換日)", value="23"), Choice(name="00:00", value="0")]
DAYNIGHT_CHOICES = [Choice(name="hours (卯–申 晝)", value="hours"), Choice(name="sun (sunrise–sunset)", value="sun")]
HOUR_BY_CHOICES = [Choice(name=name, value=name) for name in ("clock", "mean", "apparent")]
# What a raw request may send, read back to the engine's values (anything else leaves the option).
DAYNIGHTS: dict[str, DayNight] = {"hours": "hours", "sun": "sun"}
HOURS_BY: dict[str, HourBy] = {"clock": "clock", "mean": "mean", "apparent": "apparent"}
NOBLE_CHOICES = [Choice(name="甲牛", value="甲牛"), Choice(name="甲羊", value="甲羊")]
LANGUAGE_CHOICES = [*(Choice(name=name, value=name) for name in ("ja", "en", "zh-TW", "zh-CN")),
                    Choice(name="client", value="client")]


def school_summary(school: School, lang: Lang) -> str:
    parts = [
        text("settings.school.day23" if school.day_changes_at_23 else "settings.school.day0", lang),
        text("settings.school.noble", lang, table=school.noble_table),
    ]
    for flag, key in ((school.fuyin_repeat_clash, "fuyin"), (school.shehai_depth_first, "shehai"),
                      (school.maoxing_by_day, "maoxing")):
        if flag:
            parts.append(text(f"settings.school.{key}", lang))
    for option in ("daynight", "hour_by"):  # the sun's options, named as the alternatives name them
        if (value := getattr(school, option)) != OPTION_VALUES[option][0]:
            parts.append(option_words(option, value, lang))
    return word("list.sep", lang).join(parts)


class Settings(commands.Cog):
    """/settings: per-server defaults."""

    settings = app_commands.Group(
        name="settings",
        description=ls("daily.settings.description"),
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),  # a server's commands: servers only
        allowed_installs=app_commands.AppInstallationType(guild=True),
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot

    @settings.command(name="timezone", description=ls("daily.settings.timezone.description"))
    @app_commands.describe(zone=ls("daily.settings.timezone.zone.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_timezone(
        self, interaction: discord.Interaction[Any], zone: app_commands.Transform[ZoneInfo, ServerZoneOption]
    ) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        found = zone
        options = await self.bot.store.guild_options(guild.id)
        await self.bot.store.set_guild_options(guild.id, replace(options, timezone=found))
        await ack.send(interaction, text("daily.zone_set", lang, zone=found.key), ephemeral=True)

    @settings.command(name="place", description=ls("settings.place.description"))
    @app_commands.describe(place=ls("settings.place.place.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_place(self, interaction: discord.Interaction[Any],
                             place: app_commands.Range[str, 1, PLACE_MAX]) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        kept = None if place.strip().casefold() == "off" else await kept_place(place, lang)
        options = await self.bot.store.guild_options(guild.id)
        await self.bot.store.set_guild_options(guild.id, replace(options, place=kept))
        await ack.send(interaction, text("settings.place_set", lang, value=place_text(kept, lang)), ephemeral=True)

    @settings_place.autocomplete("place")
    async def _place_suggestions(self, interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        """As /cast's place: cities whose name starts with what is typed."""
        return await place_choices(current)

    @settings.command(name="school", description=ls("settings.school.description"))
    @app_commands.describe(
        day_change=ls("settings.school.day_change.description"),
        noble_table=ls("settings.school.noble_table.description"),
        fuyin_repeat_clash=ls("settings.school.fuyin_repeat_clash.description"),
        shehai_depth_first=ls("settings.school.shehai_depth_first.description"),
        maoxing_by_day=ls("settings.school.maoxing_by_day.description"),
        daynight=ls("settings.school.daynight.description"), hour_by=ls("settings.school.hour_by.description"),
        reset=ls("settings.school.reset.description"),
    )
    @app_commands.choices(day_change=DAY_CHANGE_CHOICES, noble_table=NOBLE_CHOICES, daynight=DAYNIGHT_CHOICES,
                          hour_by=HOUR_BY_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_school(
        self, interaction: discord.Interaction[Any], day_change: str | None = None, noble_table: str | None = None,
        fuyin_repeat_clash: bool | None = None, shehai_depth_first: bool | None = None,
        maoxing_by_day: bool | None = None, reset: bool = False, daynight: str | None = None,
        hour_by: str | None = None,
    ) -> None:
        guild = guild_of(interaction)
        reader = await resolve(self.bot, interaction)
        lang, options = reader.lang, reader.options
        current = School() if reset else options.chosen_school
        school = School(
            day_changes_at_23=current.day_changes_at_23 if day_change is None else day_change != "0",
            noble_table="甲羊" if (noble_table or current.noble_table) == "甲羊" else "甲牛",
            fuyin_repeat_clash=current.fuyin_repeat_clash if fuyin_repeat_clash is None else fuyin_repeat_clash,
            shehai_depth_first=current.shehai_depth_first if shehai_depth_first is None else shehai_depth_first,
            maoxing_by_day=current.maoxing_by_day if maoxing_by_day is None else maoxing_by_day,
            daynight=DAYNIGHTS.get(daynight or "", current.daynight),
            hour_by=HOURS_BY.get(hour_by or "", current.hour_by),
        )
        await self.bot.store.set_guild_options(guild.id, replace(options, school=school))
        await ack.send(
            interaction,
            text("settings.school_set", lang, value=school_summary(school, lang)), ephemeral=True)

    @settings.command(name="language", description=ls("settings.language.description"))
    @app_commands.describe(language=ls("settings.language.language.description"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_language(self, interaction: discord.Interaction[Any], language: str) -> None:
        guild = guild_of(interaction)
        chosen = as_lang(language)
        options = await self.bot.store.guild_options(guild.id)
        await self.bot.store.set_guild_options(guild.id, replace(options, language=chosen))
        lang = chosen or language_of(interaction.locale)
        shown = word("language.name", chosen) if chosen else text("settings.client_language", lang)
        await ack.send(interaction, text("settings.language_set", lang, value=shown), ephemeral=True)

    @settings.command(name="image", description=ls("settings.image.description"))
    @app_commands.describe(on=ls("settings.image.on.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_image(self, interaction: discord.Interaction[Any], on: bool) -> None:
        guild = guild_of(interaction)
        reader = await resolve(self.bot, interaction)
        lang, options = reader.lang, reader.options
        await self.bot.store.set_guild_options(guild.id, replace(options, image=on))
        shown = text("settings.on" if on else "settings.off", lang)
        await ack.send(interaction, text("settings.image_set", lang, value=shown), ephemeral=True)

    @settings.command(name="show", description=ls("settings.show.description"))
    async def settings_show(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)  # guild-only: refuses a DM
        reader = await resolve(self.bot, interaction)
        lang, options = reader.lang, reader.options
        language = word("language.name", options.language) if options.language is not None else None
        zone = text("daily.unset", lang) if options.timezone is None else stored_text(options.timezone)
        lines = [
            text("settings.head", lang),
            text("settings.line.timezone", lang, value=zone),
            text("settings.line.place", lang, value=place_text(options.place, lang)),
            text("settings.line.language", lang, value=language or text("settings.client_language", lang)),
            text("settings.line.image", lang,
                 value=text("settings.off" if options.image is False else "settings.on", lang)),
            text("settings.line.school", lang, value=school_summary(options.chosen_school, lang)),
        ]
        await ack.send(interaction, "\n".join(lines), ephemeral=True)
