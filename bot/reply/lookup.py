"""A look-up's reply (/lookup): the corpus units for a term, as embeds within Discord's limits."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.core.user_text import clip
from bot.core.words import Lang, text
from texts.corpus import Unit
from texts.corpus.shown import unit_lines

from .limits import TITLE_MAX, Draft, fill, pieces
from .matters import subject

__all__ = ["LOOKUP_MAX_UNITS", "build_lookup_embeds"]

LOOKUP_MAX_UNITS = 8  # more would flood a channel; the reply says how many were left out


def build_lookup_embeds(term: str, units: Sequence[Unit], lang: Lang = "ja") -> list[discord.Embed]:
    """The corpus units for ``term`` (each as ``texts.corpus.shown.unit_lines`` shows it) in ``lang``,
    within limits. At most ``LOOKUP_MAX_UNITS`` units are shown; the description says how many matched.
    """
    title = clip(text("embed.lookup_title", lang, term=term), TITLE_MAX)
    if not units:
        return [Draft(title, text("embed.lookup_none", lang, term=term), [], text("embed.source", lang)).embed()]
    shown = units[:LOOKUP_MAX_UNITS]
    description = text("embed.lookup_count", lang, shown=len(shown), total=len(units))
    fields = []
    for unit in shown:
        body = "\n".join(line.strip() for line in unit_lines(unit, lang))
        line = f"（¶{unit.lines[0]}）" if unit.lines else ""
        fields.append((f"{subject(unit)}{line}", body or "\u200b"))
    first = Draft(title, description, [], text("embed.source", lang))
    return [d.embed() for d in fill(first, pieces(fields, lang), lang)]
