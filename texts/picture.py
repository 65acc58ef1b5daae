"""The chart as a picture: a PNG of the header, the 天地盤 ring, the 四課 and the 三伝 (issue 11).

Pure: a chart in, PNG bytes out; no file, network or system font (the font ships in texts/fonts/).

    >>> from engine import cast_classical
    >>> png = render_png(cast_classical("甲子", "亥", "午"), theme="light", lang="ja")
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True

A caller posting it needs three things, which :func:`draw` returns together as a :class:`Picture`:
:func:`render_png` (the bytes), :func:`alt_text` (what a screen reader says, ≤ 1,024 characters,
Discord's limit for an attachment's description) and :func:`filename` (an ASCII attachment name).
Call :func:`warm` once at start-up so the first reply does not pay for loading the fonts.

The picture is drawn at 2× its display size (``SCALE``) so it stays crisp on phones; its text is
never below 14 px at display size. What repeats is cached: the rasterised texts many charts share
(texts/picture_text.py), and the finished pictures (PNG and alt text) of the last ``CACHE_SIZE`` 時
drawn, so showing a chart again costs a dictionary look-up (:func:`kept`, which never draws).

Golden images for the tests are regenerated with ``python -m texts.picture --regenerate-golden``
(the examples in docs/images with ``--regenerate-examples``);
``python -m texts.picture --day 甲子 --yuejiang 亥 --hour 午 --out chart.png`` writes one picture.
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from dataclasses import dataclass, replace
from datetime import datetime
from io import BytesIO
from pathlib import Path
from threading import Lock
from typing import TYPE_CHECKING, Literal

from texts.memo import remember

try:
    from isal import isal_zlib
    from PIL import Image, ImageDraw
except ModuleNotFoundError as error:  # issue 23: Pillow (and ISA-L's deflate) are an extra; the error says which
    raise ModuleNotFoundError("the chart as a picture needs Pillow and isal: pip install 'liuren[picture]'",
                              name=error.name) from error

if TYPE_CHECKING:
    from PIL._imaging import PixelAccess

from engine.calendar import Moment
from engine.chart import Chart
from engine.facts import Facts
from engine.terms import General  # issue 18: the 類神 marked
from texts.memo import LRU, last_one
from texts.picture_alt import ALT_MAX, alt_text
from texts.picture_layout import Box, Layout, Role, Text, layout, term
from texts.picture_text import SCALE, SHORT, Recurring, glyphs, measure, pixels, place
from texts.picture_text import clear as clear_texts
from texts.words import LANGS, Lang, text

Theme = Literal["dark", "light"]
THEMES_ALL: tuple[Theme, ...] = ("dark", "light")
CACHE_SIZE = 8  # finished pictures kept (≈ 110 KB each: the last 8 時 drawn, each shared by its casts); texts apart

RGB = tuple[int, int, int]

# Dark follows Discord's dark surfaces; light is paper with ink and a seal red (朱).
THEMES: dict[Theme, dict[Role, RGB]] = {
    "dark": {
        "bg": (0x2B, 0x2D, 0x31), "panel": (0x35, 0x37, 0x3C), "grid": (0x5C, 0x5F, 0x68),
        "fg": (0xF2, 0xF3, 0xF5), "muted": (0xB5, 0xBA, 0xC1), "general": (0xD8, 0xDB, 0xDF),
        "noble": (0xF0, 0xC6, 0x5A), "accent": (0xFF, 0x84, 0x75), "accent_bg": (0x4A, 0x33, 0x35),
        "void": (0xB4, 0xA7, 0xFF), "lodging": (0xE8, 0xB3, 0x4A), "hour": (0x6F, 0xB1, 0xFF),
        "badge_text": (0x1E, 0x1F, 0x22),
        "spirit": (0x57, 0xD6, 0x8D),  # issue 18: a 類神's cell
    },
    "light": {
        "bg": (0xFA, 0xF7, 0xF0), "panel": (0xFF, 0xFF, 0xFF), "grid": (0xBF, 0xB6, 0xA4),
        "fg": (0x1C, 0x1B, 0x19), "muted": (0x5A, 0x55, 0x4D), "general": (0x33, 0x30, 0x2C),
        "noble": (0x8A, 0x5A, 0x00), "accent": (0xB0, 0x1E, 0x1E), "accent_bg": (0xFB, 0xE4, 0xDF),
        "void": (0x5B, 0x3F, 0xC0), "lodging": (0xA8, 0x6A, 0x10), "hour": (0x23, 0x62, 0xB8),
        "badge_text": (0xFF, 0xFF, 0xFF),
        "spirit": (0x1A, 0x7F, 0x4B),  # issue 18: a 類神's cell
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
    colours = palette(theme)
    image = Image.new("P", (plan.width * SCALE, plan.height * SCALE), colours.index["bg"])
    image.putpalette([channel for colour in colours.colours for channel in colour])
    draw = ImageDraw.Draw(image)
    pixels = image.load()  # one accessor for every text's paper (getpixel loads the image on each call)
    assert pixels is not None
    for item in plan.items:
        if isinstance(item, Text):
            dx, dy, width, height = place(item.text, item.size, item.bold, item.anchor)
            x, y = round(item.x * SCALE) + dx, round(item.y * SCALE) + dy
            area = (x, y, x + width, y + height)
            paper = _paper(image, pixels, area)
            inked, covered, _, _ = _inked_cached(item.text, item.size, item.bold, item.anchor, theme, paper,
                                                 colours.index[item.role])
            image.paste(inked, area, covered)
        else:
            _box(draw, item, colours.index)
    return image


def _paper(image: Image.Image, pixels: PixelAccess, area: tuple[int, int, int, int]) -> int:
    x0, y0 = max(0, area[0]), max(0, area[1])
    x1, y1 = min(image.width, area[2]) - 1, min(image.height, area[3]) - 1
    corners = [pixels[x, y] for x in (x0, x1) for y in (y0, y1)]
    return int(max(corners, key=corners.count))  # type: ignore[arg-type]


_short_inked = remember(2048)(_inked)
# issue 21: a long text kept once a second picture draws it, by its pixels' bytes (texts/picture_text.py):
# the labels charts share (~1 MB of them) stay; a chart's own title, moment and pillars are let go.
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

    Issue 21: a palette picture (what ``paint`` draws) is written here, not by Pillow's encoder,
    whose zlib took over half of a new chart's drawing: its rows unfiltered, deflated by ISA-L
    (``isal``) at level 1, ~7× quicker than zlib's level 1 with its run-length strategy and ~20 %
    smaller (~90 KB). The pixels are Pillow's either way; any other picture is Pillow's PNG.
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


# issue 21: the pictures of the last 時 drawn, by (hour_key, theme, lang, known, highlight): each its
# PNG and, once a reply asked for it, its alt text; every cast of the 時 shares them
_Finished = tuple[bytes, str | None]
_CACHE: LRU[tuple[object, ...], _Finished] = LRU(CACHE_SIZE)
_LOCK = Lock()


def render_png(chart: Chart, *, theme: Theme = "dark", lang: Lang = "ja", known: Facts | None = None,
               highlight: frozenset[General] = frozenset()) -> bytes:
    """The chart as a PNG (2× its display size): header (with the 中気 and any non-default school
    option), 天地盤, 四課, 三伝 (with 旺相休囚死 when the month is known), 驛馬 丁神 天馬 太歳 月建
    (本命 行年 when ``known`` carries the querent's birth data), the 課体 and the legend.

    ``theme`` is "dark" (Discord's default) or "light"; ``lang`` sets the labels (the branches,
    stems and generals are the same CJK characters in every language); ``known`` is
    ``engine.facts.facts(chart, birth_year=…, sex=…)``, derived from the chart alone when omitted;
    ``highlight`` (issue 18) outlines the cells of those generals, the 類神 of the matter asked.
    Raises ``ValueError`` for an unknown theme or language.
    """
    return _finished(picture_key(chart, theme, lang, known, highlight), chart, theme, lang, known, highlight)[0]


def picture_key(chart: Chart, theme: Theme, lang: Lang, known: Facts | None,
                highlight: frozenset[General]) -> tuple[object, ...]:
    """What ``draw``'s picture of ``chart`` is kept by: its 時 (``hour_key``) and the options; every
    cast of the 時 shares it. Raises ``ValueError`` for an unknown theme or language."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: give 'dark' or 'light'")
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: give one of {', '.join(LANGS)}")
    return hour_key(chart), theme, lang, known, highlight  # issue 21: one picture per 時


