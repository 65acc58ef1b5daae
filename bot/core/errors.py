"""The one error path: what a user is told about a failed command, button or form, in their language.

Commands end in ``LiurenTree.on_error``; button and form callbacks go through ``guarded`` (the
same ``user_message`` and logging), so every refusal is an ephemeral reply, every bug a log line
with a reference the user can quote.
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, TypeVar

import discord
from discord import app_commands

from .words import TEXTS, Lang, language_of, text

__all__ = ["MESSAGE_MAX", "LiurenTree", "ReplyError", "guarded", "permission_names", "reply_ephemeral", "report",
           "user_message"]

log = logging.getLogger("bot")


class ReplyError(app_commands.AppCommandError):
    """An error the user can act on; ``message`` is already in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


async def reply_ephemeral(interaction: discord.Interaction[Any], message: str) -> None:
    """Send ``message`` only to the user, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


def permission_names(permissions: Iterable[str], lang: Lang) -> str:
    """Discord permission flags (``manage_guild``) as the reader's client names them (サーバー管理)."""
    named = [text(f"permission.{p}", lang) if f"permission.{p}" in TEXTS else p.replace("_", " ") for p in permissions]
    return text("permission.sep", lang).join(named)


# Discord refuses a message over 2,000 characters: a reply is clipped to it, and an error reply it
# still refuses falls back to a short fixed one, so the user is never left without an answer.
MESSAGE_MAX = 2000


def user_message(error: BaseException, locale: discord.Locale | str) -> tuple[str, bool]:
    """What to tell the user about ``error``, and whether it is a bug worth a traceback in the log."""
    lang = language_of(locale)
    inner = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(inner, ReplyError):
        return inner.message, False
    if isinstance(error, app_commands.CommandOnCooldown):
        return text("error.cooldown", lang, seconds=error.retry_after), False
    if isinstance(error, app_commands.BotMissingPermissions):
        return text("error.bot_permission", lang, detail=permission_names(error.missing_permissions, lang)), False
    if isinstance(error, app_commands.MissingPermissions):
        return text("error.permission", lang, detail=permission_names(error.missing_permissions, lang)), False
    if isinstance(error, app_commands.CheckFailure):
        return text("error.permission", lang, detail=str(error) or "check"), False
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return text("error.unknown_command", lang), True
    if isinstance(inner, discord.Forbidden):
        return text("error.bot_permission", lang, detail=inner.text or "403"), False
    return "", True


async def report(interaction: discord.Interaction[Any], error: BaseException, what: str) -> None:
    """Tell the user about `error` (ephemerally; a bug also gets a log line with a reference)."""
    message, is_bug = user_message(error, interaction.locale)
    if is_bug:
        ref = uuid.uuid4().hex[:8]
        log.error("%s failed (ref %s)", what, ref, exc_info=error)
        if not message:
            message = text("error.internal", language_of(interaction.locale), ref=ref)
    else:
        log.info("%s refused: %s", what, message)
    if len(message) > MESSAGE_MAX:
        message = message[: MESSAGE_MAX - 1] + "…"
    try:
        await reply_ephemeral(interaction, message)
    except discord.HTTPException as refused:
        log.warning("could not tell the user about an error in %s (%s); sending the short form", what,
                    refused.status)
        try:
            await reply_ephemeral(interaction, text("error.fallback", language_of(interaction.locale)))
        except discord.HTTPException:
            log.warning("could not tell the user about an error in %s at all", what, exc_info=True)


class LiurenTree(app_commands.CommandTree[Any]):
    """The command tree with the bot's single error handler (every cog's commands end here)."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        await report(interaction, error, f"command /{command}")


Item = TypeVar("Item")
Callback = Callable[[Item, discord.Interaction[Any]], Coroutine[Any, Any, None]]


def guarded(callback: Callback[Item]) -> Callback[Item]:
    """A button's or form's callback, answered through the same error path as a command: a
    ``ReplyError`` becomes its message, anything else a logged bug with a reference."""

    @functools.wraps(callback)
    async def run(item: Item, interaction: discord.Interaction[Any]) -> None:
        try:
            await callback(item, interaction)
        except Exception as error:
            await report(interaction, error, f"{type(item).__name__} ({getattr(item, 'custom_id', '?')})")

    return run
