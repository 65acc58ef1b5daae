"""The chart's layout painted: a palette image at ``SCALE``× in a theme's colours, encoded as PNG.

Pure: a layout in, pixels and PNG bytes out; no file, network or system font (the font ships in
texts/fonts/). Texts many charts share are kept rasterised (``clear`` forgets them).
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from io import BytesIO
from typing import TYPE_CHECKING

try:
    from isal import isal_zlib
    from PIL import Image, ImageDraw
except ModuleNotFoundError as error:  # Pillow (and ISA-L's deflate) are an extra; the error says which
    raise ModuleNotFoundError("the chart as a picture needs Pillow and isal, the liuren[picture] extra: "
                              "pip install '.[picture]' in a checkout (docs/release.md)", name=error.name) from error

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

from texts.memo import Recurring, remember
from texts.picture.glyphs import SCALE, SHORT, glyphs, pixels, placed
from texts.picture.glyphs import clear as clear_glyphs
from texts.picture.shapes import THEMES_ALL, Box, Layout, Role, Text, Theme

__all__ = ["THEMES", "THEMES_ALL", "Palette", "Stamp", "Theme", "clear", "encode", "paint", "palette", "png"]

RGB = tuple[int, int, int]

# Dark follows Discord's dark surfaces; light is paper with ink and a seal red (朱).
THEMES: dict[Theme, dict[Role, RGB]] = {
    "dark": {
        "bg": (0x2B, 0x2D, 0x31), "panel": (0x35, 0x37, 0x3C), "grid": (0x5C, 0x5F, 0x68),
        "fg": (0xF2, 0xF3, 0xF5), "muted": (0xB5, 0xBA, 0xC1), "general": (0xD8, 0xDB, 0xDF),
        "noble": (0xF0, 0xC6, 0x5A), "accent": (0xFF, 0x84, 0x75), "accent_bg": (0x4A, 0x33, 0x35),
        "void": (0xB4, 0xA7, 0xFF), "lodging": (0xE8, 0xB3, 0x4A), "hour": (0x6F, 0xB1, 0xFF),
        "badge_text": (0x1E, 0x1F, 0x22),
        "spirit": (0x57, 0xD6, 0x8D),  # a 類神's cell
    },
    "light": {
        "bg": (0xFA, 0xF7, 0xF0), "panel": (0xFF, 0xFF, 0xFF), "grid": (0xBF, 0xB6, 0xA4),
        "fg": (0x1C, 0x1B, 0x19), "muted": (0x5A, 0x55, 0x4D), "general": (0x33, 0x30, 0x2C),
        "noble": (0x8A, 0x5A, 0x00), "accent": (0xB0, 0x1E, 0x1E), "accent_bg": (0xFB, 0xE4, 0xDF),
        "void": (0x5B, 0x3F, 0xC0), "lodging": (0xA8, 0x6A, 0x10), "hour": (0x23, 0x62, 0xB8),
        "badge_text": (0xFF, 0xFF, 0xFF),
        "spirit": (0x1A, 0x7F, 0x4B),  # a 類神's cell
    },
}


# Which ink is drawn on which paper. A text's edge pixels are blends of its ink into the paper
# under it, so a palette holding every role's colour and LEVELS steps between each such pair draws
# every edge smoothly while the picture stays one byte a pixel (a third of RGB, and quicker to
# compress).
_PAIRS: dict[Role, tuple[Role, ...]] = {
    "bg": ("fg", "muted", "accent", "void", "noble"),
    "panel": ("fg", "muted", "general", "noble", "void", "accent"),
    "accent_bg": ("fg", "muted", "general", "noble", "void", "accent"),
    "lodging": ("badge_text",),
    "hour": ("badge_text",),
    "accent": ("badge_text",),
}
LEVELS = 11  # blends per pair: ≤ 13 roles + 20 pairs × 11 = 233 of the 256 entries


@dataclass(frozen=True, slots=True)
class Palette:
    """A theme as palette entries: each role's index, and the blends of each (paper, ink) pair."""

    colours: tuple[RGB, ...]
    index: dict[Role, int]
    blends: dict[tuple[int, int], tuple[int, ...]]  # (paper index, ink index) → LEVELS indices
    plte: bytes  # the colours as a PNG's PLTE chunk holds them

    def ramp(self, paper: int, ink: int) -> list[int]:
        """Coverage 0–255 → palette index, for ``ink`` drawn on ``paper``."""
        blends = self.blends.get((paper, ink))
        if blends is None:  # a pair no layout uses today: the nearer of the two pure colours
            return [paper if v < 128 else ink for v in range(256)]
        steps = (paper, *blends, ink)
        return [steps[round(v * (LEVELS + 1) / 255)] for v in range(256)]


