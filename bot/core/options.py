"""Command options parsed at the boundary, once (discord.py Transformers): a zone (ZoneInfo), a day
pillar, a 月将 or hour branch, a wall time, a channel id.

Each transformer turns the raw option text into a typed value (or a ``ReplyError`` the user can act
on, in their language) and offers autocomplete, so command bodies only ever see parsed values.
"""

from __future__ import annotations

from datetime import time
from typing import Any, ClassVar
from zoneinfo import ZoneInfo

import discord
from discord import app_commands

import texts.matters as matter_texts  # matter_named: its words load with the first matter given (PEP 562)
from engine.symbols import BRANCHES, PILLARS, Branch, Pillar, parse_branch
from engine.terms import HOUR_CLOCK, MONTH_GENERAL_NAMES, PRINCIPAL_TERM_OF
from texts.matters.recognise import GENERAL, MATTERS

from .errors import ReplyError
from .user_text import clip, escaped
from .words import LANGS, Lang, file_words, language_of, text
from .zones import parse_time, parse_zone, zone_suggestions

AUTOCOMPLETE_MAX = 25  # Discord's cap on suggestions
ZONE_MAX = 64  # the longest IANA name is 32 characters; anything past 64 is not a zone
PILLAR_NAMES = tuple(str(p) for p in PILLARS)

# 月将 as the books name them, with the 中気 that brings each (¶43), from the vocabulary.
YUEJIANG_CHOICES = [
    app_commands.Choice(name=f"{b} {MONTH_GENERAL_NAMES[b]}（{PRINCIPAL_TERM_OF[b]}〜）", value=str(b))
    for b in BRANCHES
]
# 時支 with its clock hours (子 23:00–00:59 …).
HOUR_CHOICES = [
    app_commands.Choice(name=f"{b}（{HOUR_CLOCK[b][0]}–{HOUR_CLOCK[b][1]}）", value=str(b)) for b in BRANCHES
]


def _clipped(value: str, limit: int = 40) -> str:
    """User input echoed in a reply, never longer than ``limit`` (Discord rejects long replies)."""
    return escaped(clip(" ".join(value.split()), limit))


class ZoneOption(app_commands.Transformer[Any]):
    """An IANA zone name, any case (``asia/tokyo``), through the project's one zone parser."""

    @property
    def max_length(self) -> int:
        return ZONE_MAX

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> ZoneInfo:
        try:
            return parse_zone(value)
        except ValueError:
            lang = language_of(interaction.locale)
            raise ReplyError(text(self.error_key, lang, **self.error_values(value))) from None

    error_key = "error.zone"

    def error_values(self, value: str) -> dict[str, str]:
        return {"zone": _clipped(value)}

    async def autocomplete(
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_suggestions(str(value)[:ZONE_MAX], AUTOCOMPLETE_MAX)]


class ServerZoneOption(ZoneOption):
    """A zone for a server's settings and schedules (its own wording of the refusal)."""

    error_key = "daily.bad_zone"

    def error_values(self, value: str) -> dict[str, str]:
        return {"value": clip(value, 80)}


def suggest(current: str, names: tuple[str, ...]) -> list[app_commands.Choice[int | float | str]]:
    """Names starting with ``current`` first, then names containing it; at most Discord's 25."""
    needle = current.strip()
    found = [n for n in names if n.startswith(needle)] + [n for n in names if needle in n and not n.startswith(needle)]
    return [app_commands.Choice(name=n, value=n) for n in found[:AUTOCOMPLETE_MAX]]


