"""The chart's layout painted: a palette image at ``SCALE``× in a theme's colours, encoded as PNG.

Pure: a layout in, pixels and PNG bytes out; no file, network or system font (the font ships in
texts/fonts/). Texts many charts share are kept rasterised (``clear`` forgets them).
"""

from __future__ import annotations

import struct
import threading
import zlib
from dataclasses import dataclass
from io import BytesIO
from typing import TYPE_CHECKING, Literal

try:
    from isal import isal_zlib
    from PIL import Image, ImageDraw
except ModuleNotFoundError as error:  # Pillow (and ISA-L's deflate) are an extra; the error says which
    raise ModuleNotFoundError("the chart as a picture needs Pillow and isal, the liuren[picture] extra: "
                              "pip install '.[picture]' in a checkout (docs/release.md)", name=error.name) from error

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

from texts.memo import Recurring, remember
from texts.picture.glyphs import SCALE, SHORT, glyphs, pieces, pixels, place
from texts.picture.glyphs import clear as clear_glyphs
from texts.picture.shapes import Box, Layout, Role, Text

Theme = Literal["dark", "light"]
THEMES_ALL: tuple[Theme, ...] = ("dark", "light")

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
    return Palette(tuple(colours), index, blends)


@remember(256)
def _ramp(theme: Theme, paper: int, ink: int) -> list[int]:
    return palette(theme).ramp(paper, ink)


def _inked(value: str, size: int, bold: bool, anchor: str, theme: Theme, paper: int,
           ink: int) -> tuple[Image.Image, Image.Image, int, int]:
    """``value`` as palette indices of ``ink`` on ``paper``, with the mask of the pixels it covers."""
    mask, dx, dy = glyphs(value, size, bold, anchor)
    indices = Image.frombytes("P", mask.size, mask.point(_ramp(theme, paper, ink)).tobytes())
    return indices, mask.point(_COVERED), dx, dy


_COVERED = [0] + [255] * 255  # coverage → the paste mask: every pixel the text touches (a table, not 256 calls)


def paint(plan: Layout, theme: Theme) -> Image.Image:
    """The layout drawn at ``SCALE``× in ``theme``'s palette (a "P" image).

    A text takes the paper it lies on from the picture itself (the commonest colour at the
    corners of its box), so the layout need not say what each text sits on.
    """
    return _paint_on(Image.new("P", (plan.width * SCALE, plan.height * SCALE)), plan, theme)


_OWN = threading.local()  # each drawing thread's canvas, painted over for its next picture


def png(plan: Layout, theme: Theme) -> bytes:
    """``encode(paint(plan, theme))``, painted on this thread's own canvas: a fresh 2 MB canvas is
    mapped from the system and its pages faulted in at every drawing (the bot's allocator settings
    hand such blocks back when freed), where painting over the last one costs a fill."""
    size = (plan.width * SCALE, plan.height * SCALE)
    canvas: Image.Image | None = getattr(_OWN, "canvas", None)
    if canvas is None or canvas.size != size:
        canvas = _OWN.canvas = Image.new("P", size)
    return encode(_paint_on(canvas, plan, theme))


def _paint_on(image: Image.Image, plan: Layout, theme: Theme) -> Image.Image:
    colours = palette(theme)
    image.im.paste(colours.index["bg"], (0, 0, *image.size))  # the whole canvas, as Image.new would fill it
    image.putpalette([channel for colour in colours.colours for channel in colour])
    draw = ImageDraw.Draw(image)
    # The canvas's core, pasted into directly: Image.paste's checks (mode, size, copy-on-write,
    # loading each image) cost four times the paste itself, ~125 times a chart, and hold for a
    # fresh "P" canvas and inked texts of its palette by construction.
    canvas = image.im
    index = colours.index
    for item in plan.items:
        if not isinstance(item, Text):
            _box(draw, item, index)
            continue
        left, y0 = round(item.x * SCALE), round(item.y * SCALE)
        value, size, bold, anchor, ink = item.text, item.size, item.bold, item.anchor, index[item.role]
        # A long text from the left drawn as its words where they fall on whole pixels (the same
        # pixels): a chart's title and pillars are then words kept from other charts, not new texts.
        cut = pieces(value, size, bold) if len(value) > SHORT and anchor[0] == "l" else ((0, value),)
        for offset, piece in cut:
            dx, dy, width, height = place(piece, size, bold, anchor)
            x, y = left + offset + dx, y0 + dy
            area = (x, y, x + width, y + height)
            paper = _paper(canvas, image.size, area)
            inked, covered, _, _ = _inked_cached(piece, size, bold, anchor, theme, paper, ink)
            canvas.paste(inked.im, area, covered.im)
    return image