def _finished(key: tuple[object, ...], chart: Chart, theme: Theme, lang: Lang, known: Facts | None,
              highlight: frozenset[General]) -> _Finished:
    """The kept picture of ``key``, its PNG drawn first when it is not kept."""
    with _LOCK:
        found = _CACHE.get(key)
    if found is None:
        png = encode(paint(layout(of_the_hour(chart), lang, measure, known, highlight), theme))
        with _LOCK:  # another thread may have finished it meanwhile (with its alt text): that one stays
            found = _CACHE.get(key) or _CACHE.put(key, (png, None))
    return found


def of_the_hour(chart: Chart) -> Chart:
    """``chart`` with its moment at the start of the clock's hour of its 時 (minute 0), which is all
    the picture shows of it (``hour_span``): so every cast of one 時 shares one picture and one
    alt text (issue 21). Unchanged when a clock change falls between the two."""
    m = _hour_moment(chart.moment)
    return chart if m is chart.moment else replace(chart, moment=m)


def _hour_moment(m: Moment | None) -> Moment | None:
    if m is None:
        return None
    start = _hour_start(m)
    return m if start is m.local else replace(m, local=start)


def _hour_start(m: Moment) -> datetime:
    """The local start of the clock's hour of ``m``'s 時 (minute 0), or ``m.local`` itself when it is
    that or a clock change falls between the two."""
    local = m.local
    hour = local.hour if local.hour % 2 else max(local.hour - 1, 0)
    start = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    return local if start == local or start.utcoffset() != local.utcoffset() else start


