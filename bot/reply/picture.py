"""A chart's picture for a reply or a post: drawn where the bot draws (the drawing process, or the
drawing thread: bot.core.worker.on_drawing_side) and kept here for the next cast of its 時
(texts.picture.draw.keep), so ``kept`` finds it without a drawing."""

from __future__ import annotations

from bot.core.worker import on_drawing_side
from engine import Chart
from engine.facts import Facts
from engine.terms import General
from texts.picture.draw import Picture, Theme, keep, paint
from texts.words import Lang

__all__ = ["drawn"]


async def drawn(chart: Chart, *, theme: Theme, lang: Lang, known: Facts | None = None,
                highlight: frozenset[General] = frozenset()) -> Picture:
    """``chart``'s picture drawn now, after the pictures handed over before, and kept for its 時."""
    painted = await on_drawing_side(paint, chart, theme=theme, lang=lang, known=known, highlight=highlight)
    return keep(chart, painted, theme=theme, lang=lang, known=known, highlight=highlight)
