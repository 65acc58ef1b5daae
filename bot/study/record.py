"""A cast for a moment, recorded as a case: what /cast and the message menu both do."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

import engine
from bot.core.errors import ReplyError
from bot.core.reader import Reader
from bot.core.words import text, word
from bot.store import Case, NewCase
from engine import Chart
from engine.alternatives import OPTION_VALUES
from texts.alternatives import option_words

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["QUESTION_MAX", "record_cast"]

QUESTION_MAX = 300  # characters of a question (declared by /cast; a longer message is clipped to it)


async def record_cast(bot: LiurenBot, interaction: discord.Interaction[Any], reader: Reader, moment: datetime, *,
                      question: str | None, matter: str | None, private: bool) -> tuple[Case, Chart]:
    """The chart of ``moment`` (with the server's school options), saved in the casebook with the
    caller's birth data; a ReplyError in the reader's words for a moment the engine cannot cast.
    ``reader`` is resolved with its zone (``resolve(..., with_zone=True)``) and read at its place, if any
    (given, the profile's or the server's); the case keeps that place. A school that reads the sun
    (docs/rules.md §10.3–10.4) needs a place: without one, a ReplyError naming the options."""
    school, kept = reader.school, reader.place
    place = None if kept is None else kept.place
    if place is None and school.needs_place:
        options = [option_words(o, getattr(school, o), reader.lang) for o in ("daynight", "hour_by")
                   if getattr(school, o) != OPTION_VALUES[o][0]]
        raise ReplyError(text("error.place.needed", reader.lang, options=word("list.sep", reader.lang).join(options)))
    try:
        chart = engine.cast(moment, school=school, place=place)
    except engine.CastError as error:
        raise ReplyError(text("error.chart", reader.lang, detail=error)) from None
    profile = reader.profile
    case = await bot.store.add_case(NewCase(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id, author_id=interaction.user.id,
        private=private, instant=moment, zone=reader.cast_zone(), day=None,
        yuejiang=None, hour=None, school=reader.school, question=question, matter=matter,
        birth_year=profile.birth_year if profile is not None else None,
        sex=profile.sex if profile is not None else None, created_at=int(bot.clock().timestamp()), place=kept,
    ))
    return case, chart