@last_one  # issue 21: a /cast asks for its chart's key for the reply and for the picture
def hour_key(chart: Chart) -> tuple[object, ...]:
    """What ``of_the_hour(chart)`` is made of, quicker to hash than the chart (which follows from its
    classical inputs and school) and made without building its moment; the offset apart, as a clock
    change's repeated hour has equal local times. Two charts of one key get one picture and one alt
    text (only ``filename`` differs)."""
    m = chart.moment
    if m is None:
        return chart.day, chart.yuejiang, chart.hour, chart.school, None, None
    start = _hour_start(m)
    return (chart.day, chart.yuejiang, chart.hour, chart.school, m.zone, m.year, m.month, m.day, m.hour, m.yuejiang,
            m.principal_term, m.sectional_term, start, start.utcoffset())


def warm(langs: tuple[Lang, ...] = ("ja",)) -> None:
    """Load the fonts and rasterise the texts every chart shares, so the first chart a process
    draws costs what any new chart costs (call it at start-up; ~0.1 s per language)."""
    from engine import cast_classical

    for lang in langs:
        for theme in THEMES_ALL:
            for day, hour in (("甲子", "子"), ("乙丑", "午")):
                chart = cast_classical(day, "子", hour)
                encode(paint(layout(chart, lang, measure), theme))


@dataclass(frozen=True, slots=True)
class Picture:
    """Everything a reply needs to attach the chart: the PNG, its alt text and a file name."""

    png: bytes
    alt: str
    filename: str


def draw(chart: Chart, *, theme: Theme = "dark", lang: Lang = "ja", known: Facts | None = None,
         highlight: frozenset[General] = frozenset()) -> Picture:
    """The chart's picture with its description and attachment name (see :func:`render_png`).

        >>> from engine import cast_classical
        >>> found = draw(cast_classical("甲子", "亥", "午"), lang="en")
        >>> found.filename, found.alt[:33]
        ('liuren-d00-y11-h06.png', 'Da Liu Ren chart. Day 甲子 · Hour 午')
    """
    key = picture_key(chart, theme, lang, known, highlight)
    png, alt = _finished(key, chart, theme, lang, known, highlight)
    if alt is None:
        alt = _alt(chart, lang, known, highlight)
        with _LOCK:
            _CACHE.put(key, (png, alt))
    return Picture(png, alt, filename(chart))


def kept(chart: Chart, *, theme: Theme = "dark", lang: Lang = "ja", known: Facts | None = None,
         highlight: frozenset[General] = frozenset()) -> Picture | None:
    """``draw``'s picture when its 時 was drawn lately with these options, else None: a look-up, no
    drawing, so the bot asks on its event loop before it sends a drawing to a worker (issue 21)."""
    with _LOCK:
        found = _CACHE.get(picture_key(chart, theme, lang, known, highlight))
    return None if found is None or found[1] is None else Picture(found[0], found[1], filename(chart))


def _alt(chart: Chart, lang: Lang, known: Facts | None, highlight: frozenset[General]) -> str:
    alt = alt_text(of_the_hour(chart), lang, known)
    if highlight:  # issue 18: a screen reader hears first which cells the outline marks
        cells = ("; " if lang == "en" else "、").join(
            text("picture.alt_cell", lang, ground=ground, heaven=chart.plate.up(ground), general=term(g, lang))
            for g in sorted(highlight) for ground in (chart.generals.ground_of(g),))
        alt = text("matter.alt_spirits", lang, cells=cells) + alt
        alt = alt if len(alt) <= ALT_MAX else alt[: ALT_MAX - 1] + "…"
    return alt