class PillarOption(app_commands.Transformer[Any]):
    """A day pillar such as 甲子 (one of the sixty)."""

    @property
    def max_length(self) -> int:
        return 8

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> Pillar:
        try:
            return Pillar.parse(value)
        except ValueError:
            raise ReplyError(text("error.pillar", language_of(interaction.locale), day=_clipped(value, 8))) from None

    async def autocomplete(
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        return suggest(str(value), PILLAR_NAMES)


class _BranchOption(app_commands.Transformer[Any]):
    """A branch offered as fixed choices (the value is the branch's character)."""

    offered: ClassVar[list[app_commands.Choice[str]]] = []

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]]:
        return [app_commands.Choice(name=c.name, value=c.value) for c in self.offered]

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> Branch:
        try:
            return parse_branch(value)
        except ValueError:
            # Discord sends only the offered choices: anything else is a client's fault, not the reader's.
            raise app_commands.TransformerError(value, self.type, self) from None


class YuejiangOption(_BranchOption):
    """月将, one of the twelve (offered with the 中気 that brings each)."""

    offered = YUEJIANG_CHOICES


class HourOption(_BranchOption):
    """時支, one of the twelve (offered with its clock hours)."""

    offered = HOUR_CHOICES


class TimeOption(app_commands.Transformer[Any]):
    """A wall-clock time of day, ``HH:MM``."""

    @property
    def max_length(self) -> int:
        return 20

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> time:
        try:
            return parse_time(value)
        except ValueError:
            raise ReplyError(text("daily.bad_time", language_of(interaction.locale), value=clip(value, 40))) from None


class ChannelOption(app_commands.Transformer[Any]):
    """A text/announcement channel option passed as its id, so the command checks it itself.

    discord.py's own channel transformer fails with a generic error when the channel is not in
    the cache; taking the id lets a command answer "cannot find that channel" instead.
    """

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        return int(value.id) if isinstance(value, discord.abc.Snowflake) else int(value)


def bounded(value: int, low: int, high: int, option: str, lang: Lang) -> int:
    """``value`` when within the range the option declares; a ReplyError naming the range otherwise
    (Discord's client keeps to it; a raw request need not)."""
    if not low <= value <= high:
        raise ReplyError(text("error.option_range", lang, option=option, min=low, max=high, value=value))
    return value


def guild_of(interaction: discord.Interaction[Any]) -> discord.Guild:
    """The interaction's server (guild-only commands; a stale cache is answered as a DM would be)."""
    if interaction.guild is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild


# -- the matter asked (/cast and /chart matter:) -----------------------------------------------

def _matter_choice(value: str, names: dict[Lang, str]) -> app_commands.Choice[int | float | str]:
    choice: app_commands.Choice[int | float | str] = app_commands.Choice(name=clip(names["en"], 100), value=value)
    choice.name_localizations = {locale: clip(names[lang], 100) for locale, lang in _MATTER_LOCALES}
    return choice


_MATTER_LOCALES: tuple[tuple[discord.Locale, Lang], ...] = (
    (discord.Locale.japanese, "ja"), (discord.Locale.taiwan_chinese, "zh-TW"), (discord.Locale.chinese, "zh-CN"),
)


def _matter_choices() -> list[app_commands.Choice[int | float | str]]:
    """The fifteen matters of docs/rules.md §9.2 in its order, named as texts' words name them, then
    "general": from the file that names the fifteen (matter.toml), so the start reads no language whole."""
    named = file_words("matter")
    return [
        *(_matter_choice(m.value, {lang: named[lang][f"term.Matter.{m.value}"] for lang in LANGS}) for m in MATTERS),
        _matter_choice(GENERAL, {lang: text("matter.general", lang) for lang in LANGS}),
    ]


MATTER_CHOICES = _matter_choices()


class MatterOption(app_commands.Transformer[Any]):
    """The matter a reading is for: one of the fifteen keys, or ``general`` (the general reading only).

    The parsed value is the key (a ``Matter`` value or ``GENERAL``), as a case stores it."""

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]]:
        return list(MATTER_CHOICES)

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> str:
        try:
            found = matter_texts.matter_named(value)  # a key, or the matter as a reply prints it
        except ValueError:
            # Discord sends only the offered choices: anything else is a client's fault, not the reader's.
            raise app_commands.TransformerError(value, self.type, self) from None
        return GENERAL if found is None else found.value

