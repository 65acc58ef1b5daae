"""The chart picture's texts as pixels: measured, placed and rasterised at the size they are drawn,
and what of that is kept between pictures (by what it weighs, not by count).

Short texts (branches, stems, generals, 地盤X) recur on every chart and are few: all are kept.
Longer ones are often one chart's own (its title 甲子日 午時, its moment, its pillars: 720 titles
alone would hold ~30 MB), while others are labels many charts repeat (課名 重審, 旬空 午未): a long
text is kept only once a second picture asks for it (``texts.memo.Recurring``), within a byte budget,
so a chart's own texts are drawn and let go and the shared labels stay.
"""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from texts.memo import remember
from texts.picture.fonts import Weight, font

__all__ = ["SCALE", "SHORT", "Placed", "glyphs", "measure", "pieces", "place", "placed"]

SCALE = 2  # the picture is drawn at 2× its display size
SHORT = 3  # texts of at most this many characters are kept whatever they weigh

def _weight(bold: bool) -> Weight:
    return "bold" if bold else "regular"


@remember(1024)  # a chart's own texts (its moment, its wrapped lines) miss anyway: 4,096 held 0.9 MB
def measure(value: str, size: int, bold: bool) -> float:
    """Width of ``value`` at ``size`` px (1×), as the painter will draw it."""
    return font(_weight(bold), size * SCALE).getlength(value) / SCALE


@remember(1024)
def place(value: str, size: int, bold: bool, anchor: str) -> tuple[int, int, int, int]:
    """Where ``value``'s pixels fall from its anchor point at ``SCALE``×: (left, top, width, height),
    the box :func:`glyphs` fills (so a painter can look at the paper under it before rasterising)."""
    left, top, right, bottom = (int(v) for v in font(_weight(bold), size * SCALE).getbbox(value, anchor=anchor))
    return left, top, max(1, right - left), max(1, bottom - top)


def _rasterise(value: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """``value`` as a coverage mask, with its offset from the anchor point."""
    face = font(_weight(bold), size * SCALE)
    left, top, width, height = place(value, size, bold, anchor)
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((-left, -top), value, fill=255, font=face, anchor=anchor)
    return mask, left, top


_short_glyphs = remember(1024)(_rasterise)


def glyphs(value: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """``value`` rasterised: a short text from the cache when it was drawn before; a long one is
    drawn each time it is asked for (its inked forms are what is kept, texts/picture/raster.py)."""
    if len(value) <= SHORT:
        return _short_glyphs(value, size, bold, anchor)
    return _rasterise(value, size, bold, anchor)


_WORD = re.compile("[^ \u3000]+")


def pieces(value: str, size: int, bold: bool) -> list[tuple[int, str]]:
    """``value`` cut at its spaces into its words, each with its pen offset at ``SCALE``× from the
    text's left edge (its first word at 0), rounded to a whole pixel: a text is rasterised from a
    whole-pixel origin, so a word drawn alone there is where the whole text draws it, or half a
    pixel at most beside it (CJK advances are whole pixels: their words are exactly in place). The
    words recur between charts (``年丙午``, ``未時``, a date, a 時's span) where the whole line does not."""
    found: list[tuple[int, str]] = []
    start = offset = measured = 0  # the piece being gathered: where it starts in value, its offset
    pen = 0.0  # the pen's offset at value[measured]
    for word in _WORD.finditer(value):
        at = word.start()
        if at == 0:
            continue
        pen += measure(value[measured:at], size, bold) * SCALE  # a word and its spaces: these recur
        measured = at
        found.append((offset, value[start:at].rstrip(" \u3000")))
        start, offset = at, round(pen)
    found.append((offset, value[start:]))
    return found


Placed = tuple[int, int, int, int, str]  # a piece's (left, top, width, height) from the anchor, and its text


@remember(1024)  # the painter's one look-up per text: a chart's own texts miss, as ``measure``'s do
def placed(value: str, size: int, bold: bool, anchor: str) -> tuple[Placed, ...]:
    """How ``value`` is painted: the pieces it is rasterised as, each with its box from the text's
    anchor point at ``SCALE``× (:func:`place`, shifted by its :func:`pieces` offset). A long text
    from the left goes as its words, which recur between charts where the whole line does not."""
    cut = pieces(value, size, bold) if len(value) > SHORT and anchor[0] == "l" else ((0, value),)
    return tuple((offset + left, top, width, height, piece) for offset, piece in cut
                 for left, top, width, height in (place(piece, size, bold, anchor),))


def pixels(*images: Image.Image) -> int:
    """Bytes the images' pixels take (Pillow keeps a line-pointer per row and a header besides)."""
    return sum(i.width * i.height * len(i.getbands()) + 8 * i.height + 256 for i in images)


def clear() -> None:
    """Forget every measured, placed and rasterised text."""
    for cache in (measure, place, placed, _short_glyphs):
        cache.cache_clear()
