"""The study commands: /cast, /chart, /lookup, /help (a discord.py extension with one cog).

Each command turns its options into a chart or a lookup, and replies with embeds from
bot.embeds. Errors a user can fix become ``ReplyError`` (answered ephemerally by the tree's
single handler in bot.app); anything else is logged with its traceback there.
"""

from __future__ import annotations

import io
import logging
from datetime import UTC
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from engine.calendar import zone as calendar_zone
from engine.symbols import Pillar, parse_branch
from engine.terms import FIRST_YEAR, LAST_YEAR
from texts import corpus
from texts.picture import Picture
from texts.when import ACCEPTED_FORMS, WhenError, default_zone, parse_when

from .app import LiurenBot, ReplyError
from .buttons import send_case
from .cases import options_of, reader_lang, wants_image
from .embeds import build_lookup_embeds, group_messages
from .i18n import language_of, ls, text
from .options import AUTOCOMPLETE_MAX, HOUR_CHOICES, YUEJIANG_CHOICES, PillarOption, ZoneOption
from .store_casebook import NewCase, Profile, school_from_json, school_json


def when_error_text(error: WhenError, locale: discord.Locale | str) -> str:
    """The reply to a moment that cannot be read: why, and every accepted form."""
    lang = language_of(locale)
    if error.reason == "zone":
        return text("error.zone", lang, zone=error.text[:40])
    return text(
        "error.when", lang, text=error.text[:60], why=text(f"error.when.{error.reason}", lang),
        forms=" / ".join(f"`{f}`" for f in ACCEPTED_FORMS), first=FIRST_YEAR, last=LAST_YEAR,
    )


async def send_embeds(interaction: discord.Interaction[Any], embeds: list[discord.Embed], *,
                      ephemeral: bool = False, picture: Picture | None = None) -> None:
    """The embeds as the response, and as followups when they need more than one message.

    With a ``picture``, the first message uploads the PNG and its first embed shows it
    (``attachment://``), with the alt text as the attachment's description for screen readers.
    """
    messages = group_messages(embeds)
    if picture is None:
        await interaction.response.send_message(embeds=messages[0], ephemeral=ephemeral)
    else:
        messages[0][0].set_image(url=f"attachment://{picture.filename}")
        upload = discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)
        await interaction.response.send_message(embeds=messages[0], file=upload, ephemeral=ephemeral)
    for more in messages[1:]:
        try:
            await interaction.followup.send(embeds=more, ephemeral=ephemeral)
        except discord.HTTPException as refused:
            # The first message is out; say that the rest is missing rather than end in silence.
            log.warning("followup of /%s refused (%s %s)", interaction.command.name if interaction.command else "?",
                        refused.status, refused.code)
            await interaction.followup.send(text("error.followup", language_of(interaction.locale)), ephemeral=True)
            return


THEME_CHOICES = [app_commands.Choice(name="dark", value="dark"), app_commands.Choice(name="light", value="light")]


log = logging.getLogger("bot")


