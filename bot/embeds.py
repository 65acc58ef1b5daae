"""A chart and its reading as Discord embeds, within every Discord limit.

``build_embeds`` is pure (no Discord connection): it returns embeds that each respect Discord's
per-embed limits; ``group_messages`` then packs them into messages that respect the per-message
ones. discord.py enforces none of these, so the builder does. Text never disappears silently: a
field too long is continued in the next field (split between lines), a line longer than a whole
field is split with a visible "continues" mark, and fields beyond one embed go on in the next.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import discord

from engine import Chart
from engine import render as chart_text
from engine.patterns import detect
from texts.reading import reading

from .i18n import TEXTS, Lang, gloss, language_of, shows_translation, text

POSITIONS = ("初伝", "中伝", "末伝")

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000  # per message, summed over its embeds
EMBEDS_PER_MESSAGE = 10

COLOUR = discord.Colour(0x8B2E2E)  # 朱: the red of a seal


class UnitLike(Protocol):
    """What the builder reads of a corpus unit (``texts.Unit``)."""

    @property
    def id(self) -> str: ...
    @property
    def original(self) -> str: ...
    @property
    def translation(self) -> str: ...
    @property
    def lines(self) -> tuple[int, ...]: ...  # seed line numbers, the original's first


class EntryLike(Protocol):
    """What the builder reads of a reading entry (``texts.reading.Entry``)."""

    @property
    def role(self) -> str: ...
    @property
    def unit(self) -> UnitLike | None: ...
    @property
    def note(self) -> str: ...  # why the entry is there, in Japanese
    @property
    def note_en(self) -> str: ...  # the same in English
    @property
    def excluded(self) -> bool: ...  # the general's opening withholds its sense on this 地盤 branch


class ReadingLike(Protocol):
    """``texts.reading.Reading``: the entries matched to a chart, in reading order."""

    @property
    def entries(self) -> Sequence[EntryLike]: ...


@dataclass(slots=True)
class _Draft:
    """An embed being filled; ``size`` counts what Discord counts toward the 6000 limit."""

    title: str
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    footer: str = ""

    @property
    def size(self) -> int:
        return (len(self.title) + len(self.description) + len(self.footer)
                + sum(len(n) + len(v) for n, v, _ in self.fields))

    def room_for(self, name: str, value: str) -> bool:
        return len(self.fields) < FIELDS_MAX and self.size + len(name) + len(value) <= EMBED_TOTAL_MAX

    def embed(self) -> discord.Embed:
        out = discord.Embed(title=self.title, description=self.description or None, colour=COLOUR)
        for name, value, inline in self.fields:
            out.add_field(name=name, value=value, inline=inline)
        if self.footer:
            out.set_footer(text=self.footer)
        return out


def clip(value: str, limit: int, mark: str = "…") -> str:
    """``value`` cut to ``limit`` characters, ending with a visible ``mark`` when it was cut."""
    if len(value) <= limit:
        return value
    return value[: max(0, limit - len(mark))] + mark


def split_lines(value: str, limit: int, mark: str) -> list[str]:
    """``value`` in pieces of at most ``limit`` characters, split between lines.

    A single line longer than ``limit`` is split inside the line, each cut piece ending with
    ``mark`` so a reader sees that it continues. Joining the pieces (dropping the marks and
    putting back the newlines at the line breaks) gives ``value`` back.
    """
    if limit <= len(mark):
        raise ValueError("limit must leave room for the continuation mark")
    pieces: list[str] = []
    current = ""
    for line in value.split("\n"):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            cut = limit - len(mark)
            pieces.append(line[:cut] + mark)
            line = line[cut:]
        candidate = line if not current else f"{current}\n{line}"
        if len(candidate) <= limit:
            current = candidate
        else:
            pieces.append(current)
            current = line
    if current or not pieces:
        pieces.append(current)
    return pieces


def _title(chart: Chart, patterns: Sequence[str], lang: Lang) -> str:
    """課名 (method and its frame) and the named patterns, glossed for English readers."""
    name = chart.transmissions.name
    names = [name, *[p for p in patterns if p not in name.split("・")]]
    if lang == "en":
        names = [gloss(n) for n in names]
    return clip(" ｜ ".join(names), TITLE_MAX)


def _moment_lines(chart: Chart, lang: Lang, zone_note: str | None) -> list[str]:
    generals = chart.generals
    noble = (f"{text('embed.noble', lang)} {generals.noble}（"
             f"{text('embed.day' if generals.daytime else 'embed.night', lang)}・"
             f"{'順' if generals.clockwise else '逆'}）")
    void = f"{text('embed.void', lang)} {''.join(map(str, chart.void))}"
    m = chart.moment
    if m is None:
        return [
            text("embed.classical", lang),
            f"日 **{chart.day}** ・ 時 **{chart.hour}** ・ 月将 **{chart.yuejiang}**",
            f"{void} ・ {noble}",
        ]
    zone = f"{m.zone}（{m.local.tzname()}）" if m.local.tzname() else m.zone
    if zone_note:
        zone = f"{zone} — {zone_note}"
    override = "" if chart.yuejiang == m.yuejiang else f"（暦 {m.yuejiang}）"
    return [
        f"**{text('embed.moment', lang)}** {m.local:%Y-%m-%d %H:%M}",
        f"**{text('embed.zone', lang)}** {zone}",
        f"年 {m.year} ・ 月 {m.month} ・ 日 **{m.day}** ・ 時 **{m.hour}** ・ 月将 **{chart.yuejiang}**{override}",
        f"{void} ・ {noble}",
    ]


def _transmission_lines(chart: Chart, lang: Lang) -> str:
    rows = []
    for step in chart.steps:
        hidden = f"{text('embed.hidden', lang)} {step.hidden_stem}" if step.hidden_stem is not None else ""
        void = f" 〔{text('embed.void', lang)}〕" if step.void else ""
        parts = [f"{step.position} **{step.branch}**", step.general, step.kin, hidden,
                 f"（{text('embed.ground', lang)} {step.ground}）"]
        rows.append(" ・ ".join(p for p in parts[:-1] if p) + " " + parts[-1] + void)
    return "\n".join(rows)


def _code(block: str) -> str:
    return f"```\n{block}\n```"


def _subject(unit: UnitLike) -> str:
    """What a unit is about, from its id: ``general.騰蛇.未`` → ``騰蛇 臨 未``, ``method.比用`` → ``比用``."""
    parts = unit.id.split(".")[1:] or [unit.id]
    if len(parts) == 2 and unit.id.startswith("general."):
        return f"{parts[0]} 臨 {parts[1]}"
    return " ".join(parts)


def role_label(role: str, lang: Lang) -> str:
    """A reading entry's role (``method``, ``pattern``, ``初伝 general`` …) in the reader's language."""
    words = role.split()
    if len(words) == 2 and words[0] in POSITIONS:
        position = text(f"embed.position.{POSITIONS.index(words[0])}", lang)
        kind = text(f"embed.role.{words[1]}", lang) if f"embed.role.{words[1]}" in TEXTS else words[1]
        return f"{position} {kind}"
    return text(f"embed.role.{role}", lang) if f"embed.role.{role}" in TEXTS else role


# Put before an entry's field name when the seed's （不加…） excludes the branch (any language).
EXCLUDED_MARK = "⊘ "


def _note(entry: EntryLike, lang: Lang) -> str:
    """The entry's note as a small line for ja/en readers; Chinese readers get none (the notes are
    written in Japanese and English only)."""
    note = {"ja": entry.note, "en": entry.note_en}.get(lang, "")
    return f"\n-# {note}" if note else ""


def _reading_fields(reading: ReadingLike | None, lang: Lang) -> list[tuple[str, str]]:
    """(name, value) per entry: the original, then (ja/en) the corpus's translation under it.

    Only the corpus's own text is quoted. The entry's note (why it is there) follows as a small
    line in Japanese or English; an entry whose branch the seed excludes is marked in its name.
    """
    if reading is None:
        return []
    out: list[tuple[str, str]] = []
    for entry in reading.entries:
        label = role_label(entry.role, lang)
        if entry.excluded:
            label = EXCLUDED_MARK + label
        unit = entry.unit
        note = _note(entry, lang)
        if unit is None:
            out.append((label, text("embed.no_line", lang) + note))
            continue
        line = f"（¶{unit.lines[0]}）" if unit.lines else ""
        body = unit.original.strip()
        if shows_translation(lang) and unit.translation.strip():
            body = f"{body}\n{unit.translation.strip()}"
        out.append((f"{label} {_subject(unit)}{line}", body + note))
    return out


def pattern_names(chart: Chart) -> tuple[str, ...]:
    """Names of the chart's named patterns (課体) the engine finds, in RULES §7 order."""
    return tuple(p.name for p in detect(chart))


