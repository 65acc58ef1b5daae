"""The study commands: /cast, /chart, /lookup, /help.

Each command gets its options parsed at the boundary (bot.core.options), resolves its reader once
(bot.core.reader: language, server settings, profile, zone), casts once, records the case in the
casebook and shows it from the chart just cast. Errors a user can fix become ``ReplyError``
(answered ephemerally by the tree's single handler, bot.core.errors).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.casebook.privacy import plain_text
from bot.casebook.views import send_case
from bot.core.errors import ReplyError
from bot.core.options import AUTOCOMPLETE_MAX, HourOption, MatterOption, PillarOption, YuejiangOption, ZoneOption
from bot.core.place import PLACE_MAX, kept_place, place_choices
from bot.core.reader import resolve
from bot.core.words import ls, text
from bot.core.zones import parse_zone
from bot.reply.lookup import build_lookup_embeds
from bot.reply.send import send_reply
from bot.store import NewCase
from bot.study.help import help_embeds, tree_payload
from engine.symbols import Branch, Pillar
from texts.corpus import corpus
from texts.when import parse_when

from .message import ShareCase, cast_menu
from .record import QUESTION_MAX, record_cast

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Study"]

LOOKUP_TERM_MAX = 50  # as the option declares (app_commands.Range)
THEME_CHOICES = [app_commands.Choice(name="dark", value="dark"), app_commands.Choice(name="light", value="light")]


class Study(commands.Cog):
    """/cast, /chart, /lookup, /help and the message menu's "Cast for this message"."""

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot
        self.menu = cast_menu()  # "Cast for this message" (bot.study.message)

    async def cog_load(self) -> None:
        # A context menu is not a cog's member: added to the tree here, as discord.py documents.
        self.bot.tree.add_command(self.menu)
        self.bot.add_dynamic_items(ShareCase)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)
        self.bot.remove_dynamic_items(ShareCase)

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="cast", description=ls("cast.description"),
                          extras={"cooldown": "cast"})  # per-user cooldown (bot.core.cooldowns)
    @app_commands.describe(
        when=ls("cast.when.description"), tz=ls("cast.tz.description"), place=ls("cast.place.description"),
        private=ls("cast.private.description"), question=ls("cast.question.description"),
        matter=ls("cast.matter.description"),
        image=ls("option.image.description"), theme=ls("option.theme.description"),
    )
    @app_commands.choices(theme=THEME_CHOICES)
    async def cast(
        self,
        interaction: discord.Interaction[Any],
        when: app_commands.Range[str, 1, 100] = "now",
        tz: app_commands.Transform[ZoneInfo, ZoneOption] | None = None,
        private: bool = False,
        question: app_commands.Range[str, 1, QUESTION_MAX] | None = None,
        matter: app_commands.Transform[str, MatterOption] | None = None,
        image: bool | None = None,
        theme: str = "dark",
        place: app_commands.Range[str, 1, PLACE_MAX] | None = None,
    ) -> None:
        # Cast once, saved in the casebook with the school options in force and the caller's birth
        # data, then shown from that chart, as /case show shows the saved case later.
        reader = await resolve(self.bot, interaction, tz=tz, with_zone=True)
        lang = reader.lang
        if place is not None:  # a place without tz brings its own zone (docs/rules.md §10.2)
            reader = reader.at_place(await kept_place(place, lang), "given")
        question = plain_text(question, lang, limit=QUESTION_MAX, option="question")  # NUL, length
        moment = reader.moment(when, self.bot.clock())
        case, chart = await record_cast(self.bot, interaction, reader, moment, question=question, matter=matter,
                                        private=private)
        await send_case(interaction, case, lang, zone_note=reader.zone_note(), image=reader.wants_image(image),
                        theme=theme, ephemeral=private, chart=chart)

    @cast.autocomplete("place")
    async def _place_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Cities whose name (Japanese, Chinese or English) starts with what is typed."""
        return await place_choices(current)

    @cast.autocomplete("when")
    async def _when_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """What the typed text reads as (so a user sees the moment before sending), and "now"."""
        choices = []
        if current.strip():
            try:
                typed = interaction.namespace.tz
                zone = parse_zone(str(typed)) if typed else self.bot.config.zone
                moment = parse_when(current[:100], zone, self.bot.clock())
            except ValueError:
                pass
            else:
                shown = f"{moment:%Y-%m-%d %H:%M} ({zone.key})"
                choices.append(app_commands.Choice(name=shown, value=moment.isoformat(timespec="minutes")))
        choices.append(app_commands.Choice(name="now", value="now"))
        return choices

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="chart", description=ls("chart.description"),
                          extras={"cooldown": "cast"})  # per-user cooldown (bot.core.cooldowns)
    @app_commands.describe(
        day=ls("chart.day.description"), yuejiang=ls("chart.yuejiang.description"), hour=ls("chart.hour.description"),
        question=ls("cast.question.description"), matter=ls("cast.matter.description"),
        image=ls("option.image.description"), theme=ls("option.theme.description"),
    )
    @app_commands.choices(theme=THEME_CHOICES)
    async def chart(self, interaction: discord.Interaction[Any], day: app_commands.Transform[Pillar, PillarOption],
                    yuejiang: app_commands.Transform[Branch, YuejiangOption],
                    hour: app_commands.Transform[Branch, HourOption],
                    question: app_commands.Range[str, 1, QUESTION_MAX] | None = None,
                    matter: app_commands.Transform[str, MatterOption] | None = None,
                    image: bool | None = None, theme: str = "dark") -> None:
        reader = await resolve(self.bot, interaction)
        question = plain_text(question, reader.lang, limit=QUESTION_MAX, option="question")  # NUL, length
        school = reader.school.by_the_clock()  # the classical inputs have no moment and no place
        result = engine.cast_classical(day, yuejiang, hour, school=school)
        case = await self.bot.store.add_case(NewCase(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, author_id=interaction.user.id,
            private=False, instant=None, zone=None, day=str(result.day), yuejiang=str(result.yuejiang),
            hour=str(result.hour), school=school, question=question, matter=matter, birth_year=None,
            sex=None, created_at=int(self.bot.clock().timestamp()),
        ))
        await send_case(interaction, case, reader.lang, image=reader.wants_image(image), theme=theme, chart=result)

    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.command(name="lookup", description=ls("lookup.description"))
    @app_commands.describe(term=ls("lookup.term.description"))
    async def lookup(self, interaction: discord.Interaction[Any], term: app_commands.Range[str, 1, 50]) -> None:
        lang = (await resolve(self.bot, interaction)).lang
        # Discord's client keeps to 50 characters, a raw request need not: a clear refusal.
        if len(term) > LOOKUP_TERM_MAX:
            raise ReplyError(text("lookup.too_long", lang, max=LOOKUP_TERM_MAX, length=len(term)))
        units = corpus().search(term.strip())
        await send_reply(interaction, build_lookup_embeds(term.strip(), units, lang), lang)

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
        # Every command the tree holds, read from it: a command added later is listed too.
        lang = (await resolve(self.bot, interaction)).lang
        embeds = help_embeds(await tree_payload(self.bot.tree), lang, self.bot.config.zone.key)
        await send_reply(interaction, embeds, lang, ephemeral=True)