def _mix(p: RGB, q: RGB, t: float) -> RGB:
    return (round(p[0] + (q[0] - p[0]) * t), round(p[1] + (q[1] - p[1]) * t), round(p[2] + (q[2] - p[2]) * t))


@remember(len(THEMES))
def palette(theme: Theme) -> Palette:
    """``theme``'s palette: its colours first, then the blends its text edges need."""
    roles = THEMES[theme]
    colours: list[RGB] = list(dict.fromkeys(roles.values()))
    index = {role: colours.index(colour) for role, colour in roles.items()}
    blends: dict[tuple[int, int], tuple[int, ...]] = {}
    for paper, inks in _PAIRS.items():
        for ink in inks:
            first = len(colours)
            colours += [_mix(roles[paper], roles[ink], k / (LEVELS + 1)) for k in range(1, LEVELS + 1)]
            blends[(index[paper], index[ink])] = tuple(range(first, len(colours)))
    assert len(colours) <= 256, len(colours)
    return Palette(tuple(colours), index, blends, bytes(channel for colour in colours for channel in colour))


@remember(256)
def _ramp(theme: Theme, paper: int, ink: int) -> list[int]:
    return palette(theme).ramp(paper, ink)


@dataclass(frozen=True, slots=True)
class Stamp:
    """A text inked for one paper: its palette indices and the mask of the pixels it covers, as
    Pillow's image cores (what the painter pastes), and the bytes they take."""

    indices: ImagingCore
    covered: ImagingCore
    weight: int


def _inked(value: str, size: int, bold: bool, anchor: str, theme: Theme, paper: int, ink: int) -> Stamp:
    """``value`` as palette indices of ``ink`` on ``paper``, with the mask of the pixels it covers."""
    mask, _, _ = glyphs(value, size, bold, anchor)
    indices = Image.frombytes("P", mask.size, mask.point(_ramp(theme, paper, ink)).tobytes())
    covered = mask.point(_COVERED)
    return Stamp(indices.im, covered.im, pixels(indices, covered))


_COVERED = [0] + [255] * 255  # coverage → the paste mask: every pixel the text touches (a table, not 256 calls)


def paint(plan: Layout, theme: Theme) -> Image.Image:
    """The layout drawn at ``SCALE``× in ``theme``'s palette (a "P" image).

    A text takes the paper it lies on from the picture itself (the commonest colour at the
    corners of its box), so the layout need not say what each text sits on.
    """
    image = Image.new("P", (plan.width * SCALE, plan.height * SCALE))
    image.putpalette(palette(theme).plte)
    _paint_on(image.im, image.size, plan, theme)
    return image


@dataclass(frozen=True, slots=True)
class _Canvas:
    """A drawing thread's canvas: the picture's rows in ``rows``, each followed by a zero byte, as
    PNG wants them after the first row's filter byte (each zero is the next row's filter, "none");
    ``core`` is Pillow's image over the same bytes, so what is painted is ready for the compressor."""

    size: tuple[int, int]
    rows: bytearray
    core: ImagingCore

    @classmethod
    def over(cls, size: tuple[int, int], last: _Canvas | None) -> _Canvas:
        """A canvas of ``size`` on the ``last`` canvas's rows when they hold it (a picture as wide
        and no taller: a chart's height follows its lines of facts and 課体), else on new rows."""
        width, height = size
        if last is None or last.size[0] != width or len(last.rows) < (width + 1) * height:
            rows = bytearray((width + 1) * height)
        else:
            rows = last.rows
        # Image.frombuffer maps these bytes rather than copying them; painting goes to its core, as
        # the painter's pastes do (the Image wrapper would copy a mapped image before changing it).
        return cls(size, rows, Image.frombuffer("P", size, rows, "raw", "P", width + 1, 1).im)


_OWN = threading.local()  # each drawing thread's canvas, painted over for its next picture


def png(plan: Layout, theme: Theme) -> bytes:
    """``encode(paint(plan, theme))``, painted on this thread's own canvas: no 2 MB canvas mapped
    from the system and faulted in at every drawing (the bot's allocator settings hand such blocks
    back when freed), and its rows deflated where they were painted, with no copy."""
    size = width, height = plan.width * SCALE, plan.height * SCALE
    own: _Canvas | None = getattr(_OWN, "canvas", None)
    if own is None or own.size != size:
        own = _OWN.canvas = _Canvas.over(size, own)
    _paint_on(own.core, size, plan, theme)
    # The rows in one hand-over (the last row's zero dropped): in strips they cost ISA-L ~30 % more.
    return _png(size, palette(theme).plte, _deflated((memoryview(own.rows)[: (width + 1) * height - 1],)))


