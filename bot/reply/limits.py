"""Embeds within every Discord limit: fields split to Discord's sizes, placed in embeds, the embeds
packed into messages.

discord.py enforces none of these limits, so the builder does. Text never disappears silently: a
field too long is continued in the next field (split between lines), a line longer than a whole
field is split with a visible "continues" mark, and fields beyond one embed go on in the next.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.core.user_text import clip
from bot.core.words import Lang, text

__all__ = [
    "DESCRIPTION_MAX", "EMBEDS_PER_MESSAGE", "EMBED_TOTAL_MAX", "FIELDS_MAX", "FIELD_NAME_MAX", "FIELD_VALUE_MAX",
    "FOOTER_MAX", "TITLE_MAX", "Draft", "Piece", "fill", "group_messages", "pieces", "split_lines",
]

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000  # per message, summed over its embeds
EMBEDS_PER_MESSAGE = 10
FROM_DICT_FIELDS = 12  # from this many fields an embed is made from its dict (Draft.embed)
FOOTER_ROOM = 40  # kept free in each embed for what is added to its footer later (" ・ 課 7K3QX2")

COLOUR = discord.Colour(0x8B2E2E)  # 朱: the red of a seal

Piece = tuple[str, str]  # a field as sent: its name and a value within FIELD_VALUE_MAX


@dataclass(slots=True)
class Draft:
    """An embed being filled; ``size`` counts what Discord counts toward the 6000 limit."""

    title: str
    description: str = ""
    fields: list[Piece] = field(default_factory=list)  # each shown full width (not inline)
    footer: str = ""

    @property
    def size(self) -> int:
        return (len(self.title) + len(self.description) + len(self.footer)
                + sum(len(name) + len(value) for name, value in self.fields))

    def embed(self) -> discord.Embed:
        """The embed, made from its dict in one call (``Embed.from_dict``) when it has many fields;
        from_dict looks for five keys an embed here never has, an exception each, which costs more
        than ``add_field`` for a few fields (about a dozen breaks even)."""
        if len(self.fields) < FROM_DICT_FIELDS:
            out = discord.Embed(title=self.title, description=self.description or None, colour=COLOUR)
            for name, value in self.fields:
                out.add_field(name=name, value=value, inline=False)
            if self.footer:
                out.set_footer(text=self.footer)
            return out
        data: dict[str, Any] = {"type": "rich", "title": self.title, "color": COLOUR.value,
                                "fields": [{"inline": False, "name": n, "value": v} for n, v in self.fields]}
        if self.description:
            data["description"] = self.description
        if self.footer:
            data["footer"] = {"text": self.footer}
        return discord.Embed.from_dict(data)


def split_lines(value: str, limit: int, mark: str) -> list[str]:
    """``value`` in pieces of at most ``limit`` characters, split between lines.

    A single line longer than ``limit`` is split inside the line, each cut piece ending with
    ``mark`` so a reader sees that it continues. Joining the pieces (dropping the marks and
    putting back the newlines at the line breaks) gives ``value`` back.
    """
    if limit <= len(mark):
        raise ValueError("limit must leave room for the continuation mark")
    if len(value) <= limit:
        return [value]  # what the walk below gives a value that fits (most fields): one piece
    out: list[str] = []
    current = ""
    for line in value.split("\n"):
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            cut = limit - len(mark)
            out.append(line[:cut] + mark)
            line = line[cut:]
        candidate = line if not current else f"{current}\n{line}"
        if len(candidate) <= limit:
            current = candidate
        else:
            out.append(current)
            current = line
    if current or not out:
        out.append(current)
    return out


def pieces(fields: Iterable[tuple[str, str]], lang: Lang) -> list[Piece]:
    """Fields split to Discord's field size: a long value goes on in fields marked as continued."""
    out: list[Piece] = []
    for name, value in fields:
        if len(value) <= FIELD_VALUE_MAX:  # most fields: one piece, as split_lines gives it
            out.append((name if len(name) <= FIELD_NAME_MAX else clip(name, FIELD_NAME_MAX), value or "\u200b"))
            continue
        continued = text("embed.continued", lang)
        for index, piece in enumerate(split_lines(value, FIELD_VALUE_MAX, text("embed.cut", lang))):
            label = name if index == 0 else f"{name} {continued}"
            out.append((clip(label, FIELD_NAME_MAX), piece or "\u200b"))
    return out


def fill(first: Draft, placed: Iterable[Piece], lang: Lang) -> list[Draft]:
    """Place the pieces in order after ``first``'s description, opening continuation embeds as needed."""
    drafts = [first]
    fields = first.fields
    # What the open draft still takes: its characters (keeping FOOTER_ROOM free) and fields.
    room, free = EMBED_TOTAL_MAX - FOOTER_ROOM - first.size, FIELDS_MAX - len(fields)
    for piece in placed:
        grow = len(piece[0]) + len(piece[1])
        if not free or grow > room:
            draft = Draft(clip(f"{first.title} {text('embed.continued', lang)}", TITLE_MAX), "", [], first.footer)
            drafts.append(draft)
            fields = draft.fields
            room, free = EMBED_TOTAL_MAX - FOOTER_ROOM - draft.size, FIELDS_MAX
        fields.append(piece)
        room -= grow
        free -= 1
    return drafts


def group_messages(embeds: Sequence[discord.Embed], sizes: Sequence[int] = ()) -> list[list[discord.Embed]]:
    """Embeds packed in order into messages of at most 10 embeds and 6000 characters each (``sizes``:
    their lengths, when the caller knows them; ``len(embed)`` walks every field)."""
    if sizes and len(sizes) != len(embeds):
        raise ValueError(f"{len(sizes)} sizes for {len(embeds)} embeds")
    messages: list[list[discord.Embed]] = []
    size = 0
    for at, embed in enumerate(embeds):
        length = sizes[at] if sizes else len(embed)
        if length > EMBED_TOTAL_MAX:
            raise ValueError(f"an embed of {length} characters cannot be sent; build it with build_embeds")
        if not messages or len(messages[-1]) >= EMBEDS_PER_MESSAGE or size + length > EMBED_TOTAL_MAX:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += length
    return messages