def chart_embeds(
    chart: Chart, *, locale: str = "ja", question: str | None = None, zone_note: str | None = None
) -> list[discord.Embed]:
    """What /cast, /chart and the daily post send: the chart, its 課体 and its reading as embeds.

    The reading gets the engine's patterns with their reasons, so each 課体 line says why it holds.
    """
    found = detect(chart)
    return build_embeds(chart, reading(chart, found), locale=locale, question=question,
                        patterns=tuple(p.name for p in found), zone_note=zone_note)


def build_embeds(
    chart: Chart,
    reading: ReadingLike | None,
    *,
    locale: str = "ja",
    question: str | None = None,
    patterns: Sequence[str] | None = None,
    zone_note: str | None = None,
) -> list[discord.Embed]:
    """The chart and its reading as embeds, each within Discord's limits.

    ``locale`` is a Discord locale (``interaction.locale``); ``patterns`` defaults to what the
    engine detects; ``zone_note`` says where the zone came from (e.g. the server's setting). The
    embeds together may exceed one message's 6000 characters: send them with ``group_messages``.
    """
    lang = language_of(locale)
    names = tuple(patterns) if patterns is not None else pattern_names(chart)
    title = _title(chart, names, lang)
    footer = text("embed.source", lang)
    description_lines = []
    if question:
        description_lines.append(f"**{text('embed.question', lang)}** {question.strip()}")
    description_lines.extend(_moment_lines(chart, lang, zone_note))
    note = text("embed.translation_note", lang)
    if note and reading is not None and reading.entries:
        description_lines.append(f"-# {note}")
    description = "\n".join(description_lines)
    first = _Draft(title, "", [], footer)
    extra: list[tuple[str, str]] = []
    if len(description) > DESCRIPTION_MAX:
        # Only a giant question can do this: keep the chart facts, continue the rest in fields.
        pieces = split_lines(description, DESCRIPTION_MAX, text("embed.cut", lang))
        description, rest = pieces[0], pieces[1:]
        extra = [(text("embed.question", lang), p) for p in rest]
    first.description = description
    chart_fields = [
        (text("embed.lessons", lang), _code(chart_text.lessons(chart))),
        (f"{text('embed.transmissions', lang)} — {title.split(' ｜ ')[0]}", _transmission_lines(chart, lang)),
        (text("embed.plate", lang), _code(chart_text.ring(chart))),
    ]
    return [d.embed() for d in _fill(first, [*extra, *chart_fields, *_reading_fields(reading, lang)], lang)]


