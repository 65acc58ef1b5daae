"""A chart's reply kept once written (issue 21): the same chart, moment, reader's language,
question, matter and facts give the same embeds, so a study group casting one moment pays for
the reading, the fields and their layout once.

The reply is kept as the embeds' dicts (what discord.py sends) and given back as fresh
``discord.Embed`` objects each time (``Embed.from_dict`` with their own field list and fields), so a
caller that stamps a footer, adds an image or inserts an embed changes only its own copy. Bounded by
measured size (``texts.lru``): each entry weighs its characters and its dicts.
"""

from __future__ import annotations

import sys
from typing import Any

import discord

from engine import Chart
from engine.facts import Facts
from engine.terms import General
from texts.lru import LRU
from texts.matters import Matter

from . import embeds
from .embeds import ChartReply, chart_reply

__all__ = ["BUDGET", "remembered_reply"]

# Bytes of kept replies (≈ 13 KB each as measured: the last 150 or so). A reply missed here is
# rebuilt from the kept reading and fields in ≈ 80 µs, so more would buy little (4 MB held 300).
BUDGET = 2 * 2**20
_WRITERS = ("read", "answer", "build_embeds")  # bot.core.embeds's names of what writes a reply
_Kept = tuple[tuple[dict[str, Any], ...], frozenset[General], int]


def _weight(kept: _Kept) -> int:
    return kept[2]


_REPLIES: LRU[tuple[object, ...], _Kept] = LRU(BUDGET, weigh=_weight)


def _measure(written: tuple[dict[str, Any], ...]) -> int:
    """Bytes the kept dicts hold: the strings (as CPython stores them) and the dicts themselves."""
    total = 0
    for embed in written:
        total += sys.getsizeof(embed)
        for value in embed.values():
            if isinstance(value, list):
                total += sys.getsizeof(value) + sum(
                    sys.getsizeof(f) + sum(sys.getsizeof(v) for v in f.values()) for f in value
                )
            elif isinstance(value, dict):
                total += sys.getsizeof(value) + sum(sys.getsizeof(v) for v in value.values())
            else:
                total += sys.getsizeof(value)
    return total


def _fresh(embed: dict[str, Any]) -> discord.Embed:
    copied = {key: ([dict(f) for f in value] if key == "fields" else dict(value) if isinstance(value, dict)
                    else value) for key, value in embed.items()}
    return discord.Embed.from_dict(copied)


def remembered_reply(
    chart: Chart,
    *,
    locale: str = "ja",
    question: str | None = None,
    matter: str | Matter | None = None,
    zone_note: str | None = None,
    known: Facts | None = None,
) -> ChartReply:
    """``bot.core.embeds.chart_reply``, kept for the same arguments (a new copy each call)."""
    # The chart follows from its classical inputs, school and moment (quicker to hash than itself);
    # the offset too: two instants of a clock change's repeated hour are equal datetimes in one zone.
    offset = chart.moment.local.utcoffset() if chart.moment is not None else None
    # And the functions that write it, as the module holds them now: a reading swapped in (a test's
    # stand-in for a huge one, say) is a different reply, never one kept from before.
    key = (chart.day, chart.yuejiang, chart.hour, chart.school, chart.moment, offset, locale, question, matter,
           zone_note, known, *(vars(embeds)[name] for name in _WRITERS))
    kept = _REPLIES.get(key)
    if kept is None:
        reply = chart_reply(chart, locale=locale, question=question, matter=matter, zone_note=zone_note, known=known)
        written: tuple[dict[str, Any], ...] = tuple(dict(e.to_dict()) for e in reply.embeds)
        kept = _REPLIES.put(key, (written, reply.spirits, _measure(written)))
    return ChartReply([_fresh(e) for e in kept[0]], kept[1])