def filename(chart: Chart) -> str:
    """An ASCII attachment name: the moment (``liuren-20261129-1400.png``) or the classical inputs."""
    if chart.moment is not None:  # %Y%m%d-%H%M as strftime writes years 1000–9999, at half its cost
        local = chart.moment.local
        return f"liuren-{local.year:04}{local.month:02}{local.day:02}-{local.hour:02}{local.minute:02}.png"
    return f"liuren-d{chart.day.index:02d}-y{int(chart.yuejiang):02d}-h{int(chart.hour):02d}.png"


def clear_cache() -> None:
    """Forget every finished PNG and rasterised text (for benchmarks that measure a cold start)."""
    with _LOCK:
        _CACHE.clear()
    _short_inked.cache_clear()
    _long_inked.clear()
    clear_texts()


# -- the golden images and the command line ---------------------------------------------------

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"


def golden_charts() -> dict[str, Chart]:
    """The charts the golden images show: a 伏吟 chart cast from an instant and a 重審 chart."""
    from datetime import datetime

    from engine import cast, cast_classical

    return {
        # 己巳 day, 未 hour under 月将 未: 伏吟・自信, from a moment with a zone.
        "fuyin": cast(datetime(2026, 6, 24, 13, 30), "Asia/Tokyo"),
        # 甲子 day, 月将 寅 over 午: 重審 from the classical inputs; its 初伝 戌 is 空亡.
        "chongshen": cast_classical("甲子", "寅", "午"),
    }


EXAMPLES_DIR = GOLDEN_DIR.parent.parent / "docs" / "images"


def _regenerate_examples() -> int:
    """docs/images: the 伏吟 chart on the dark theme, for a querent born in 1990 (so 本命 and 行年
    show), the 重審 chart on the light one."""
    from engine.facts import facts
    from engine.terms import Sex

    EXAMPLES_DIR.mkdir(parents=True, exist_ok=True)
    charts = golden_charts()
    examples: tuple[tuple[str, Theme, int | None], ...] = (("fuyin", "dark", 1990), ("chongshen", "light", None))
    for name, theme, born in examples:
        path = EXAMPLES_DIR / f"chart-{name}-{theme}.png"
        chart = charts[name]
        known = facts(chart, birth_year=born, sex=Sex.男) if born is not None else None
        path.write_bytes(render_png(chart, theme=theme, lang="ja", known=known))
        print(f"{path}: {charts[name].transmissions.name}")
    return 0


def _regenerate_golden() -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, chart in golden_charts().items():
        for theme in THEMES_ALL:
            path = GOLDEN_DIR / f"{name}-{theme}.png"
            path.write_bytes(render_png(chart, theme=theme, lang="ja"))
            print(f"{path}: {chart.transmissions.name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m texts.picture", description="Draw a chart as a PNG.")
    parser.add_argument("--regenerate-golden", action="store_true", help="rewrite tests/golden/*.png")
    parser.add_argument("--regenerate-examples", action="store_true", help="rewrite docs/images/chart-*.png")
    parser.add_argument("--day", help="day pillar, e.g. 甲子")
    parser.add_argument("--yuejiang", help="月将 branch")
    parser.add_argument("--hour", help="hour branch")
    parser.add_argument("--theme", choices=THEMES_ALL, default="dark")
    parser.add_argument("--lang", choices=LANGS, default="ja")
    parser.add_argument("--out", help="file to write, or - for stdout")
    args = parser.parse_args(argv)
    if args.regenerate_golden:
        return _regenerate_golden()
    if args.regenerate_examples:
        return _regenerate_examples()
    from engine import CastError, cast_classical

    if not (args.day and args.yuejiang and args.hour and args.out):
        parser.error("give --day, --yuejiang, --hour and --out (or --regenerate-golden)")
    try:
        chart = cast_classical(args.day, args.yuejiang, args.hour)
    except CastError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    theme: Theme = args.theme
    lang: Lang = args.lang
    png = render_png(chart, theme=theme, lang=lang)
    if args.out == "-":
        sys.stdout.buffer.write(png)
    else:
        Path(args.out).write_bytes(png)
        print(alt_text(chart, lang))
    return 0


__all__ = ["SCALE", "THEMES", "Picture", "Theme", "alt_text", "clear_cache", "draw", "filename", "hour_key", "kept",
           "measure", "of_the_hour", "picture_key", "render_png", "warm"]

if __name__ == "__main__":
    raise SystemExit(main())