class Study(commands.Cog):
    """/cast, /chart, /lookup and /help."""

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot

    async def _zone(self, interaction: discord.Interaction[Any], tz: str | None,
                    profile: Profile | None = None) -> tuple[str, str]:
        """The zone to cast in and where it came from (the option, the caller's profile, the server,
        the bot default)."""
        lang = await reader_lang(self.bot, interaction)
        if tz:
            return tz, text("embed.zone.given", lang)
        if profile is not None and profile.zone:
            return profile.zone, text("embed.zone.profile", lang)
        if interaction.guild_id is not None:
            stored = await self.bot.store.guild_timezone(interaction.guild_id)
            if stored:
                return stored, text("embed.zone.server", lang)
        return default_zone(), text("embed.zone.bot", lang)

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="cast", description=ls("cast.description"))
    @app_commands.describe(
        when=ls("cast.when.description"), tz=ls("cast.tz.description"),
        private=ls("cast.private.description"), question=ls("cast.question.description"),
        image=ls("option.image.description"), theme=ls("option.theme.description"),
    )
    @app_commands.choices(theme=THEME_CHOICES)
    async def cast(
        self,
        interaction: discord.Interaction[Any],
        when: app_commands.Range[str, 1, 100] = "now",
        tz: app_commands.Transform[str, ZoneOption] | None = None,
        private: bool = False,
        question: app_commands.Range[str, 1, 300] | None = None,
        image: bool | None = None,
        theme: str = "dark",
    ) -> None:
        # Saved in the casebook with the school options in force and the caller's birth data
        # (bot.store_casebook), then shown from the saved case, as /case show shows it later.
        lang = await reader_lang(self.bot, interaction)
        options = await options_of(self.bot, interaction.guild_id)
        profile = await self.bot.store.profile(interaction.user.id)
        zone, zone_note = await self._zone(interaction, tz, profile)
        try:
            moment = parse_when(when[:100], zone, self.bot.clock())
        except WhenError as error:
            raise ReplyError(when_error_text(error, lang)) from None
        school = school_from_json(options.school)
        try:
            engine.cast(moment, school=school)
        except engine.CastError as error:
            raise ReplyError(text("error.chart", lang, detail=error)) from None
        case = await self.bot.store.add_case(NewCase(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, author_id=interaction.user.id,
            private=private, instant=moment.astimezone(UTC).isoformat(), zone=zone, day=None, yuejiang=None,
            hour=None, school=school_json(school), question=question,
            birth_year=profile.birth_year if profile is not None else None,
            sex=profile.sex if profile is not None else None, created_at=int(self.bot.clock().timestamp()),
        ))
        await send_case(interaction, case, lang, zone_note=zone_note, image=wants_image(image, options), theme=theme,
                        ephemeral=private)

    @cast.autocomplete("when")
    async def _when_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """What the typed text reads as (so a user sees the moment before sending), and "now"."""
        choices = []
        if current.strip():
            try:
                zone = calendar_zone(str(interaction.namespace.tz or default_zone())).key
                moment = parse_when(current[:100], zone, self.bot.clock())
            except ValueError:
                pass
            else:
                shown = f"{moment:%Y-%m-%d %H:%M} ({zone})"
                choices.append(app_commands.Choice(name=shown, value=moment.isoformat(timespec="minutes")))
        choices.append(app_commands.Choice(name="now", value="now"))
        return choices

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="chart", description=ls("chart.description"))
    @app_commands.describe(
        day=ls("chart.day.description"), yuejiang=ls("chart.yuejiang.description"), hour=ls("chart.hour.description"),
        image=ls("option.image.description"), theme=ls("option.theme.description"),
    )
    @app_commands.choices(yuejiang=YUEJIANG_CHOICES, hour=HOUR_CHOICES, theme=THEME_CHOICES)
    async def chart(self, interaction: discord.Interaction[Any], day: app_commands.Transform[Pillar, PillarOption],
                    yuejiang: str, hour: str, image: bool | None = None, theme: str = "dark") -> None:
        lang = await reader_lang(self.bot, interaction)
        options = await options_of(self.bot, interaction.guild_id)
        school = school_from_json(options.school)
        result = engine.cast_classical(day, parse_branch(yuejiang), parse_branch(hour), school=school)
        case = await self.bot.store.add_case(NewCase(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, author_id=interaction.user.id,
            private=False, instant=None, zone=None, day=str(result.day), yuejiang=str(result.yuejiang),
            hour=str(result.hour), school=school_json(school), question=None, birth_year=None, sex=None,
            created_at=int(self.bot.clock().timestamp()),
        ))
        await send_case(interaction, case, lang, image=wants_image(image, options), theme=theme)

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="lookup", description=ls("lookup.description"))
    @app_commands.describe(term=ls("lookup.term.description"))
    async def lookup(self, interaction: discord.Interaction[Any], term: app_commands.Range[str, 1, 50]) -> None:
        units = corpus().search(term.strip())
        await send_embeds(interaction, build_lookup_embeds(term.strip(), units, locale=interaction.locale.value))

    @lookup.autocomplete("term")
    async def _term_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # The corpus folds simplified, traditional and Japanese forms: 腾 completes to 騰蛇.
        return [app_commands.Choice(name=t, value=t) for t in corpus().suggest(current[:50], AUTOCOMPLETE_MAX)]

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="help", description=ls("help.description"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        embed = discord.Embed(title=text("help.title", lang), description=text("help.body", lang, zone=default_zone()))
        embed.set_footer(text=text("embed.source", lang))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point (``await bot.load_extension("bot.commands")``)."""
    if not isinstance(bot, LiurenBot):
        raise TypeError("bot.commands needs the LiurenBot from bot.app (it uses .store and .clock)")
    await bot.add_cog(Study(bot))
