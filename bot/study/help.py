"""/help's list of commands, read from the command tree itself: every command the bot registered,
with its options and its description in the reader's language, so a new command is never missing.

The descriptions are those Discord shows (the tree's payload, translated by bot.core.words'
Translator from the words data), read in the reader's language rather than the client's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core.words import DISCORD_LOCALE, Lang, text
from bot.reply.limits import Draft, fill, pieces

__all__ = ["command_fields", "help_embeds", "tree_payload"]

Payload = Mapping[str, Any]
_SUBCOMMAND = 1  # Discord's option types: a subcommand, a group of subcommands
_SUBCOMMAND_GROUP = 2
_SLASH = 1  # Discord's command types: 1 a slash command, 2 a member's menu, 3 a message's menu


async def tree_payload(tree: app_commands.CommandTree[Any]) -> list[Payload]:
    """Every command of the tree (slash commands and menus) as Discord receives it, translations
    included, in the order they were registered."""
    translator = tree.translator
    out: list[Payload] = []
    for command in tree.get_commands():
        if translator is None:
            out.append(command.to_dict(tree))
        else:
            out.append(await command.get_translated_payload(tree, translator))
    return out


def _localized(payload: Payload, key: str, lang: Lang) -> str:
    """``payload[key]`` (a name or description) as a client of ``lang`` reads it."""
    default = str(payload.get(key) or "")
    locale = DISCORD_LOCALE.get(lang)
    if locale is None:
        return default
    return str((payload.get(f"{key}_localizations") or {}).get(locale) or default)


def _options(payload: Payload) -> str:
    """A command's options as typed: required ones first as they come, optional ones in brackets."""
    shown = [f"`{o['name']}`" if o.get("required") else f"[`{o['name']}`]" for o in payload.get("options") or ()]
    return " ".join(shown)


def _line(prefix: str, payload: Payload, lang: Lang) -> str:
    options = _options(payload)
    head = f"**{prefix}{payload['name']}**" + (f" {options}" if options else "")
    return f"{head} — {_localized(payload, 'description', lang)}"


def _subcommands(payload: Payload, lang: Lang, prefix: str) -> list[str]:
    lines = []
    for option in payload.get("options") or ():
        if option.get("type") == _SUBCOMMAND:
            lines.append(_line(prefix, option, lang))
        elif option.get("type") == _SUBCOMMAND_GROUP:
            lines.extend(_subcommands(option, lang, f"{prefix}{option['name']} "))
    return lines


def command_fields(payloads: Sequence[Payload], lang: Lang) -> list[tuple[str, str]]:
    """One field per command: ``/cast`` with its options and description, a group with a line per
    subcommand, a menu command with where to find it — all in ``lang``."""
    fields = []
    for payload in payloads:
        if payload.get("type", _SLASH) != _SLASH:  # a message's or a member's menu: where it is found
            name = _localized(payload, "name", lang)
            fields.append((name, text("help.menu", lang, name=name)))
            continue
        name = f"/{payload['name']}"
        subcommands = _subcommands(payload, lang, "")
        if subcommands:
            fields.append((name, "\n".join([_localized(payload, "description", lang), *subcommands])))
        else:
            options = _options(payload)
            described = _localized(payload, "description", lang)
            fields.append((name, f"{described}\n{options}" if options else described))
    return fields


def help_embeds(payloads: Sequence[Payload], lang: Lang, zone: str) -> list[discord.Embed]:
    """/help's reply: what the bot does, then every command, within Discord's embed limits."""
    first = Draft(text("help.title", lang), text("help.body", lang, zone=zone), [], text("embed.source", lang))
    return [draft.embed() for draft in fill(first, pieces(command_fields(payloads, lang), lang), lang)]
