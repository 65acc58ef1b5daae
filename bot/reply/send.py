"""The one multi-message sender: embeds as an interaction's reply, in as many messages as Discord's
limits need, the first carrying the picture and the view.

Every reply of charts, readings and look-ups goes through ``send_reply``; the daily post has its
own sender (bot.daily.delivery) because it posts to a channel with a nonce, not to an interaction.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from bot.core import ack
from bot.core.user_text import NO_PINGS
from bot.core.words import Lang, text
from texts.picture.draw import Picture

from .limits import group_messages

__all__ = ["picture_file", "send_reply"]

log = logging.getLogger("bot")


def picture_file(picture: Picture) -> discord.File:
    """A fresh upload of the picture, its alt text as the description screen readers read (a
    ``discord.File`` is spent by one request)."""
    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)


async def send_reply(
    interaction: discord.Interaction[Any], embeds: Sequence[discord.Embed], lang: Lang, *,
    ephemeral: bool = False, picture: Picture | None = None, view: ui.View | None = None, sizes: Sequence[int] = (),
) -> None:
    """The embeds as the response, and as followups when they need more than one message.

    With a ``picture``, the first message uploads the PNG and its first embed shows it
    (``attachment://``). ``sizes``: the embeds' lengths, when known (``group_messages``). A refused
    followup is said in one more ephemeral line rather than ending in silence (the first message is
    already out).
    """
    messages = group_messages(embeds, sizes)
    first: dict[str, Any] = {"embeds": messages[0], "ephemeral": ephemeral, "allowed_mentions": NO_PINGS}
    if view is not None:
        first["view"] = view
    if picture is not None:
        messages[0][0].set_image(url=f"attachment://{picture.filename}")
        first["file"] = picture_file(picture)
    await ack.send(interaction, **first)
    for more in messages[1:]:
        try:
            await interaction.followup.send(embeds=more, ephemeral=ephemeral, allowed_mentions=NO_PINGS)
        except discord.HTTPException as refused:
            what = f"/{interaction.command.name}" if interaction.command else "a button's reply"
            log.warning("followup of %s refused (%s %s)", what, refused.status, refused.code)
            await interaction.followup.send(text("error.followup", lang), ephemeral=True)
            return
