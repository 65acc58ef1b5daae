"""What the chart picture is made of: its texts and boxes at 1× with their colour roles, its fixed
sizes, and every character it may draw (what the shipped font must hold).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, get_args

from engine.chart import Chart
from engine.facts import Facts
from engine.school import NobleTable
from engine.symbols import Branch, Stem
from engine.terms import Frame, General, Kin, Method, PatternName, Position, Relation, Vigour
from texts.words import LANGS, Lang, words
from texts.words import term as words_term

Role = Literal[
    "bg", "panel", "grid", "fg", "muted", "general", "noble", "accent", "accent_bg", "void",
    "lodging", "hour", "badge_text",
    "spirit",  # the outline of a 類神's cell (the matter asked)
]
Anchor = Literal["la", "ls", "lm", "ma", "ms", "mm", "ra", "rs", "rm"]
Theme = Literal["dark", "light"]  # the palettes: texts/picture/raster.py THEMES
THEMES_ALL: tuple[Theme, ...] = ("dark", "light")
Measure = Callable[[str, int, bool], float]  # (text, size, bold) → width in px at 1×

WIDTH = 440
MARGIN = 20
CELL = 100  # one ring cell, square
MIN_TEXT = 14

# 地盤 places of the square ring, row by row, south at the top as the books print it.
RING_ROWS = ("巳午未申", "辰  酉", "卯  戌", "寅丑子亥")


@dataclass(frozen=True, slots=True)
class Text:
    """A string drawn at (x, y) by ``anchor`` (Pillow's anchors: l/m/r then a/s/m)."""

    x: float
    y: float
    text: str
    size: int
    role: Role
    bold: bool = False
    anchor: Anchor = "ls"


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle, filled and/or outlined; ``radius`` rounds its corners."""

    x0: float
    y0: float
    x1: float
    y1: float
    fill: Role | None = None
    outline: Role | None = None
    width: int = 1
    radius: int = 0


Item = Text | Box


@dataclass(frozen=True, slots=True)
class Layout:
    """A whole picture at 1×: its size and what to draw, in drawing order."""

    width: int
    height: int
    items: tuple[Item, ...]


def term(value: object, lang: Lang) -> str:
    """An engine value (伝, 六親, 剋/賊, 課名 part, 天将) as ``lang`` writes it (``texts.words.term``);
    anything that is not a domain enum is drawn as its own characters."""
    return words_term(value, lang) if isinstance(value, IntEnum) else str(value)


def hour_span(chart: Chart) -> str:
    """The day and the 時 of the chart's moment as the picture shows them, ``2026-11-29 13:00-15:00``:
    the picture is the same for every minute of a 時, the minute is in the embed."""
    m = chart.moment
    if m is None:
        return ""
    start = (2 * int(m.hour.branch) - 1) % 24
    local = m.local  # %Y-%m-%d as strftime writes the calendar's years (1900–2100), without its call
    return f"{local.year:04}-{local.month:02}-{local.day:02} {start:02d}:00-{(start + 2) % 24:02d}:00"


def shown_facts(known: Facts) -> tuple[tuple[str, Branch | None], ...]:
    """The derived facts the picture shows, in its order, each with its label's word key: 驛馬 and
    丁神; 天馬, 太歳 and 月建 with a moment; 本命 and 行年 with the querent's birth data (None: not
    known for this chart)."""
    return (("picture.fact_horse", known.travel_horse), ("picture.fact_ding", known.ding),
            ("picture.fact_heavenly_horse", known.heavenly_horse), ("picture.fact_year", known.year),
            ("picture.fact_month", known.month), ("picture.fact_natal", known.natal),
            ("picture.fact_walking", known.walking_year))


def _literals(template: str) -> str:
    return "".join(literal for literal, _, _, _ in string.Formatter().parse(template))


# Domain values the picture draws: where a language has no word of its own, their names are drawn.
_DRAWN_ENUMS: tuple[type[IntEnum], ...] = (
    Stem, Branch, General, Position, Method, Frame, Relation, Kin, Vigour, PatternName,
)
# Other words the picture draws: the school options line and the 中気's name.
_DRAWN_WORDS = ("picture.", "noble.", "school.", "solar_term.", "list.sep", "list.name_sep", "matter.picture")


def drawable_characters() -> frozenset[str]:
    """Every character the picture may draw, in any language: what the shipped font must hold.

    The literal parts of every ``picture.*`` word and of the ``term.*`` words of the domain values
    it draws, in every language, and of the school options and the solar terms; the names of those
    values (stems, branches, generals, 伝, 課名, 剋/賊, 六親, 旺相休囚死, 課体), and printable ASCII
    (dates, zone names and their abbreviations are ASCII).
    """
    chars: set[str] = set(string.printable) - set(string.whitespace) | {" ", "\u3000"}
    prefixes = (*_DRAWN_WORDS, *(f"term.{kind.__name__}." for kind in _DRAWN_ENUMS))
    for lang in LANGS:
        for key, template in words()[lang].items():
            if key.startswith(prefixes):
                chars |= set(_literals(template))
    for kind in _DRAWN_ENUMS:
        for member in kind:
            chars |= set(member.name)
    chars |= set("".join(get_args(NobleTable)))  # the school line names the 貴人 table
    return frozenset(chars)