def _paint_on(canvas: ImagingCore, size: tuple[int, int], plan: Layout, theme: Theme) -> None:
    # Pillow's image core, pasted into directly: Image.paste's checks (mode, size, copy-on-write,
    # loading each image) cost four times the paste itself, ~125 times a chart, and hold for a
    # "P" canvas and inked texts of its palette by construction.
    index = palette(theme).index
    canvas.paste(index["bg"], (0, 0, *size))  # the whole canvas, as Image.new would fill it
    get, paste = canvas.getpixel, canvas.paste
    right, bottom = size
    for item in plan.items:
        if not isinstance(item, Text):
            _box(canvas, item, index)
            continue
        left, top = round(item.x * SCALE), round(item.y * SCALE)
        text_size, bold, anchor, ink = item.size, item.bold, item.anchor, index[item.role]
        for dx, dy, width, height, piece in placed(item.text, text_size, bold, anchor):
            x0, y0 = left + dx, top + dy
            x1, y1 = x0 + width, y0 + height
            # The paper is the colour at the box's corners, clipped to the canvas only where the box
            # crosses its edge: nearly every text lies inside, and is spared the clipping's calls.
            if x0 >= 0 and y0 >= 0 and x1 <= right and y1 <= bottom:
                corners = get((x0, y0)), get((x1 - 1, y0)), get((x0, y1 - 1)), get((x1 - 1, y1 - 1))
            else:
                cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(right, x1) - 1, min(bottom, y1) - 1
                corners = get((cx0, cy0)), get((cx1, cy0)), get((cx0, cy1)), get((cx1, cy1))
            paper = corners[0]
            if corners[1] == paper and corners[2] == paper and corners[3] == paper:
                # One colour at all four: the box holds nothing but its paper (no text lies over
                # another or over a rule: tests/test_picture.py checks every chart), so the text
                # goes down whole, its paper with it, without a mask to read.
                paste(_stamp(piece, text_size, bold, anchor, theme, paper, ink).indices, (x0, y0, x1, y1))
                continue
            stamp = _stamp(piece, text_size, bold, anchor, theme, max(corners, key=corners.count), ink)
            paste(stamp.indices, (x0, y0, x1, y1), stamp.covered)


_short_inked = remember(2048)(_inked)
# A long text kept once a second picture draws it, by its pixels' bytes (texts.memo.Recurring): the
# labels charts share (~1 MB of them) stay; a chart's own texts are let go.
LONG_BUDGET = 2**20
_long_inked: Recurring[tuple[object, ...], Stamp] = Recurring(LONG_BUDGET)


def _stamp(value: str, size: int, bold: bool, anchor: str, theme: Theme, paper: int, ink: int) -> Stamp:
    if len(value) <= SHORT:
        return _short_inked(value, size, bold, anchor, theme, paper, ink)
    return _long_inked.get((value, size, bold, anchor, theme, paper, ink),
                           lambda: _inked(value, size, bold, anchor, theme, paper, ink), lambda i: i.weight)


def _box(canvas: ImagingCore, box: Box, index: dict[Role, int]) -> None:
    """``box`` filled and outlined on ``canvas``: the pixels ImageDraw's rectangle, rounded_rectangle
    and line give, pasted as colours (ImageDraw would need the canvas as an Image of its own)."""
    x0, y0, x1, y1 = round(box.x0 * SCALE), round(box.y0 * SCALE), round(box.x1 * SCALE), round(box.y1 * SCALE)
    fill = index[box.fill] if box.fill else None
    outline = index[box.outline] if box.outline else None
    line = box.width * SCALE
    if x0 == x1 or y0 == y1:  # a rule, not a box: a line ``line`` px thick, centred as ImageDraw centres it
        if outline is not None:
            half = (line - 1) // 2
            canvas.paste(outline, (x0 - half, y0, x0 - half + line, y1 + 1) if x0 == x1 else
                         (x0, y0 - half, x1 + 1, y0 - half + line))
        return
    if box.radius:
        fill_mask, outline_mask = _rounded(x1 - x0 + 1, y1 - y0 + 1, box.radius * SCALE, line)
        if fill is not None:
            canvas.paste(fill, (x0, y0, x1 + 1, y1 + 1), fill_mask)
        if outline is not None and outline != fill:
            canvas.paste(outline, (x0, y0, x1 + 1, y1 + 1), outline_mask)
        return
    if fill is not None and outline is not None and outline != fill and x1 - x0 > 2 * line and y1 - y0 > 2 * line:
        # The box in its outline's colour, then the inside of the outline in its fill: the pixels of
        # the fill and four bands below, in two pastes.
        canvas.paste(outline, (x0, y0, x1 + 1, y1 + 1))
        canvas.paste(fill, (x0 + line, y0 + line, x1 + 1 - line, y1 + 1 - line))
        return
    if fill is not None:
        canvas.paste(fill, (x0, y0, x1 + 1, y1 + 1))
    if outline is not None and outline != fill:  # the outline inside the box's edges
        for band in ((x0, y0, x1 + 1, y0 + line), (x0, y1 - line + 1, x1 + 1, y1 + 1),
                     (x0, y0, x0 + line, y1 + 1), (x1 - line + 1, y0, x1 + 1, y1 + 1)):
            canvas.paste(outline, band)


