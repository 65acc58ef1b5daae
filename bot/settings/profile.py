"""/profile set, /profile show, /profile delete: a user's birth year and sex, so /cast can decide
what needs 本命 and 行年 (龍戦, 遊子, 天獄), and optionally the zone and place their casts default to
(the place sealed with the birth data, docs/privacy.md).

Every reply is ephemeral: nothing of a profile is shown to anyone else. Deleting the profile also
removes the birth year and sex from every case the user cast (public, private, DM), then
offers (with a button) to delete those cases and every note they wrote (docs/privacy.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

from bot.casebook.views import wipe_view
from bot.core import ack
from bot.core.errors import ReplyError
from bot.core.options import ZoneOption
from bot.core.place import PLACE_MAX, kept_place, place_choices, place_text
from bot.core.reader import resolve
from bot.core.user_text import echo
from bot.core.words import Lang, ls, text
from bot.store import Profile, stored_text
from engine.terms import FIRST_YEAR, LAST_YEAR

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["BIRTH_YEARS", "Profiles"]

BIRTH_YEARS = (FIRST_YEAR, LAST_YEAR)  # the years the calendar serves
SEXES = ("男", "女")
SEX_CHOICES = [app_commands.Choice(name="男 (male)", value="男"), app_commands.Choice(name="女 (female)", value="女")]
COUNT_MAX = 100_000


def _sex_name(sex: str, lang: Lang) -> str:
    return text("profile.male" if sex == "男" else "profile.female", lang)


class Profiles(commands.Cog):
    """/profile …"""

    profile = app_commands.Group(
        name="profile", description=ls("profile.description"),
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    )

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot

    @profile.command(name="set", description=ls("profile.set.description"), extras={"cooldown": "case"})
    @app_commands.describe(birth_year=ls("profile.birth_year.description"), sex=ls("profile.sex.description"),
                           zone=ls("profile.zone.description"), place=ls("profile.place.description"))
    @app_commands.choices(sex=SEX_CHOICES)
    async def set_profile(
        self,
        interaction: discord.Interaction[Any],
        birth_year: app_commands.Range[int, FIRST_YEAR, LAST_YEAR],
        sex: str,
        zone: app_commands.Transform[ZoneInfo, ZoneOption] | None = None,
        place: app_commands.Range[str, 1, PLACE_MAX] | None = None,
    ) -> None:
        lang = (await resolve(self.bot, interaction)).lang
        if not BIRTH_YEARS[0] <= birth_year <= BIRTH_YEARS[1]:
            raise ReplyError(text("profile.bad_year", lang, year=echo(str(birth_year))))
        if sex not in SEXES:
            raise ReplyError(text("profile.bad_sex", lang, value=echo(sex)))
        name = zone.key if zone is not None else None
        kept = None if place is None else await kept_place(place, lang)
        await self.bot.store.set_profile(Profile(interaction.user.id, birth_year, sex, zone, kept))
        saved = text("profile.saved", lang, year=birth_year, sex=_sex_name(sex, lang),
                     zone=name or text("profile.no_zone", lang))
        if kept is not None:
            saved += "\n" + text("profile.place_line", lang, place=place_text(kept, lang))
        await ack.send(interaction, saved, ephemeral=True)

    @set_profile.autocomplete("place")
    async def _place_suggestions(self, interaction: discord.Interaction[Any],
                                 current: str) -> list[app_commands.Choice[str]]:
        """As /cast's place: cities whose name starts with what is typed."""
        return await place_choices(current)

    @profile.command(name="show", description=ls("profile.show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        lang = (await resolve(self.bot, interaction)).lang
        found = await self.bot.store.profile(interaction.user.id)
        if found is None:
            message = text("profile.none", lang)
        else:
            message = text("profile.show", lang, year=found.birth_year, sex=_sex_name(found.sex, lang),
                           zone=text("profile.no_zone", lang) if found.zone is None else stored_text(found.zone))
            if found.place is not None:
                message += "\n" + text("profile.place_line", lang, place=place_text(found.place, lang))
        await ack.send(interaction, message, ephemeral=True)

    @profile.command(name="delete", description=ls("profile.delete.description"))
    async def delete(self, interaction: discord.Interaction[Any]) -> None:
        lang = (await resolve(self.bot, interaction)).lang
        await self.bot.store.delete_profile(interaction.user.id)
        count = len(await self.bot.store.cases_by_author(interaction.user.id, 0, COUNT_MAX))
        await ack.send(interaction, text("profile.deleted", lang, count=count),
                                                view=wipe_view(interaction.user.id, lang), ephemeral=True)
