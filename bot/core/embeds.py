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

import discord

from engine import Chart, School, Step
from engine.facts import Facts
from engine.terms import General
from texts import render as chart_text
from texts.corpus import Unit
from texts.corpus.shown import unit_lines
from texts.matters.recognise import Matter
from texts.matters.values import MatterSection, answer
from texts.memo import LRU, size_of
from texts.reading import Reading, Section, read
from texts.reading.sentences import notes, role_label, section_title
from texts.words.explain import chart_name, show
from texts.words.schools import school_line

from .matter_fields import matter_fields
from .matter_fields import subject as _subject
from .user_text import escaped
from .words import Lang, gloss, language_of, text, word

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000  # per message, summed over its embeds
EMBEDS_PER_MESSAGE = 10
ECHO_MAX = 40  # characters of user input repeated in a reply (echo)
FOOTER_ROOM = 40  # kept free in each embed for what is added to its footer later (" ・ 課 7K3QX2")
MOMENT_STAMP = "%Y-%m-%d %H:%M"  # the moment line's clock time (bot.core.replies rewrites it per minute)

COLOUR = discord.Colour(0x8B2E2E)  # 朱: the red of a seal


@dataclass(slots=True)
class _Draft:
    """An embed being filled; ``size`` counts what Discord counts toward the 6000 limit."""

    title: str
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    footer: str = ""
    _field_size: int = 0  # the fields' share of ``size``, kept as they are added

    @property
    def size(self) -> int:
        return len(self.title) + len(self.description) + len(self.footer) + self._field_size

    def room_for(self, name: str, value: str) -> bool:
        return len(self.fields) < FIELDS_MAX and self.size + len(name) + len(value) + FOOTER_ROOM <= EMBED_TOTAL_MAX

    def add(self, name: str, value: str) -> None:
        self.fields.append((name, value, False))
        self._field_size += len(name) + len(value)

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


def echo(value: str) -> str:
    """User input repeated in a reply: one line, at most 40 characters, no mention or markdown tricks."""
    flat = " ".join(value.split()).replace("@", "@\u200b").replace("`", "'")
    return escaped(clip(flat, ECHO_MAX))


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


def _title(chart: Chart, reading: Reading | None, lang: Lang) -> str:
    """課名 (texts.words.explain.chart_name) and the named patterns, in the reader's script; glossed in English."""
    t = chart.transmissions
    parts = {t.method.name, *(() if t.frame is None else (t.frame.name,))}
    held = reading.patterns.held if reading is not None else ()
    # An English title keeps the name as the seed writes it (伏吟・自信); the gloss after it is the English.
    name = chart_name(t, "ja" if lang == "en" else lang)
    names = [name, *[show(p.name, lang) for p in held if p.name.name not in parts]]
    if lang == "en":
        names = [gloss(n) for n in names]
    return clip(" ｜ ".join(names), TITLE_MAX)


def _moment_lines(chart: Chart, lang: Lang, zone_note: str | None) -> list[str]:
    # The labels in the reader's script (issue 19 item 2): 月將 in traditional, 时 in simplified, no ・ outside ja.
    generals, sep = chart.generals, text("embed.sep", lang)
    direction = word("noble.clockwise" if generals.clockwise else "noble.counter", lang)
    noble = (
        f"{text('embed.noble', lang)} {generals.noble}（"
        f"{text('embed.day' if generals.daytime else 'embed.night', lang)}{word('list.name_sep', lang)}{direction}）"
    )
    void = f"{text('embed.void', lang)} {''.join(map(str, chart.void))}"
    m = chart.moment
    if m is None:
        return [
            text("embed.classical", lang),
            text("embed.pillars_classical", lang, day=chart.day, hour=chart.hour, yuejiang=chart.yuejiang),
            f"{void}{sep}{noble}",
        ]
    zone = f"{m.zone}（{m.local.tzname()}）" if m.local.tzname() else m.zone
    if zone_note:
        zone = f"{zone} — {zone_note}"
    override = "" if chart.yuejiang == m.yuejiang else text("embed.override", lang, calendar=m.yuejiang)
    return [
        f"**{text('embed.moment', lang)}** {m.local:{MOMENT_STAMP}}",
        f"**{text('embed.zone', lang)}** {zone}",
        text("embed.pillars", lang, year=m.year, month=m.month, day=m.day, hour=m.hour, yuejiang=chart.yuejiang,
             override=override),
        f"{void}{sep}{noble}",
    ]


def _transmission_lines(chart: Chart, lang: Lang) -> str:
    rows = []
    for step in chart.steps:
        hidden = f"{text('embed.hidden', lang)} {step.hidden_stem}" if step.hidden_stem is not None else ""
        void = f" 〔{text('embed.void', lang)}〕" if step.void else ""
        parts = [
            f"{show(step.position, lang)} **{step.branch}**",
            show(step.general, lang),
            show(step.kin, lang),
            hidden,
        ]
        rows.append(text("embed.sep", lang).join(p for p in parts if p)
                    + f" （{text('embed.ground', lang)} {step.ground}）" + void)
    return "\n".join(rows)


