"""The study commands: /cast, /chart, /lookup, /help (a discord.py extension with one cog).

Each command turns its options into a chart or a lookup, and replies with embeds from
bot.embeds. Errors a user can fix become ``ReplyError`` (answered ephemerally by the tree's
single handler in bot.app); anything else is logged with its traceback there.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from engine.symbols import BRANCHES, PILLARS
from texts import corpus

from .app import LiurenBot, ReplyError, default_zone
from .embeds import build_lookup_embeds, chart_embeds, group_messages
from .i18n import language_of, ls, text
from .schedule import parse_zone, zone_suggestions
from .when import ACCEPTED_FORMS, FIRST_YEAR, LAST_YEAR, WhenError, parse_when

AUTOCOMPLETE_MAX = 25  # Discord's cap on suggestions

# 月将 names, as the books call the twelve generals of the month (子 神后 … 亥 登明), with the
# 中気 that brings each (RULES §2, ¶43).
_YUEJIANG = (
    ("子", "神后", "大寒"), ("丑", "大吉", "冬至"), ("寅", "功曹", "小雪"), ("卯", "太衝", "霜降"),
    ("辰", "天罡", "秋分"), ("巳", "太乙", "処暑"), ("午", "勝光", "大暑"), ("未", "小吉", "夏至"),
    ("申", "傳送", "小満"), ("酉", "從魁", "穀雨"), ("戌", "河魁", "春分"), ("亥", "登明", "雨水"),
)
YUEJIANG_CHOICES = [
    app_commands.Choice(name=f"{b} {name}（{term}〜）", value=b) for b, name, term in _YUEJIANG
]
# 時支 with its clock hours (RULES §2: 子 23:00–00:59 …).
HOUR_CHOICES = [
    app_commands.Choice(name=f"{b}（{(2 * i - 1) % 24:02d}:00–{(2 * i) % 24:02d}:59）", value=str(b))
    for i, b in enumerate(BRANCHES)
]
PILLAR_NAMES = tuple(str(p) for p in PILLARS)


def when_error_text(error: WhenError, locale: discord.Locale | str) -> str:
    """The reply to a moment that cannot be read: why, and every accepted form."""
    lang = language_of(locale)
    if error.reason == "zone":
        return text("error.zone", lang, zone=error.text)
    return text(
        "error.when", lang, text=error.text, why=text(f"error.when.{error.reason}", lang),
        forms=" / ".join(f"`{f}`" for f in ACCEPTED_FORMS), first=FIRST_YEAR, last=LAST_YEAR,
    )


async def send_embeds(interaction: discord.Interaction[Any], embeds: list[discord.Embed], *,
                      ephemeral: bool = False) -> None:
    """The embeds as the response, and as followups when they need more than one message."""
    messages = group_messages(embeds)
    await interaction.response.send_message(embeds=messages[0], ephemeral=ephemeral)
    for more in messages[1:]:
        await interaction.followup.send(embeds=more, ephemeral=ephemeral)


def _suggest(current: str, names: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    needle = current.strip()
    found = [n for n in names if n.startswith(needle)] + [n for n in names if needle in n and not n.startswith(needle)]
    return [app_commands.Choice(name=n, value=n) for n in found[:AUTOCOMPLETE_MAX]]


class Study(commands.Cog):
    """/cast, /chart, /lookup and /help."""

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot

    async def _zone(self, interaction: discord.Interaction[Any], tz: str | None) -> tuple[str, str]:
        """The zone to cast in and where it came from (the option, the server, the bot default)."""
        lang = language_of(interaction.locale)
        if tz:
            try:
                return str(parse_zone(tz, exact=False)), text("embed.zone.given", lang)
            except ValueError:
                raise ReplyError(text("error.zone", lang, zone=tz)) from None
        if interaction.guild_id is not None:
            stored = await self.bot.store.guild_timezone(interaction.guild_id)
            if stored:
                return stored, text("embed.zone.server", lang)
        return default_zone(), text("embed.zone.bot", lang)

    @app_commands.command(name="cast", description=ls("cast.description"))
    @app_commands.describe(
        when=ls("cast.when.description"), tz=ls("cast.tz.description"),
        private=ls("cast.private.description"), question=ls("cast.question.description"),
    )
    async def cast(
        self,
        interaction: discord.Interaction[Any],
        when: app_commands.Range[str, 1, 100] = "now",
        tz: app_commands.Range[str, 1, 64] | None = None,
        private: bool = False,
        question: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        zone, zone_note = await self._zone(interaction, tz)
        try:
            moment = parse_when(when, zone, self.bot.clock())
        except WhenError as error:
            raise ReplyError(when_error_text(error, interaction.locale)) from None
        try:
            chart = engine.cast(moment, zone)
        except engine.CastError as error:
            raise ReplyError(text("error.chart", language_of(interaction.locale), detail=error)) from None
        embeds = chart_embeds(chart, locale=interaction.locale.value, question=question, zone_note=zone_note)
        await send_embeds(interaction, embeds, ephemeral=private)

    @cast.autocomplete("tz")
    async def _tz_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_suggestions(current, AUTOCOMPLETE_MAX)]

    @cast.autocomplete("when")
    async def _when_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """What the typed text reads as (so a user sees the moment before sending), and "now"."""
        choices = []
        if current.strip():
            try:
                zone = str(parse_zone(str(interaction.namespace.tz or default_zone()), exact=False))
                moment = parse_when(current, zone, self.bot.clock())
            except (ValueError, WhenError):
                pass
            else:
                shown = f"{moment:%Y-%m-%d %H:%M} ({zone})"
                choices.append(app_commands.Choice(name=shown, value=moment.isoformat(timespec="minutes")))
        choices.append(app_commands.Choice(name="now", value="now"))
        return choices

    @app_commands.command(name="chart", description=ls("chart.description"))
    @app_commands.describe(
        day=ls("chart.day.description"), yuejiang=ls("chart.yuejiang.description"), hour=ls("chart.hour.description"),
    )
    @app_commands.choices(yuejiang=YUEJIANG_CHOICES, hour=HOUR_CHOICES)
    async def chart(self, interaction: discord.Interaction[Any], day: app_commands.Range[str, 1, 8],
                    yuejiang: str, hour: str) -> None:
        try:
            result = engine.cast_classical(day.strip(), yuejiang, hour)
        except engine.CastError as error:
            raise ReplyError(text("error.chart", language_of(interaction.locale), detail=error)) from None
        embeds = chart_embeds(result, locale=interaction.locale.value)
        await send_embeds(interaction, embeds)

    @chart.autocomplete("day")
    async def _day_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return _suggest(current, PILLAR_NAMES)

    @app_commands.command(name="lookup", description=ls("lookup.description"))
    @app_commands.describe(term=ls("lookup.term.description"))
    async def lookup(self, interaction: discord.Interaction[Any], term: app_commands.Range[str, 1, 50]) -> None:
        units = corpus().search(term.strip())
        await send_embeds(interaction, build_lookup_embeds(term.strip(), units, locale=interaction.locale.value))

    @lookup.autocomplete("term")
    async def _term_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return _suggest(current, corpus().terms())

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
