"""A stored case presented: back as its chart, and the texts shown for it (the chart's embeds,
history, the trace, the matched lines, an export).

Pure helpers and store look-ups; the buttons that use them are in bot.casebook.views, the commands
in bot.casebook.cog (and /cast, /chart in bot.study).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal
from zoneinfo import ZoneInfo

import discord

import engine
import texts.matters as matter_texts
from bot.core.errors import ReplyError
from bot.core.user_text import echo, escaped
from bot.core.words import Lang, text, word
from bot.reply.chart import ChartReply
from bot.reply.kept import remembered_reply
from bot.reply.limits import EMBED_TOTAL_MAX
from bot.reply.picture import drawn
from bot.store import Bad, Case, CaseNote, NewCase, Profile, decoded, normalize_case_id, stored_text
from engine import Chart
from engine.facts import Facts
from engine.school import School
from engine.sun import Place
from engine.symbols import BRANCHES, Branch, parse_branch
from engine.terms import General
from texts.alternatives import alternative_lines, sun_lines
from texts.corpus.shown import unit_lines
from texts.matters.recognise import choose
from texts.picture.draw import Picture, Theme, filename, kept, picture_key
from texts.words.explain import explain

from .privacy import known_for
from .seen import may_read, readable_channels

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = [
    "HISTORY_PAGE",
    "NOTE_MAX",
    "Scope",
    "case_embeds",
    "chart_of",
    "history_embed",
    "history_page",
    "load_case",
    "neighbour",
    "note_lines",
    "picture_for",
    "picture_now",
    "schools_text",
    "source_pages",
    "stamp",
    "stored_inputs",
    "why_text",
]

NOTE_MAX = 1000
HISTORY_PAGE = 10
SOURCE_PAGE = 3800  # characters of matched lines per ephemeral page (an embed description holds 4096)
Scope = Literal["mine", "server"]
_DRAWING: dict[tuple[object, ...], asyncio.Future[Picture]] = {}  # the pictures being drawn, each awaited by its casts


def stored_inputs(case: Case) -> tuple[datetime | None, ZoneInfo | None, School]:
    """The case's instant, zone and school options, to cast or copy it; ValueError naming a stored
    value that no longer decodes (the error handler reports it)."""
    return (decoded(case.instant, f"case {case.id}'s instant"), decoded(case.zone, f"case {case.id}'s zone"),
            decoded(case.school, f"case {case.id}'s school"))


def chart_of(case: Case, place: Place | None = None) -> Chart:
    """The case's chart, cast again from its stored inputs and stored school options, at ``place``
    when given, else at the place the case kept (without either, the options that read the sun take
    the clock's); ValueError for a kept place that no longer decodes."""
    instant, zone, school = stored_inputs(case)
    if place is None and case.place is not None:
        place = decoded(case.place, f"case {case.id}'s place").place
    if instant is not None and zone is not None:
        if place is not None:
            return engine.cast(instant, zone.key, school=school, place=place)
        return engine.cast(instant, zone.key, school=school.by_the_clock())
    school = school.by_the_clock()
    if case.day is None or case.yuejiang is None or case.hour is None:
        raise ValueError(f"case {case.id} has neither an instant nor the classical inputs")
    return engine.cast_classical(case.day, case.yuejiang, case.hour, school=school)


def stamp(embeds: list[discord.Embed], case_id: str, lang: Lang, size: int | None = None) -> int:
    """Show the case id in the first embed's footer (where it fits; Discord counts footers too);
    returns that embed's length then. ``size``: its length before, when the caller knows it."""
    first = embeds[0]
    label = text("case.footer", lang, id=case_id)
    current = first.footer.text or ""
    joined = f"{current} ・ {label}" if current else label
    rest = (len(first) if size is None else size) - len(current)
    shown = joined if rest + len(joined) <= EMBED_TOTAL_MAX else label
    first.set_footer(text=shown)
    return rest + len(shown)


def case_embeds(case: Case, lang: Lang, *, zone_note: str | None = None,
                chart: Chart | None = None, alone: bool = False) -> tuple[Chart, ChartReply]:
    """The case's chart (``chart`` when the caller has just cast it) and its reply: the matter asked
    (the stored ``matter:``, else read from the question) and the reading as embeds,
    with the case id in the footer. The querent's birth data is read only when the author sees the
    reply ``alone`` (bot.casebook.privacy)."""
    chart = chart if chart is not None else chart_of(case)
    known = known_for(chart, case, alone)
    reply = remembered_reply(chart, locale=lang, question=case.question, matter=case.matter, zone_note=zone_note,
                             known=known)
    first = stamp(reply.embeds, case.id, lang, reply.sizes[0])  # a kept reply knows its sizes
    return chart, ChartReply(reply.embeds, reply.spirits, (first, *reply.sizes[1:]))


def picture_now(chart: Chart, lang: Lang, theme: str = "dark", *, known: Facts | None = None,
                spirits: frozenset[General] = frozenset()) -> Picture | asyncio.Future[Picture]:
    """``picture_for``'s picture when it is kept already (the reply can carry it), else its drawing,
    started now, for the reply to attach once it is drawn (bot.reply.send)."""
    chosen: Theme = "light" if theme == "light" else "dark"
    found = kept(chart, theme=chosen, lang=lang, known=known, highlight=spirits)
    return found if found is not None else asyncio.ensure_future(_drawn(chart, chosen, lang, known, spirits))


async def picture_for(chart: Chart, lang: Lang, theme: str = "dark", *, known: Facts | None = None,
                      spirits: frozenset[General] = frozenset()) -> Picture:
    """The chart's picture, with the querent's 本命/行年 (``known``) and the 類神' cells marked.

    Every cast of one 時 shares one picture (texts.picture.hour_key), so one drawn before
    is given back here without a trip to a worker thread (``texts.picture.kept``), and casts of one
    時 that arrive together wait for one drawing instead of each drawing it."""
    chosen: Theme = "light" if theme == "light" else "dark"
    found = kept(chart, theme=chosen, lang=lang, known=known, highlight=spirits)
    return found if found is not None else await _drawn(chart, chosen, lang, known, spirits)


async def _drawn(chart: Chart, chosen: Theme, lang: Lang, known: Facts | None,
                 spirits: frozenset[General]) -> Picture:
    key = picture_key(chart, chosen, lang, known, spirits)
    drawing = _DRAWING.get(key)
    if drawing is None:
        drawing = _DRAWING[key] = asyncio.ensure_future(drawn(chart, theme=chosen, lang=lang, known=known,
                                                             highlight=spirits))
        drawing.add_done_callback(lambda _: _DRAWING.pop(key, None))
    shared = await asyncio.shield(drawing)  # one caller cancelled stops no other
    name = filename(chart)  # the attachment still names the minute
    return shared if shared.filename == name else Picture(shared.png, shared.alt, name)


async def load_case(bot: LiurenBot, interaction: discord.Interaction[Any], typed: str, lang: Lang) -> Case:
    """The case the caller named, if they may see it here (another's only where the caller may read
    the channel it was cast in: bot.casebook.seen); ReplyError (nothing changed) otherwise."""
    case_id = normalize_case_id(typed)
    if case_id is None:
        raise ReplyError(text("case.bad_id", lang, id=echo(typed)))
    case = await bot.store.case(case_id)
    # An unknown id and one the caller may not see answer alike (no probing for ids).
    if case is None or not case.visible_to(interaction.user.id, interaction.guild_id):
        raise ReplyError(text("case.not_found", lang, id=case_id))
    if case.author_id != interaction.user.id and not may_read(interaction, case.channel_id):
        raise ReplyError(text("case.not_found", lang, id=case_id))  # cast where the caller may not read
    return case


def note_lines(notes: Sequence[CaseNote], lang: Lang) -> list[str]:
    lines = []
    for number, note in enumerate(notes, start=1):
        edited = text("case.edited", lang) if note.edited_at is not None else ""
        lines.append(text("case.note_line", lang, number=number, author=note.author_id,
                          time=f"<t:{note.created_at}:f>", edited=edited, body=escaped(note.body)))
    return lines


def _case_line(case: Case, lang: Lang) -> str:
    if isinstance(case.instant, Bad) or isinstance(case.zone, Bad):  # listed as stored, not hidden
        what = " ".join(echo(stored_text(v)) for v in (case.instant, case.zone) if v is not None)
    elif case.instant is not None and case.zone is not None:
        what = f"{case.instant.astimezone(case.zone):%Y-%m-%d %H:%M} {case.zone.key}"
    else:
        what = f"{case.day} {case.yuejiang} {case.hour}（{text('history.classical', lang)}）"
    private = f" 🔒{text('history.private', lang)}" if case.private else ""
    question = f" — {echo(case.question)}" if case.question else ""
    return f"`{case.id}` <t:{case.created_at}:d> {what}{private}{question}{matter_note(case, lang)}"


def matter_note(case: Case, lang: Lang) -> str:
    """The matters the case is read for, e.g. `` 〔占事 失物・盗賊・走失〕``; empty for none."""
    try:
        found = choose(case.question, case.matter)
    except ValueError:  # a stored key this version does not know: shown as stored, not hidden
        return f" 〔{text('history.matter', lang)} {echo(case.matter or '')}〕"
    if not found:
        return ""
    names = word("list.sep", lang).join(word(f"term.Matter.{f.matter.value}", lang) for f in found)
    return f" 〔{text('history.matter', lang)} {names}〕"


def history_embed(cases: Sequence[Case], scope: Scope, page: int, lang: Lang) -> discord.Embed:
    scope_name = text("history.mine" if scope == "mine" else "history.server", lang)
    embed = discord.Embed(title=text("history.title", lang, scope=scope_name, page=page + 1))
    embed.description = "\n".join(_case_line(c, lang) for c in cases) or text("history.empty", lang)
    return embed


async def history_page(bot: LiurenBot, interaction: discord.Interaction[Any], scope: Scope, page: int,
                       lang: Lang) -> tuple[tuple[Case, ...], bool]:
    """One page of the caller's history (and whether an older page exists)."""
    offset = page * HISTORY_PAGE
    if scope == "server":
        if interaction.guild_id is None:
            raise ReplyError(text("history.server_only", lang))
        found = await bot.store.cases_seen_in_guild(interaction.guild_id, interaction.user.id,
                                                    readable_channels(interaction), offset, HISTORY_PAGE + 1)
    else:
        found = await bot.store.cases_by_author(interaction.user.id, offset, HISTORY_PAGE + 1)
    return found[:HISTORY_PAGE], len(found) > HISTORY_PAGE


def schools_text(chart: Chart, lang: Lang) -> str:
    """The other schools' charts, one line each (or the line saying none differs), after what the
    sun said at the chart's place when it was read at one (texts.alternatives)."""
    lines = [] if chart.sun is None else sun_lines(chart.sun, lang)
    return "\n".join((*lines, *alternative_lines(chart, lang, indent="• ")))


def why_text(chart: Chart, lang: Lang) -> str:
    """The reasons for the three transmissions, one per line, in the reader's language; then the
    other schools' charts (``schools_text``)."""
    return "\n".join((*(f"• {explain(w, lang)}" for w in chart.transmissions.trace), "", schools_text(chart, lang)))


def source_pages(chart: Chart, known: Facts | None, lang: Lang, *, question: str | None = None,
                 matter: str | None = None) -> list[str]:
    """Every line of the seed the reply quoted (the matters asked first, then the general reading),
    in full, in pages that each fit one embed: the original, and under it what a reader of
    ``lang`` is shown (``texts.corpus.shown.unit_lines``: the seed's Japanese; for English readers the
    project's English, labelled, first)."""
    reply = matter_texts.answer(chart, known, question=question, matter=matter)
    quoted = [q.unit for m in reply.matters for q in m.quotes() if not q.above]
    blocks = []
    for unit in (*quoted, *reply.reading.units()):
        shown = unit_lines(unit, lang)
        original_lines = shown[:1] if unit.original else ()
        block = "\n".join((f"**{unit.id}**", *original_lines, *(f"> {x}" for x in shown[len(original_lines):])))
        blocks.append(block)
    pages: list[str] = []
    current = ""
    for block in blocks:
        while len(block) > SOURCE_PAGE:  # a single very long line: split inside it
            if current:
                pages.append(current)
                current = ""
            pages.append(block[:SOURCE_PAGE])
            block = block[SOURCE_PAGE:]
        candidate = f"{current}\n\n{block}" if current else block
        if len(candidate) > SOURCE_PAGE:
            pages.append(current)
            current = block
        else:
            current = candidate
    if current:
        pages.append(current)
    return pages


def neighbour(case: Case, step: int, author_id: int, guild_id: int | None, channel_id: int | None,
              profile: Profile | None, now: datetime) -> NewCase:
    """The same day's previous (-1) or next (+1) 時 of a case, as a new case of the presser."""
    instant, zone, school = stored_inputs(case)
    if instant is not None:
        instant += timedelta(hours=2 * step)
        hour = case.hour
    else:
        current: Branch = parse_branch(case.hour or "子")
        hour = str(BRANCHES[(BRANCHES.index(current) + step) % 12])
    return NewCase(
        guild_id=guild_id, channel_id=channel_id, author_id=author_id, private=case.private,
        instant=instant, zone=zone, day=case.day, yuejiang=case.yuejiang, hour=hour, school=school,
        # The asker's question stays in the asker's cases; a neighbour someone else
        # casts from it does not copy it (so "delete my cases" leaves none of it behind).
        question=case.question if author_id == case.author_id else None, matter=case.matter,
        place=None if author_id != case.author_id or isinstance(case.place, Bad) else case.place,  # as the question
        birth_year=profile.birth_year if profile is not None else None,
        sex=profile.sex if profile is not None else None,
        created_at=int(now.timestamp()),
    )
