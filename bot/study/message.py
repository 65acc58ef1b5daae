"""The message menu's "Cast for this message": a chart for the moment a message was posted.

The traditional moment to cast is the moment a question is asked: a member reading a friend's
question in a channel casts for it from the message's own menu (Apps → Cast for this message),
for the message's timestamp in the reader's zone (bot.core.reader: given, profile, server, bot),
with the message's text as the question, read for its matter as /cast reads a question. The chart
is private to the one who asked (an ephemeral reply; a private case, as /cast private:true
records it), counted against the same cooldown as /cast; a "Share in channel" button posts it
for everyone, as a public copy of the case (so everyone's presses work on it).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands, ui

from bot.casebook.present import load_case, stored_inputs
from bot.casebook.privacy import plain_text
from bot.casebook.views import LABEL_MAX, send_case
from bot.core.errors import ReplyError, guarded
from bot.core.host import LiurenBot, host_of
from bot.core.reader import resolve
from bot.core.user_text import clip
from bot.core.words import Lang, ls, text
from bot.store import Case, NewCase

from .record import QUESTION_MAX, record_cast

__all__ = ["ShareCase", "cast_menu", "share_view", "shared_copy"]



def cast_menu() -> app_commands.ContextMenu:
    """The message command, for the Study cog to add to the tree in ``cog_load`` (and remove in
    ``cog_unload``); its name is localised by the bot's Translator as the slash commands are."""
    return app_commands.ContextMenu(
        name=ls("menu.cast_message"), callback=cast_for_message,
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        extras={"cooldown": "cast"},  # the same per-user cooldown as /cast (bot.core.cooldowns)
    )


async def cast_for_message(interaction: discord.Interaction[Any], message: discord.Message) -> None:
    """Cast for ``message.created_at`` with its text as the question; shown to the caller alone."""
    bot = host_of(interaction)
    reader = await resolve(bot, interaction, with_zone=True)
    lang = reader.lang
    # A message may be longer than a question may: its first 300 characters are the question.
    typed = clip(message.content.strip(), QUESTION_MAX) or None
    question = plain_text(typed, lang, limit=QUESTION_MAX, option="question")  # NUL, lone surrogate
    moment = message.created_at.astimezone(reader.cast_zone())
    case, chart = await record_cast(bot, interaction, reader, moment, question=question, matter=None, private=True)
    await send_case(interaction, case, lang, zone_note=reader.zone_note(), image=reader.wants_image(),
                    ephemeral=True, chart=chart)
    await interaction.followup.send(text("menu.private_hint", lang, id=case.id), view=share_view(case.id, lang),
                                    ephemeral=True)


def share_view(case_id: str, lang: Lang) -> ui.View:
    """The one button that shares a private case in the channel (a view only for sending)."""
    view = ui.View(timeout=None)
    view.add_item(ShareCase(case_id, text("button.share", lang)))
    view.stop()  # presses reach the registered ShareCase, not this instance
    return view


def shared_copy(case: Case, interaction: discord.Interaction[Any], now: int) -> NewCase:
    """The case as a public case of its author, in the channel it is shared in."""
    instant, zone, school = stored_inputs(case)
    return NewCase(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id, author_id=case.author_id, private=False,
        instant=instant, zone=zone, day=case.day, yuejiang=case.yuejiang, hour=case.hour, school=school,
        question=case.question, matter=case.matter, birth_year=case.birth_year, sex=case.sex, created_at=now,
    )


class ShareCase(ui.DynamicItem[ui.Button[ui.View]], template=r"lr:p:(?P<case>[0-9A-Z]{6})"):
    """Posts the author's private chart in the channel, for everyone (registered in the Study cog's
    ``cog_load``, so it works after a restart)."""

    def __init__(self, case_id: str, label: str = "") -> None:
        super().__init__(ui.Button(label=clip(label, LABEL_MAX) or "share", style=discord.ButtonStyle.primary,
                                   custom_id=f"lr:p:{case_id}"))
        self.case_id = case_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any],
                             match: re.Match[str], /) -> ShareCase:
        return cls(match["case"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: LiurenBot = host_of(interaction)
        reader = await resolve(bot, interaction)
        case = await load_case(bot, interaction, self.case_id, reader.lang)  # deleted meanwhile?
        if interaction.user.id != case.author_id:
            raise ReplyError(text("case.author_only", reader.lang, id=case.id))
        shared = await bot.store.add_case(shared_copy(case, interaction, int(bot.clock().timestamp())))
        await send_case(interaction, shared, reader.lang, image=reader.wants_image(), ephemeral=False)
