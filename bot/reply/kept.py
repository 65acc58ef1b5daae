"""A chart's reply kept once written: the same chart, moment, reader's language,
question, matter and facts give the same embeds, so a study group casting one moment pays for
the reading, the fields and their layout once.

The reply is kept as the embeds' dicts (what discord.py sends) and given back as fresh
``discord.Embed`` objects each time (``Embed.from_dict``, each with a list of fields of its own), so a
caller that stamps a footer, adds an image, adds or removes a field or inserts an embed changes only
its own copy. The fields themselves are shared by every copy and refuse to change in place
(``Shared``): copying two dozen of them for every /cast was most of a warm reply's cost.
Bounded by measured size (``texts.memo``): an entry weighs its characters and its dicts (measured on
a sample of the entries, ``texts.memo.Sampled``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, NamedTuple, NoReturn

import discord

from engine import Chart
from engine.facts import Facts
from engine.terms import General
from texts.matters.recognise import Matter
from texts.memo import LRU, Hashed, Sampled
from texts.picture.draw import hour_key

from . import chart as writer
from .chart import ChartReply, chart_reply, clock_of

__all__ = ["BUDGET", "Shared", "remembered_reply"]

# Bytes of kept replies (the last 150 or so). A reply missed here is rebuilt from the kept reading
# and fields (bot.reply.chart), so more would buy little (docs/performance.md, "The bot").
BUDGET = 2 * 2**20
_WRITERS = ("read", "answer", "build_embeds")  # bot.reply.chart's names of what writes a reply


class _Kept(NamedTuple):
    """A reply as kept: the embeds as dicts, the 類神, what they weigh, the moment line's time and where
    it is in the first embed's description (-1: nowhere it can be rewritten), the embeds' lengths."""

    embeds: tuple[dict[str, Any], ...]
    spirits: frozenset[General]
    weight: int
    stamp: str
    at: int
    sizes: tuple[int, ...]  # each embed's len (the same for every minute: the time is rewritten in place)


def _weight(kept: _Kept) -> int:
    return kept.weight


_REPLIES: LRU[tuple[object, ...], _Kept] = LRU(BUDGET, weigh=_weight)


def _measure(written: tuple[dict[str, Any], ...]) -> int:
    """Bytes the kept dicts hold: the strings (as CPython stores them) and the dicts themselves."""
    total = 0
    for embed in written:
        total += sys.getsizeof(embed)
        for value in embed.values():
            if isinstance(value, (list, tuple)):
                total += sys.getsizeof(value) + sum(
                    sys.getsizeof(f) + sum(sys.getsizeof(v) for v in f.values()) for f in value
                )
            elif isinstance(value, dict):
                total += sys.getsizeof(value) + sum(sys.getsizeof(v) for v in value.values())
            else:
                total += sys.getsizeof(value)
    return total


# Replies are much alike: an eighth measured, the others weigh the moving mean (texts.memo.Sampled).
_WEIGH = Sampled(measure=_measure)


class Shared(dict[str, Any]):
    """A part of a kept reply (a field, the footer, the author) that every copy of the reply holds:
    changing it in place would change it under every later reply, so that is refused. discord.py's
    setters (``set_footer``, ``set_image``…) replace such a part rather than change it; to change a
    field, remove it and add a new one (the copy's field list is its own)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a kept reply's part is shared by every copy of that reply: replace it, do not change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse


def _shared(embed: Mapping[str, Any]) -> dict[str, Any]:
    """An embed's dict to keep: its fields (a tuple: each copy gets a list of its own) and its other
    dicts made ``Shared``."""
    return {key: (tuple(map(Shared, value)) if key == "fields" else Shared(value) if isinstance(value, dict)
                  else value) for key, value in embed.items()}


def _fresh(embed: dict[str, Any]) -> discord.Embed:
    fields = embed.get("fields")
    return discord.Embed.from_dict(embed if fields is None else {**embed, "fields": [*fields]})


def _stamp_of(chart: Chart) -> str:
    """What a reply shows of the moment's time: the moment line's clock time, as the line writes it."""
    return "" if chart.moment is None else clock_of(chart.moment)


def _kept(written: tuple[dict[str, Any], ...], spirits: frozenset[General], stamp: str, question: str | None,
          sizes: tuple[int, ...]) -> _Kept:
    """A reply to keep, with where its moment's time is in the first embed's description: -1 when
    it is not there once or the question says it too (a giant question's moment line may be in a
    field), so no other minute is made from it."""
    description = written[0].get("description") or ""
    once = stamp and stamp not in (question or "") and description.count(stamp) == 1
    at = description.find(stamp) if once else -1
    return _Kept(written, spirits, _WEIGH(written), stamp, at, sizes)


def remembered_reply(
    chart: Chart,
    *,
    locale: str = "ja",
    question: str | None = None,
    matter: str | Matter | None = None,
    zone_note: str | None = None,
    known: Facts | None = None,
) -> ChartReply:
    """``bot.reply.chart.chart_reply``, kept for the same arguments (a new copy each call), with its
    embeds' lengths (``sizes``).

    Kept per 時: a minute of a 時 kept for another minute is that reply with the moment line's time
    rewritten (the same length, so the fields are placed alike), which is what writing it gives."""
    # The chart as its 時 (texts.picture.hour_key, what the 時's one picture is kept by: its classical
    # inputs, school and everything of its moment but the clock time; quicker to hash than the chart).
    # And the functions that write it, as the module holds them now: a reading swapped in (a test's
    # stand-in for a huge one, say) is a different reply, never one kept from before.
    key = Hashed(hour_key(chart), locale, question, matter, zone_note, known,
                 *map(vars(writer).__getitem__, _WRITERS))
    stamp = _stamp_of(chart)
    kept = _REPLIES.get(key)
    if kept is not None and kept.stamp != stamp and (kept.at < 0 or len(kept.stamp) != len(stamp)):
        kept = None  # the time cannot be rewritten in place: this minute written anew
    if kept is None:
        reply = chart_reply(chart, locale=locale, question=question, matter=matter, zone_note=zone_note, known=known)
        written = tuple(_shared(e.to_dict()) for e in reply.embeds)
        kept = _REPLIES.put(key, _kept(written, reply.spirits, stamp, question, tuple(len(e) for e in reply.embeds)))
    dicts, at = kept.embeds, kept.at
    if kept.stamp == stamp:
        return ChartReply([_fresh(e) for e in dicts], kept.spirits, kept.sizes)
    description = dicts[0]["description"]
    first = {**dicts[0], "description": f"{description[:at]}{stamp}{description[at + len(stamp):]}"}
    return ChartReply([_fresh(first), *(_fresh(e) for e in dicts[1:])], kept.spirits, kept.sizes)
