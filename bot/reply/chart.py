"""A chart and its reading as Discord embeds (what /cast, /chart, /case show and the daily post send):
the header, the matter asked, 四課, 三伝 and 天地盤, then the reading, placed by ``limits``.

``build_embeds`` is pure (no Discord connection); ``group_messages`` packs its embeds into messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

import texts.matters as matter_texts
from bot.core.user_text import clip, escaped
from bot.core.words import Lang, gloss, language_of, text, word
from engine import Chart, School, Step
from engine.calendar import Moment
from engine.facts import Facts
from engine.terms import General
from texts import render as chart_text
from texts.alternatives import summary_line, sun_lines
from texts.corpus.shown import unit_lines
from texts.matters.recognise import Matter
from texts.memo import LRU, Hashed, Sampled, last_one
from texts.reading import Reading, Section, read
from texts.reading.sentences import notes, role_label, section_title
from texts.words.explain import chart_name, show
from texts.words.schools import school_line

from .limits import DESCRIPTION_MAX, TITLE_MAX, Draft, Piece, fill, pieces, split_lines
from .matters import matter_fields, subject

if TYPE_CHECKING:  # loaded with the first matter asked (texts.matters)
    from texts.matters.values import Answer, MatterSection

__all__ = ["EXCLUDED_MARK", "MOMENT_STAMP", "ChartReply", "build_embeds", "chart_embeds", "chart_reply"]

MOMENT_STAMP = "%Y-%m-%d %H:%M"  # the moment line's clock time (bot.reply.kept rewrites it per minute)


@last_one  # the charts of one moment share it (engine.cast): once for a reply's moment line and its kept key
def clock_of(m: Moment) -> str:
    """The moment line's clock time, as the line writes it (``MOMENT_STAMP``)."""
    return format(m.local, MOMENT_STAMP)


def _title(chart: Chart, reading: Reading | None, lang: Lang) -> str:
    """課名 (texts.words.explain.chart_name) and the named patterns, in the reader's script; glossed in English."""
    t = chart.transmissions
    parts = {t.method._name_, *(() if t.frame is None else (t.frame._name_,))}  # _name_: .name is a property
    held = reading.patterns.held if reading is not None else ()
    # An English title keeps the name as the seed writes it (伏吟・自信); the gloss after it is the English.
    name = chart_name(t, "ja" if lang == "en" else lang)
    names = [name, *[show(p.name, lang) for p in held if p.name._name_ not in parts]]
    if lang == "en":
        names = [gloss(n) for n in names]
    return clip(" ｜ ".join(names), TITLE_MAX)


def _moment_lines(chart: Chart, lang: Lang, zone_note: str | None) -> list[str]:
    # The labels in the reader's script: 月將 in traditional, 时 in simplified, no ・ outside ja.
    generals, sep = chart.generals, text("embed.sep", lang)
    direction = word("noble.clockwise" if generals.clockwise else "noble.counter", lang)
    # _name_: a branch's str (Enum's format and str are Python calls each)
    noble = (
        f"{text('embed.noble', lang)} {generals.noble._name_}（"
        f"{text('embed.day' if generals.daytime else 'embed.night', lang)}{word('list.name_sep', lang)}{direction}）"
    )
    first, second = chart.void
    void = f"{text('embed.void', lang)} {first._name_}{second._name_}"
    m = chart.moment
    if m is None:
        return [
            text("embed.classical", lang),
            text("embed.pillars_classical", lang, day=chart.day, hour=chart.hour, yuejiang=chart.yuejiang),
            f"{void}{sep}{noble}",
        ]
    abbreviation = m.local.tzname()
    zone = f"{m.zone}（{abbreviation}）" if abbreviation else m.zone
    if zone_note:
        zone = f"{zone} — {zone_note}"
    override = "" if chart.yuejiang == m.yuejiang else text("embed.override", lang, calendar=m.yuejiang)
    return [
        f"**{text('embed.moment', lang)}** {clock_of(m)}",
        f"**{text('embed.zone', lang)}** {zone}",
        text("embed.pillars", lang, year=m.year, month=m.month, day=m.day, hour=m.hour, yuejiang=chart.yuejiang,
             override=override),
        f"{void}{sep}{noble}",
    ]


def _transmission_lines(chart: Chart, lang: Lang) -> str:
    # The words each row repeats, looked up once for the three rows.
    sep, hidden, ground = text("embed.sep", lang), text("embed.hidden", lang), text("embed.ground", lang)
    void = f" 〔{text('embed.void', lang)}〕"
    rows = []
    for step in chart.steps:  # _name_: a branch's or stem's str, without Enum's format
        parts = [f"{show(step.position, lang)} **{step.branch._name_}**", show(step.general, lang),
                 show(step.kin, lang)]
        if step.hidden_stem is not None:
            parts.append(f"{hidden} {step.hidden_stem._name_}")
        rows.append(f"{sep.join(filter(None, parts))} （{ground} {step.ground._name_}）{void if step.void else ''}")
    return "\n".join(rows)


def _code(block: str) -> str:
    return f"```\n{block}\n```"


# Put before an entry's field name when the seed's （不加…） excludes the branch (any language).
EXCLUDED_MARK = "⊘ "


