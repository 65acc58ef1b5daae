"""Command options parsed at the boundary, once: a zone, a day pillar, a branch (discord.py Transformers).

Each transformer turns the raw option text into a typed value (or a ``ReplyError`` the user can act
on, in their language) and offers autocomplete, so command bodies only ever see parsed values.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from engine.calendar import CalendarError, zone, zone_names
from engine.symbols import BRANCHES, PILLARS, Pillar
from engine.terms import HOUR_CLOCK, MONTH_GENERAL_NAMES, PRINCIPAL_TERM_OF

from .app import ReplyError
from .embeds import clip
from .i18n import language_of, text

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
    return clip(" ".join(value.split()), limit)


class ZoneOption(app_commands.Transformer[Any]):
    """An IANA zone name, any case (``asia/tokyo``), through the project's one zone parser."""

    @property
    def max_length(self) -> int:
        return ZONE_MAX

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> str:
        try:
            return zone(value).key
        except CalendarError:
            raise ReplyError(text("error.zone", language_of(interaction.locale), zone=_clipped(value))) from None

    async def autocomplete(
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_names(str(value)[:ZONE_MAX], AUTOCOMPLETE_MAX)]


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