def _paper(canvas: ImagingCore, size: tuple[int, int], area: tuple[int, int, int, int]) -> int:
    x0, y0 = max(0, area[0]), max(0, area[1])
    x1, y1 = min(size[0], area[2]) - 1, min(size[1], area[3]) - 1
    first: int = canvas.getpixel((x0, y0))
    if canvas.getpixel((x1, y0)) == first and canvas.getpixel((x0, y1)) == first and canvas.getpixel((x1, y1)) == first:
        return first  # the usual case: a text on one colour
    corners: list[int] = [canvas.getpixel((x, y)) for x in (x0, x1) for y in (y0, y1)]
    return max(corners, key=corners.count)


_short_inked = remember(2048)(_inked)
# A long text kept once a second picture draws it, by its pixels' bytes (texts.memo.Recurring): the
# labels charts share (~1 MB of them) stay; a chart's own title, moment and pillars are let go.
LONG_BUDGET = 2**20
_Inked = tuple[Image.Image, Image.Image, int, int]
_long_inked: Recurring[tuple[object, ...], _Inked] = Recurring(LONG_BUDGET)


def _inked_cached(value: str, size: int, bold: bool, anchor: str, theme: Theme, paper: int, ink: int) -> _Inked:
    if len(value) <= SHORT:
        return _short_inked(value, size, bold, anchor, theme, paper, ink)
    return _long_inked.get((value, size, bold, anchor, theme, paper, ink),
                           lambda: _inked(value, size, bold, anchor, theme, paper, ink), lambda i: pixels(i[0], i[1]))


def _box(draw: ImageDraw.ImageDraw, box: Box, index: dict[Role, int]) -> None:
    corners = (round(box.x0 * SCALE), round(box.y0 * SCALE), round(box.x1 * SCALE), round(box.y1 * SCALE))
    fill = index[box.fill] if box.fill else None
    outline = index[box.outline] if box.outline else None
    if corners[0] == corners[2] or corners[1] == corners[3]:  # a rule, not a box
        draw.line(corners, fill=outline, width=box.width * SCALE)
    elif box.radius:
        draw.rounded_rectangle(corners, box.radius * SCALE, fill=fill, outline=outline, width=box.width * SCALE)
    else:
        draw.rectangle(corners, fill=fill, outline=outline, width=box.width * SCALE)


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FILTER_NONE = b"\x00"  # PNG's row filter "none": the filters help photographs, not runs of palette indices
STRIP_ROWS = 128  # rows per hand-over to the compressor: ~110 KB of a chart's 880-pixel rows


def encode(image: Image.Image) -> bytes:
    """PNG bytes; deterministic (no time stamp or text chunks).

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
    deflate = isal_zlib.compressobj(1)
    idat = [deflate.compress(_FILTER_NONE)]
    for top in range(0, height, STRIP_ROWS):
        bottom = min(height, top + STRIP_ROWS)
        # Pillow's raw encoder pads each row to the stride with a zero byte after it; PNG wants each
        # row's filter byte (0) before it: the same bytes, one later (the last row's pad dropped).
        # Fed so to the compressor, the rows are never copied into a wider image.
        rows = image.crop((0, top, width, bottom)).tobytes("raw", ("P", width + 1))
        idat.append(deflate.compress(rows if bottom < height else memoryview(rows)[:-1]))
    idat.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette, deflate, no interlace
    return b"".join((_PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(image.getpalette() or ())),
                     _chunk(b"IDAT", b"".join(idat)), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def clear() -> None:
    """Forget every rasterised and inked text."""
    _short_inked.cache_clear()
    _long_inked.clear()
    clear_glyphs()