def _code(block: str) -> str:
    return f"```\n{block}\n```"


# Put before an entry's field name when the seed's （不加…） excludes the branch (any language).
EXCLUDED_MARK = "⊘ "


Piece = tuple[str, str]  # a field as sent: its name and a value within FIELD_VALUE_MAX
# issue 21: by measured bytes (texts.memo.size_of of key and pieces; the chart's parts and facts are not theirs):
BUDGET, _SHARED = 2**20, (Step, School, Facts)  # each: ~100 readings' fields (8–12 KB), ~600 charts' (1–2 KB)
_FIELDS: LRU[tuple[object, ...], tuple[Piece, ...]] = LRU(BUDGET)  # readings' fields per language
_CHART_PIECES: LRU[tuple[object, ...], tuple[Piece, ...]] = LRU(BUDGET)


def _reading_pieces(reading: Reading | None, lang: Lang) -> list[Piece]:
    """The reading's fields, written and split once per reading and language (``reading.key``)."""
    if reading is None:
        return []
    if not reading.key:
        return _pieces(_write_fields(reading, lang), lang)
    key = (reading.key, lang)
    cached = _FIELDS.get(key)
    if cached is None:
        cached = tuple(_pieces(_write_fields(reading, lang), lang))
        _FIELDS.put(key, cached, size_of((key, cached), _SHARED))
    return list(cached)


def _write_fields(reading: Reading, lang: Lang) -> list[tuple[str, str]]:
    """(name, value) per entry, in the reading's (a teacher's) order: the original, then what a
    reader of ``lang`` is shown under it (``texts.corpus.shown.unit_lines``: the seed's Japanese; for
    English readers the project's English, labelled, first), then what the reading says with it as
    small lines. A stated fact with no line of the seed is said as such, never dressed as a quotation."""
    out: list[tuple[str, str]] = []
    current: Section | None = None
    for entry in reading.entries:
        label = role_label(entry, lang)
        if entry.section is not current:
            current = entry.section
            label = f"{section_title(current, lang)} — {label}"
        if entry.excluded:
            label = EXCLUDED_MARK + label
        said = "".join(f"\n-# {line}" for line in notes(entry, lang))
        unit = entry.unit
        if unit is None:
            out.append((label, said.removeprefix("\n") or text("embed.no_line", lang)))
            continue
        where = f"（¶{unit.lines[0]}）" if unit.lines else ""
        body = "\n".join(line.strip() for line in unit_lines(unit, lang))
        out.append((f"{label} {_subject(unit)}{where}", body + said))
    return out


@dataclass(frozen=True, slots=True)
class ChartReply:
    """A chart's reply: its embeds, the 類神 read (the picture marks their cells), each embed's len if known."""

    embeds: list[discord.Embed]
    spirits: frozenset[General] = frozenset()
    sizes: tuple[int, ...] = ()  # len(embed) as handed out (issue 21: it walks every field)


def chart_reply(
    chart: Chart,
    *,
    locale: str = "ja",
    question: str | None = None,
    matter: str | Matter | None = None,
    zone_note: str | None = None,
    known: Facts | None = None,
) -> ChartReply:
    """What /cast, /chart and /case show send: the matters the question names (or ``matter``: a key,
    or ``general`` for none, overriding recognition; texts.matters.values.answer) first, then the
    general reading, which refers back to a line the matters quoted instead of quoting it again."""
    if question or matter is not None:
        reply = answer(chart, known, question=question, matter=matter)
        sections, reading = reply.matters, reply.reading
    else:
        sections, reading = (), read(chart, known)
    embeds = build_embeds(chart, reading, locale=locale, question=question, zone_note=zone_note, matters=sections,
                          unread=bool(question) and matter is None and not sections)
    return ChartReply(embeds, frozenset(s.general for m in sections for s in m.spirits))


def chart_embeds(chart: Chart, *, locale: str = "ja", question: str | None = None, zone_note: str | None = None,
                 known: Facts | None = None) -> list[discord.Embed]:
    """What the daily post sends: the chart and its general reading (``texts.reading.read``)."""
    return chart_reply(chart, locale=locale, question=question, zone_note=zone_note, known=known).embeds