@remember(64)
def _rounded(width: int, height: int, radius: int, line: int) -> tuple[ImagingCore, ImagingCore]:
    """The masks of a rounded box ``width`` × ``height`` px: its fill, and its outline ``line`` px thick."""
    masks = Image.new("L", (width, height)), Image.new("L", (width, height))
    ImageDraw.Draw(masks[0]).rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=255)
    ImageDraw.Draw(masks[1]).rounded_rectangle((0, 0, width - 1, height - 1), radius, outline=255, width=line)
    return masks[0].im, masks[1].im


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FILTER_NONE = b"\x00"  # PNG's row filter "none": the filters help photographs, not runs of palette indices
STRIP_ROWS = 128  # rows per hand-over to the compressor: ~110 KB of a chart's 880-pixel rows


def encode(image: Image.Image) -> bytes:
    """PNG bytes, with no time stamp or text chunks: a picture drawn again decodes to the same
    pixels (ISA-L may pick another of two equal matches, so a few compressed bits can differ).

    A palette picture (what ``paint`` draws) is written here, not by Pillow's encoder, whose zlib
    took over half of a new chart's drawing: its rows unfiltered, deflated by ISA-L (``isal``) at
    level 1, quicker and smaller than zlib (docs/performance.md). Any other picture is Pillow's PNG.
    The rows are handed to the compressor ``STRIP_ROWS`` at a time, never as one copy of the whole
    picture: that copy (2 MB, and as much again while Pillow joined it) stayed in the drawing
    thread's malloc arena after every drawing.
    """
    if image.mode != "P" or "transparency" in image.info:
        out = BytesIO()
        image.save(out, format="PNG", compress_level=1, compress_type=zlib.Z_RLE, optimize=False)
        return out.getvalue()
    width, height = image.size

    def strips() -> Iterator[bytes | memoryview]:
        for top in range(0, height, STRIP_ROWS):
            bottom = min(height, top + STRIP_ROWS)
            # Pillow's raw encoder pads each row to the stride with a zero byte after it; PNG wants
            # each row's filter byte (0) before it: the same bytes, one later (the last pad dropped).
            rows = image.crop((0, top, width, bottom)).tobytes("raw", ("P", width + 1))
            yield rows if bottom < height else memoryview(rows)[:-1]

    return _png(image.size, bytes(image.getpalette() or ()), _deflated(strips()))


def _deflated(rows: Iterable[bytes | memoryview]) -> bytes:
    """A zlib stream of the picture's rows, each after its filter byte: ``b"\\0"``, then ``rows``
    deflated one after another as they come."""
    deflate = isal_zlib.compressobj(1)
    idat = [deflate.compress(_FILTER_NONE)]
    idat += [deflate.compress(part) for part in rows]
    idat.append(deflate.flush())
    return b"".join(idat)


def _png(size: tuple[int, int], plte: bytes, idat: bytes) -> bytes:
    """A palette PNG of ``size``, unfiltered, whose rows deflated are ``idat``."""
    header = struct.pack(">IIBBBBB", *size, 8, 3, 0, 0, 0)  # 8-bit palette, deflate, no interlace
    return b"".join((_PNG_SIGNATURE, *_chunk(b"IHDR", header), *_chunk(b"PLTE", plte), *_chunk(b"IDAT", idat),
                     *_chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> tuple[bytes, ...]:
    """A PNG chunk as its parts, for the one join that writes the file (``data`` is not copied here)."""
    # ISA-L's CRC-32, the one zlib defines: a chart's IDAT in a quarter of the system zlib's time.
    return struct.pack(">I", len(data)), kind, data, struct.pack(">I", isal_zlib.crc32(data, isal_zlib.crc32(kind)))


def clear() -> None:
    """Forget every rasterised and inked text, and the rounded boxes' masks."""
    _short_inked.cache_clear()
    _rounded.cache_clear()
    _long_inked.clear()
    clear_glyphs()
