"""/settings: a server's defaults (a discord.py extension).

``timezone`` (used by /daily set and /cast), ``school`` (the engine.school.School options),
``language`` (the reply language, overriding each reader's Discord locale only when set), ``image``
(whether replies attach the chart picture) and ``show``. They apply to /cast, /chart, the buttons
under a chart, the daily post and the casebook (a case keeps the options it was cast with).
Changing them needs Manage Server.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.app import LiurenBot, ReplyError
from bot.cases import as_lang, reader_lang, school_summary
from bot.daily import guild_of, zone_choices
from bot.embeds import clip
from bot.i18n import language_of, ls, text
from bot.schedule import parse_zone
from bot.store_casebook import school_from_json, school_json
from engine.school import School
from texts.words import text as word

__all__ = ["Settings", "setup"]

DAY_CHANGE_CHOICES = [Choice(name="23:00 (子初換日)", value="23"), Choice(name="00:00", value="0")]
NOBLE_CHOICES = [Choice(name="甲牛", value="甲牛"), Choice(name="甲羊", value="甲羊")]
LANGUAGE_CHOICES = [*(Choice(name=name, value=name) for name in ("ja", "en", "zh-TW", "zh-CN")),
                    Choice(name="client", value="client")]


class Settings(commands.Cog):
    """/settings: per-server defaults."""

    settings = app_commands.Group(
        name="settings",
        description=ls("daily.settings.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot

    @settings.command(name="timezone", description=ls("daily.settings.timezone.description"))
    @app_commands.describe(zone=ls("daily.settings.timezone.zone.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_timezone(
        self, interaction: discord.Interaction[Any], zone: app_commands.Range[str, 1, 64]
    ) -> None:
        guild = guild_of(interaction)
        lang = language_of(interaction.locale)
        try:
            found = parse_zone(zone)
        except ValueError:
            raise ReplyError(text("daily.bad_zone", lang, value=clip(zone, 80))) from None
        await self.bot.store.set_guild_timezone(guild.id, found.key)
        await interaction.response.send_message(text("daily.zone_set", lang, zone=found.key), ephemeral=True)

    @settings_timezone.autocomplete("zone")
    async def _zone(self, interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        return await zone_choices(current)

    @settings.command(name="school", description=ls("settings.school.description"))
    @app_commands.describe(
        day_change=ls("settings.school.day_change.description"),
        noble_table=ls("settings.school.noble_table.description"),
        fuyin_repeat_clash=ls("settings.school.fuyin_repeat_clash.description"),
        shehai_depth_first=ls("settings.school.shehai_depth_first.description"),
        maoxing_by_day=ls("settings.school.maoxing_by_day.description"),
        reset=ls("settings.school.reset.description"),
    )
    @app_commands.choices(day_change=DAY_CHANGE_CHOICES, noble_table=NOBLE_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_school(
        self, interaction: discord.Interaction[Any], day_change: str | None = None, noble_table: str | None = None,
        fuyin_repeat_clash: bool | None = None, shehai_depth_first: bool | None = None,
        maoxing_by_day: bool | None = None, reset: bool = False,
    ) -> None:
        guild = guild_of(interaction)
        lang = await reader_lang(self.bot, interaction)
        options = await self.bot.store.guild_options(guild.id)
        current = School() if reset else school_from_json(options.school)
        school = School(
            day_changes_at_23=current.day_changes_at_23 if day_change is None else day_change != "0",
            noble_table="甲羊" if (noble_table or current.noble_table) == "甲羊" else "甲牛",
            fuyin_repeat_clash=current.fuyin_repeat_clash if fuyin_repeat_clash is None else fuyin_repeat_clash,
            shehai_depth_first=current.shehai_depth_first if shehai_depth_first is None else shehai_depth_first,
            maoxing_by_day=current.maoxing_by_day if maoxing_by_day is None else maoxing_by_day,
        )
        await self.bot.store.set_guild_options(guild.id, replace(options, school=school_json(school)))
        await interaction.response.send_message(
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
        await interaction.response.send_message(text("settings.language_set", lang, value=shown), ephemeral=True)

    @settings.command(name="image", description=ls("settings.image.description"))
    @app_commands.describe(on=ls("settings.image.on.description"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings_image(self, interaction: discord.Interaction[Any], on: bool) -> None:
        guild = guild_of(interaction)
        lang = await reader_lang(self.bot, interaction)
        options = await self.bot.store.guild_options(guild.id)
        await self.bot.store.set_guild_options(guild.id, replace(options, image=on))
        shown = text("settings.on" if on else "settings.off", lang)
        await interaction.response.send_message(text("settings.image_set", lang, value=shown), ephemeral=True)

    @settings.command(name="show", description=ls("settings.show.description"))
    async def settings_show(self, interaction: discord.Interaction[Any]) -> None:
        guild = guild_of(interaction)
        lang = await reader_lang(self.bot, interaction)
        options = await self.bot.store.guild_options(guild.id)
        zone = await self.bot.store.guild_timezone(guild.id)
        chosen = as_lang(options.language)
        language = word("language.name", chosen) if chosen is not None else None
        lines = [
            text("settings.head", lang),
            text("settings.line.timezone", lang, value=zone or text("daily.unset", lang)),
            text("settings.line.language", lang, value=language or text("settings.client_language", lang)),
            text("settings.line.image", lang,
                 value=text("settings.off" if options.image is False else "settings.on", lang)),
            text("settings.line.school", lang, value=school_summary(school_from_json(options.school), lang)),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: LiurenBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Settings(bot))