def build_embeds(
    chart: Chart,
    reading: Reading | None,
    *,
    locale: str = "ja",
    question: str | None = None,
    zone_note: str | None = None,
    matters: Sequence[MatterSection] = (),
    unread: bool = False,
) -> list[discord.Embed]:
    """The chart and its reading as embeds, each within Discord's limits.

    ``locale`` is a Discord locale (``interaction.locale``); ``zone_note`` says where the zone came
    from (e.g. the server's setting). ``matters`` (issue 18) come first after the chart's header;
    ``unread`` says that the question named no matter. The embeds together may exceed one
    message's 6000 characters: send them with ``group_messages``.
    """
    lang = language_of(locale)
    title = _title(chart, reading, lang)
    footer = text("embed.source", lang)
    description_lines = []
    if question:
        description_lines.append(f"**{text('embed.question', lang)}** {escaped(question.strip())}")
    description_lines.extend(_moment_lines(chart, lang, zone_note))
    if (school := school_line(chart.school, lang)) is not None:  # issue 19: the non-default options, named
        description_lines.append(school)
    if unread:
        description_lines.append(f"-# {text('embed.matter_none', lang)}")
    note = text("embed.translation_note", lang)
    if note and reading is not None and reading.entries:
        description_lines.append(f"-# {note}")
    description = "\n".join(description_lines)
    first = _Draft(title, "", [], footer)
    extra: list[tuple[str, str]] = []
    if len(description) > DESCRIPTION_MAX:
        # Only a giant question can do this: keep the chart facts, continue the rest in fields.
        parts = split_lines(description, DESCRIPTION_MAX, text("embed.cut", lang))
        description, rest = parts[0], parts[1:]
        extra = [(text("embed.question", lang), p) for p in rest]
    first.description = description
    pieces = [
        *_pieces(extra, lang),
        *_pieces(matter_fields(matters, lang), lang),  # issue 18: the matter asked, first
        *_chart_pieces(chart, title.split(" ｜ ")[0], lang),
        *_reading_pieces(reading, lang),
    ]
    return [d.embed() for d in _fill(first, pieces, lang)]


def _chart_pieces(chart: Chart, name: str, lang: Lang) -> tuple[Piece, ...]:
    """四課, 三伝 and 天地盤: they depend only on the classical inputs, so each is written once."""
    key = (chart.day, chart.yuejiang, chart.hour, chart.school, chart.steps, name, lang)
    found = _CHART_PIECES.get(key)
    if found is None:
        fields = [
            (text("embed.lessons", lang), _code(chart_text.lessons(chart, lang))),
            (f"{text('embed.transmissions', lang)} — {name}", _transmission_lines(chart, lang)),
            (text("embed.plate", lang), _code(chart_text.ring(chart, lang))),
        ]
        found = tuple(_pieces(fields, lang))
        _CHART_PIECES.put(key, found, size_of((key, found), _SHARED))
    return found


def _pieces(fields: Iterable[tuple[str, str]], lang: Lang) -> list[Piece]:
    """Fields split to Discord's field size: a long value goes on in fields marked as continued."""
    continued = text("embed.continued", lang)
    mark = text("embed.cut", lang)
    out: list[Piece] = []
    for name, value in fields:
        for index, piece in enumerate(split_lines(value, FIELD_VALUE_MAX, mark)):
            label = name if index == 0 else f"{name} {continued}"
            out.append((clip(label, FIELD_NAME_MAX), piece or "\u200b"))
    return out


def _fill(first: _Draft, pieces: Iterable[Piece], lang: Lang) -> list[_Draft]:
    """Place the pieces in order, opening continuation embeds as needed."""
    drafts = [first]
    continued = text("embed.continued", lang)
    for label, piece in pieces:
        if not drafts[-1].room_for(label, piece):
            drafts.append(_Draft(clip(f"{first.title} {continued}", TITLE_MAX), "", [], first.footer))
        drafts[-1].add(label, piece)
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


LOOKUP_MAX_UNITS = 8  # more would flood a channel; the reply says how many were left out


def build_lookup_embeds(term: str, units: Sequence[Unit], lang: Lang = "ja") -> list[discord.Embed]:
    """The corpus units for ``term`` (each as ``texts.corpus.shown.unit_lines`` shows it) in ``lang``,
    within limits. At most ``LOOKUP_MAX_UNITS`` units are shown; the description says how many matched.
    """
    title = clip(text("embed.lookup_title", lang, term=term), TITLE_MAX)
    if not units:
        return [_Draft(title, text("embed.lookup_none", lang, term=term), [], text("embed.source", lang)).embed()]
    shown = units[:LOOKUP_MAX_UNITS]
    description = text("embed.lookup_count", lang, shown=len(shown), total=len(units))
    fields = []
    for unit in shown:
        body = "\n".join(line.strip() for line in unit_lines(unit, lang))
        line = f"（¶{unit.lines[0]}）" if unit.lines else ""
        fields.append((f"{_subject(unit)}{line}", body or "\u200b"))
    first = _Draft(title, description, [], text("embed.source", lang))
    return [d.embed() for d in _fill(first, _pieces(fields, lang), lang)]