# By measured bytes (texts.memo.size_of of key and pieces; the chart's parts and facts are not theirs),
# on a sample of the entries, which are much alike (texts.memo.Sampled: an eighth measured):
BUDGET, _SHARED = 2**20, (Step, School, Facts)  # each: ~100 readings' fields (8–12 KB), ~600 charts' (1–2 KB)
_FIELDS: LRU[tuple[object, ...], tuple[Piece, ...]] = LRU(BUDGET)  # readings' fields per language
_CHART_PIECES: LRU[tuple[object, ...], tuple[Piece, ...]] = LRU(BUDGET)
_WEIGH_FIELDS, _WEIGH_PIECES = Sampled(_SHARED), Sampled(_SHARED)


def _reading_pieces(reading: Reading | None, lang: Lang) -> tuple[Piece, ...]:
    """The reading's fields, written and split once per reading and language (``reading.key``)."""
    if reading is None:
        return ()
    if not reading.key:
        return _write_fields(reading, lang)
    key = (reading.key, lang)
    cached = _FIELDS.get(key)
    if cached is None:
        cached = _write_fields(reading, lang)
        _FIELDS.put(key, cached, _WEIGH_FIELDS((key, cached)))
    return cached


def _write_fields(reading: Reading, lang: Lang) -> tuple[Piece, ...]:
    """A field per entry, in the reading's (a teacher's) order, split to Discord's field size
    (``limits.pieces``): the original, then what a reader of ``lang`` is shown under it
    (``texts.corpus.shown.unit_lines``: the seed's Japanese; for English readers the project's
    English, labelled, first), then what the reading says with it as small lines. A stated fact with
    no line of the seed is said as such, never dressed as a quotation."""
    out: list[tuple[str, str]] = []
    append = out.append
    no_line = text("embed.no_line", lang)
    current: Section | None = None
    for entry in reading.entries:
        label = role_label(entry, lang)
        if entry.section is not current:
            current = entry.section
            label = f"{section_title(current, lang)} — {label}"
        if entry.excluded:
            label = EXCLUDED_MARK + label
        said = notes(entry, lang)  # each a small line: "-# " on a line of its own
        small = "-# " + "\n-# ".join(said) if said else ""
        unit = entry.unit
        if unit is None:
            append((label, small or no_line))
            continue
        where = f"（¶{unit.lines[0]}）" if unit.lines else ""
        body = "\n".join(map(str.strip, unit_lines(unit, lang)))
        append((f"{label} {subject(unit)}{where}", f"{body}\n{small}" if small else body))
    return tuple(pieces(out, lang))


@dataclass(frozen=True, slots=True)
class ChartReply:
    """A chart's reply: its embeds, the 類神 read (the picture marks their cells), each embed's len if known."""

    embeds: list[discord.Embed]
    spirits: frozenset[General] = frozenset()
    sizes: tuple[int, ...] = ()  # len(embed) as handed out (len walks every field: done once per reply)


def answer(chart: Chart, known: Facts | None, *, question: str | None, matter: str | Matter | None) -> Answer:
    """The matters asked and the general reading (``texts.matters.values.answer``, whose module loads
    with the first matter asked)."""
    return matter_texts.answer(chart, known, question=question, matter=matter)


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
    from (e.g. the server's setting). ``matters`` (the matter asked) come first after the chart's header;
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
    if (school := school_line(chart.school, lang)) is not None:  # a school other than the default, named
        description_lines.append(school)
    if chart.sun is not None:  # the place, the solar time or sunrise used, and what the clock would say
        description_lines.extend(f"-# {line}" for line in sun_lines(chart.sun, lang))
    description_lines.append(f"-# {summary_line(chart, lang)}")  # the other schools, one line (docs/rules.md §10.1)
    if unread:
        # the texts' own line, as the CLI's
        description_lines.append(f"-# {matter_texts.unrecognised(lang, '`matter:`')}")
    note = text("embed.translation_note", lang)
    if note and reading is not None and reading.entries:
        description_lines.append(f"-# {note}")
    description = "\n".join(description_lines)
    first = Draft(title, "", [], footer)
    extra: list[tuple[str, str]] = []
    if len(description) > DESCRIPTION_MAX:
        # Only a giant question can do this: keep the chart facts, continue the rest in fields.
        parts = split_lines(description, DESCRIPTION_MAX, text("embed.cut", lang))
        description, rest = parts[0], parts[1:]
        extra = [(text("embed.question", lang), p) for p in rest]
    first.description = description
    placed = [
        *(pieces(extra, lang) if extra else ()),
        *(pieces(matter_fields(matters, lang), lang) if matters else ()),  # the matter asked, first
        *_chart_pieces(chart, title.split(" ｜ ")[0], lang),
        *_reading_pieces(reading, lang),
    ]
    return [d.embed() for d in fill(first, placed, lang)]


def _chart_pieces(chart: Chart, name: str, lang: Lang) -> tuple[Piece, ...]:
    """四課, 三伝 and 天地盤: they depend only on the classical inputs, so each is written once."""
    key = Hashed(chart.day, chart.yuejiang, chart.hour, chart.school, chart.steps, name, lang)
    found = _CHART_PIECES.get(key)
    if found is None:
        fields = [
            (text("embed.lessons", lang), _code(chart_text.lessons(chart, lang))),
            (f"{text('embed.transmissions', lang)} — {name}", _transmission_lines(chart, lang)),
            (text("embed.plate", lang), _code(chart_text.ring(chart, lang))),
        ]
        found = tuple(pieces(fields, lang))
        _CHART_PIECES.put(key, found, _WEIGH_PIECES((key, found)))
    return found