def _fill(first: _Draft, fields: Iterable[tuple[str, str]], lang: Lang) -> list[_Draft]:
    """Place fields in order, splitting long values and opening continuation embeds as needed."""
    drafts = [first]
    continued = text("embed.continued", lang)
    mark = text("embed.cut", lang)
    for name, value in fields:
        pieces = split_lines(value, FIELD_VALUE_MAX, mark)
        for index, piece in enumerate(pieces):
            label = name if index == 0 else f"{name} {continued}"
            label = clip(label, FIELD_NAME_MAX)
            if not drafts[-1].room_for(label, piece):
                drafts.append(_Draft(clip(f"{first.title} {continued}", TITLE_MAX), "", [], first.footer))
            drafts[-1].fields.append((label, piece or "\u200b", False))
    return drafts


def group_messages(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Embeds packed in order into messages of at most 10 embeds and 6000 characters each."""
    messages: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if len(embed) > EMBED_TOTAL_MAX:
            raise ValueError(f"an embed of {len(embed)} characters cannot be sent; build it with build_embeds")
        if not messages or len(messages[-1]) >= EMBEDS_PER_MESSAGE or size + len(embed) > EMBED_TOTAL_MAX:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages


LOOKUP_MAX_UNITS = 8  # more would flood a channel; the reply says how many were left out


def build_lookup_embeds(term: str, units: Sequence[UnitLike], *, locale: str = "ja") -> list[discord.Embed]:
    """The corpus units for ``term`` (original, and for ja/en the corpus's translation), within limits.

    At most ``LOOKUP_MAX_UNITS`` units are shown; the description says how many matched.
    """
    lang = language_of(locale)
    title = clip(text("embed.lookup_title", lang, term=term), TITLE_MAX)
    if not units:
        return [_Draft(title, text("embed.lookup_none", lang, term=term), [], text("embed.source", lang)).embed()]
    shown = units[:LOOKUP_MAX_UNITS]
    description = text("embed.lookup_count", lang, shown=len(shown), total=len(units))
    fields = []
    for unit in shown:
        body = unit.original.strip()
        if shows_translation(lang) and unit.translation.strip():
            body = f"{body}\n{unit.translation.strip()}"
        line = f"（¶{unit.lines[0]}）" if unit.lines else ""
        fields.append((f"{_subject(unit)}{line}", body or "\u200b"))
    first = _Draft(title, description, [], text("embed.source", lang))
    return [d.embed() for d in _fill(first, fields, lang)]
