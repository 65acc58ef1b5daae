"""The matter asked as embed fields: what texts.matters.sentences writes, laid out for Discord.

Pure: ``matter_fields`` turns the matter sections of a reply (texts.matters.values) into (name,
value) pairs in the order shown; bot.reply.chart splits them to Discord's field sizes and puts
them first, before the chart's fields and the general reading. A quotation's field holds the
classical original and what a reader of the language is shown under it
(``texts.corpus.shown.unit_lines``: the seed's Japanese; for English readers the project's English,
labelled, first); what the reading states sits in fields of its own, never under a quotation,
where it would read as the seed's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import texts.matters as matter_texts
from bot.core.words import Lang, text, word
from texts.corpus import Unit
from texts.corpus.shown import unit_lines

if TYPE_CHECKING:  # loaded with the first matter asked (texts.matters)
    from texts.matters.sentences import Item
    from texts.matters.values import MatterSection

__all__ = ["matter_fields", "subject"]


def subject(unit: Unit) -> str:
    """What a unit is about, from its id: ``general.騰蛇.未`` → ``騰蛇 臨 未``, ``method.比用`` → ``比用``."""
    kind, dot, rest = unit.id.partition(".")
    if not dot:
        return unit.id
    if kind == "general" and rest.count(".") == 1:
        return rest.replace(".", " 臨 ")
    return rest.replace(".", " ")


def _where(unit: Unit) -> str:
    return f"（¶{unit.lines[0]}）" if unit.lines else ""


def _small(said: Sequence[str]) -> str:
    return "".join(f"\n-# {s}" for s in said)


def _field(item: Item, heading: str, lang: Lang) -> tuple[str, str]:
    bullet = word("reading.bullet", lang)
    if item.quote is None:  # stated facts only: under the heading they belong to (or their role)
        return item.role or heading, "\n".join(f"{bullet}{s}" for s in item.said)
    unit = item.quote.unit
    name = f"{item.role} {subject(unit)}{_where(unit)}" if item.role else f"{subject(unit)}{_where(unit)}"
    if item.quote.above:  # quoted in an earlier field of this reply: referred back to, not quoted again
        return name, "\n".join(f"{bullet}{s}" for s in item.said)
    return name, "\n".join(unit_lines(unit, lang)) + _small(item.said)


def matter_fields(sections: Sequence[MatterSection], lang: Lang) -> list[tuple[str, str]]:
    """The sections' fields, the first named with the section's title; the heading of a recognised
    matter says the words that decided it and that ``matter:`` chooses another."""
    out: list[tuple[str, str]] = []
    for section in sections:
        heading = ""
        for item in matter_texts.items(section, lang):
            if item.heading is not None:
                heading = item.heading
                name = f"{word('matter.title', lang)} — {heading}" if not out else heading
                value = "\n".join(item.said)
                if item.level == 1 and section.words:
                    value += _small((text("embed.matter_hint", lang),))
                out.append((name, value))
                continue
            out.append(_field(item, heading, lang))
    return out
