"""The one multi-message sender: embeds as an interaction's reply, in as many messages as Discord's
limits need, the first carrying the picture and the view.

Every reply of charts, readings and look-ups goes through ``send_reply``; the daily post has its
own sender (bot.daily.delivery) because it posts to a channel with a nonce, not to an interaction.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Sequence
from typing import Any

import discord
from discord import ui

from bot.core import ack
from bot.core.user_text import NO_PINGS
from bot.core.words import Lang, text
from texts.picture.draw import Picture

from .limits import group_messages

__all__ = ["attach_later", "picture_file", "send_reply"]

log = logging.getLogger("bot")


def picture_file(picture: Picture) -> discord.File:
    """A fresh upload of the picture, its alt text as the description screen readers read (a
    ``discord.File`` is spent by one request)."""
    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)


async def send_reply(
    interaction: discord.Interaction[Any], embeds: Sequence[discord.Embed], lang: Lang, *,
    ephemeral: bool = False, picture: Picture | Awaitable[Picture] | None = None, view: ui.View | None = None,
    sizes: Sequence[int] = (),
) -> None:
    """The embeds as the response, and as followups when they need more than one message.

    With a ``picture``, the first message uploads the PNG and its first embed shows it
    (``attachment://``); with a picture still being drawn (an awaitable), the first message goes
    out without it and is edited to add it once drawn (``attach_later``), so the text is not held
    back by the drawing. ``sizes``: the embeds' lengths, when known (``group_messages``). A refused
    followup is said in one more ephemeral line rather than ending in silence (the first message is
    already out).
    """
    messages = group_messages(embeds, sizes)
    first: dict[str, Any] = {"embeds": messages[0], "ephemeral": ephemeral, "allowed_mentions": NO_PINGS}
    if view is not None:
        first["view"] = view
    if isinstance(picture, Picture):
        messages[0][0].set_image(url=f"attachment://{picture.filename}")
        first["file"] = picture_file(picture)
    try:
        sent = await ack.send(interaction, **first)
    except BaseException:
        if picture is not None and not isinstance(picture, Picture):
            asyncio.ensure_future(picture).cancel()  # nothing to attach it to
        raise
    later = None
    if picture is not None and not isinstance(picture, Picture):
        later = asyncio.ensure_future(attach_later(interaction, sent, messages[0], picture))
    try:
        await _followups(interaction, messages[1:], lang, ephemeral)
    finally:
        if later is not None:
            await later


async def attach_later(interaction: discord.Interaction[Any], sent: Any, embeds: list[discord.Embed],
                       drawing: Awaitable[Picture]) -> None:
    """Add the picture, once drawn, to the message ``sent`` (the response, or the followup that
    answered a deferred interaction): its upload, and its first embed showing it. A drawing or an
    edit that fails is logged once, never retried; the text already sent stands."""
    try:
        picture = await drawing
    except Exception:
        log.exception("a chart's picture could not be drawn; its reply stands without it")
        return
    embeds[0].set_image(url=f"attachment://{picture.filename}")
    file = picture_file(picture)
    try:
        if isinstance(sent, discord.WebhookMessage):
            await sent.edit(embeds=embeds, attachments=[file])
        else:
            await interaction.edit_original_response(embeds=embeds, attachments=[file])
    except discord.HTTPException as refused:
        log.warning("a chart's picture could not be attached (%s %s); its reply stands without it",
                    refused.status, refused.code)


async def _followups(interaction: discord.Interaction[Any], messages: Sequence[Sequence[discord.Embed]],
                     lang: Lang, ephemeral: bool) -> None:
    for more in messages:
        try:
            await interaction.followup.send(embeds=list(more), ephemeral=ephemeral, allowed_mentions=NO_PINGS)
        except discord.HTTPException as refused:
            what = f"/{interaction.command.name}" if interaction.command else "a button's reply"
            log.warning("followup of %s refused (%s %s)", what, refused.status, refused.code)
            await interaction.followup.send(text("error.followup", lang), ephemeral=True)
            return
