"""What users type, as the bot takes it and shows it back: markdown and mentions escaped when shown
(a masked link ``[FREE NITRO](https://…)`` in a question shows as characters, not as a link), and
a lone surrogate (U+D800–U+DFFF: half of a pair, not a character, which no backend stores) found
in any text option before a command runs (bot.core.errors.LiurenTree.interaction_check)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

__all__ = ["ECHO_MAX", "NO_PINGS", "clip", "echo", "escaped", "lone_surrogate", "surrogate_option"]

ECHO_MAX = 40  # characters of user input repeated in a reply (echo)
# The bot's replies echo what users typed (a question, a note, a term): nothing in them may ping
# anyone. The client's default (bot.core.host) and every reply's send (bot.reply.send) say so.
NO_PINGS = discord.AllowedMentions.none()


def clip(value: str, limit: int, mark: str = "…") -> str:
    """``value`` cut to ``limit`` characters, ending with a visible ``mark`` when it was cut."""
    if len(value) <= limit:
        return value
    return value[: max(0, limit - len(mark))] + mark


def echo(value: str) -> str:
    """User input repeated in a reply: one line, at most 40 characters, no mention or markdown tricks."""
    flat = " ".join(value.split()).replace("@", "@\u200b").replace("`", "'")
    return escaped(clip(flat, ECHO_MAX))


def escaped(value: str) -> str:
    """``value`` with its markdown (a masked link, bold, a heading) shown as characters, not
    rendered, and no mention."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(value))


def lone_surrogate(value: str) -> bool:
    """Whether ``value`` holds a code point of the surrogate range (never a character on its own)."""
    return any("\ud800" <= c <= "\udfff" for c in value)


def surrogate_option(interaction: discord.Interaction[Any]) -> str | None:
    """The name of the command's first text option holding a lone surrogate, or None."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    for parameter in command.parameters:
        value = getattr(interaction.namespace, parameter.display_name, None)
        if isinstance(value, str) and lone_surrogate(value):
            return parameter.display_name
    return None
