"""The one error path: what a user is told about a failed command, button or form, in their language.

Commands end in ``LiurenTree.on_error``; button and form callbacks go through ``guarded`` (the
same ``user_message`` and logging), so every refusal is an ephemeral reply, every bug a log line
with a reference the user can quote.
"""

from __future__ import annotations

import functools
import logging
import math
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.store import StoreUnavailable

from . import ack
from .ack import InteractionExpired, expired, is_unknown_interaction, mark_expired, release, watch
from .cooldowns import Cooldowns
from .user_text import surrogate_option
from .words import TEXTS, Lang, language_of, text

__all__ = ["MESSAGE_MAX", "LiurenTree", "ReplyError", "guard", "guarded", "permission_names", "reply_ephemeral",
           "report", "user_message"]

log = logging.getLogger("bot")


class ReplyError(app_commands.AppCommandError):
    """An error the user can act on; ``message`` is already in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


async def reply_ephemeral(interaction: discord.Interaction[Any], message: str) -> None:
    """Send ``message`` only to the user, whether or not the interaction was answered already."""
    await ack.send(interaction, message, ephemeral=True)


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
        return text("error.cooldown", lang, seconds=max(1, math.ceil(error.retry_after))), False
    if isinstance(inner, StoreUnavailable):
        return text("error.database", lang), False
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
    """Tell the user about `error` (ephemerally; a bug also gets a log line with a reference).

    Never raises: an interaction Discord expired is logged once and not answered again, and one
    that arrives while the bot shuts down is left unanswered with one log line.
    """
    inner = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if expired(interaction) or isinstance(inner, InteractionExpired):
        return
    if is_unknown_interaction(inner):
        mark_expired(interaction, what)
        return
    if interaction.client.is_closed():
        log.info("%s not answered: the bot is shutting down (%s)", what, type(inner).__name__)
        return
    if isinstance(inner, StoreUnavailable):
        log.warning("%s: the database is unavailable: %s", what, inner)
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
    except InteractionExpired:
        return
    except discord.HTTPException as refused:
        if is_unknown_interaction(refused):
            mark_expired(interaction, what)
            return
        log.warning("could not tell the user about an error in %s (%s); sending the short form", what,
                    refused.status)
        try:
            await reply_ephemeral(interaction, text("error.fallback", language_of(interaction.locale)))
        except Exception as again:
            log.warning("could not tell the user about an error in %s at all (%s)", what, type(again).__name__)
    except Exception as failed:  # a closing session, a dropped connection: one line, never a stray traceback
        log.warning("could not tell the user about an error in %s (%s: %s)", what, type(failed).__name__, failed)


class LiurenTree(app_commands.CommandTree[Any]):
    """The command tree with the bot's single error handler (every cog's commands end here), the
    per-user cooldowns, and the watchdog that acknowledges a slow command within 3 s."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cooldowns = Cooldowns()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        watch(interaction)
        if (option := surrogate_option(interaction)) is not None:  # a raw request: refused like a NUL
            raise ReplyError(text("error.option_surrogate", language_of(interaction.locale), option=option))
        command = interaction.command
        kind = command.extras.get("cooldown") if command is not None else None
        if kind is not None:
            self.cooldowns.hit(str(kind), interaction.user.id)  # CommandOnCooldown: answered with the wait
        return True

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        await report(interaction, error, f"command /{command}")
        release(interaction)


Item = TypeVar("Item")
Callback = Callable[[Item, discord.Interaction[Any]], Coroutine[Any, Any, None]]


async def guard(interaction: discord.Interaction[Any], kind: str, what: str,
                body: Callable[[], Awaitable[None]]) -> None:
    """Run a button's or form's ``body`` as the tree runs a command: acknowledged within 3 s
    (bot.core.ack), counted against the user's ``kind`` cooldown (bot.core.cooldowns), and answered
    through the one error path — a ``ReplyError`` becomes its message, anything else a logged bug
    with a reference (``what`` names it in the log)."""
    try:
        watch(interaction)
        tree = getattr(interaction.client, "tree", None)
        if isinstance(tree, LiurenTree):
            tree.cooldowns.hit(kind, interaction.user.id)
        await body()
    except Exception as error:
        await report(interaction, error, what)
    finally:
        release(interaction)


def guarded(callback: Callback[Item]) -> Callback[Item]:
    """A button's callback, run through ``guard`` (kind ``button``)."""

    @functools.wraps(callback)
    async def run(item: Item, interaction: discord.Interaction[Any]) -> None:
        what = f"{type(item).__name__} ({getattr(item, 'custom_id', '?')})"
        await guard(interaction, "button", what, lambda: callback(item, interaction))

    return run
