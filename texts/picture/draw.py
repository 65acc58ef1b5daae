"""The chart as a picture: a PNG of the header, the 天地盤 ring, the 四課 and the 三伝 .

Pure: a chart in, PNG bytes out (painted by texts/picture/raster.py).

    >>> from engine import cast_classical
    >>> png = render_png(cast_classical("甲子", "亥", "午"), theme="light", lang="ja")
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True

A caller posting it needs three things, which :func:`draw` returns together as a :class:`Picture`:
:func:`render_png` (the bytes), :func:`alt_text` (what a screen reader says, ≤ 1,024 characters,
Discord's limit for an attachment's description) and :func:`filename` (an ASCII attachment name).
Pillow and the painter are loaded by the first drawing, so a process that only looks pictures up
(:func:`kept`, :func:`picture_key`) never loads them; call :func:`warm` once started, where the
drawings run, so the first new picture does not pay for them and the fonts. A process that draws
for another calls :func:`paint` (drawn, not kept), and the other :func:`keep` with what came back.

The picture is drawn at 2× its display size (``SCALE``) so it stays crisp on phones; its text is
never below 14 px at display size. What repeats is cached: the rasterised texts many charts share
(texts/picture/raster.py), and the finished pictures (PNG and alt text) of the last ``CACHE_SIZE`` 時
drawn, so showing a chart again costs a dictionary look-up (:func:`kept`, which never draws).

The golden images for the tests are texts/picture/golden.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from threading import Lock

from engine.calendar import Moment
from engine.chart import Chart
from engine.facts import Facts, facts
from engine.patterns import Patterns, classify
from engine.terms import General
from texts.memo import LRU, last_one
from texts.picture.alt import ALT_MAX, alt_text
from texts.picture.shapes import THEMES_ALL, Theme, term
from texts.words import LANGS, Lang, text

__all__ = ["Picture", "Theme", "alt_text", "clear_cache", "draw", "filename", "hour_key", "keep", "kept",
           "of_the_hour", "paint", "picture_key", "render_png", "warm"]

CACHE_SIZE = 8  # finished pictures kept (≈ 110 KB each: the last 8 時 drawn, each shared by its casts)
# The pictures of the last 時 drawn, by (hour_key, theme, lang, known, highlight): each its PNG and,
# once a reply asked for it, its alt text; every cast of the 時 shares them
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
    ``highlight`` outlines the cells of those generals, the 類神 of the matter asked.
    Raises ``ValueError`` for an unknown theme or language.
    """
    key = picture_key(chart, theme, lang, known, highlight)
    found = _found(key)
    return found[0] if found is not None else _finished(key, of_the_hour(chart), theme, lang, known, highlight)[0]


def picture_key(chart: Chart, theme: Theme, lang: Lang, known: Facts | None,
                highlight: frozenset[General]) -> tuple[object, ...]:
    """What ``draw``'s picture of ``chart`` is kept by: its 時 (``hour_key``) and the options; every
    cast of the 時 shares it. Raises ``ValueError`` for an unknown theme or language."""
    _check(theme, lang)
    return hour_key(chart), theme, lang, known, highlight  # one picture per 時


def _check(theme: Theme, lang: Lang) -> None:
    if theme not in THEMES_ALL:
        raise ValueError(f"unknown theme {theme!r}: give 'dark' or 'light'")
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: give one of {', '.join(LANGS)}")


def _found(key: tuple[object, ...]) -> _Finished | None:
    with _LOCK:
        return _CACHE.get(key)


def _finished(key: tuple[object, ...], hour: Chart, theme: Theme, lang: Lang, known: Facts | None,
              highlight: frozenset[General]) -> _Finished:
    """``hour``'s picture drawn and kept by ``key`` (with no alt text yet); when another thread
    finished it meanwhile, that one (which may have its alt text) stays and is given back."""
    png = _painted(hour, theme, lang, known, highlight)
    with _LOCK:
        return _CACHE.get(key) or _CACHE.put(key, (png, None))


def _painted(chart: Chart, theme: Theme, lang: Lang, known: Facts | None = None,
             highlight: frozenset[General] = frozenset(), patterns: Patterns | None = None) -> bytes:
    """``chart`` laid out and painted: the PNG, nothing kept but the texts' pixels; ``patterns`` as
    ``layout`` takes them."""
    # Pillow, the fonts' machinery and the painter, loaded by the first drawing: a process that
    # only looks pictures up (the bot until its first new 時) never pays for them. Without Pillow,
    # the error names the extra (texts/picture/raster.py).
    from texts.picture import raster
    from texts.picture.glyphs import measure
    from texts.picture.layout import layout

    return raster.png(layout(chart, lang, measure, known, highlight, patterns), theme)


def of_the_hour(chart: Chart) -> Chart:
    """``chart`` with its moment at the start of the clock's hour of its 時 (minute 0), which is all
    the picture shows of it (``hour_span``): so every cast of one 時 shares one picture and one
    alt text. Unchanged when a clock change falls between the two."""
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


@last_one  # a /cast asks for its chart's key for the reply and for the picture
def hour_key(chart: Chart) -> tuple[object, ...]:
    """What ``of_the_hour(chart)`` is made of, quicker to hash than the chart (which follows from its
    classical inputs and school) and made without building its moment; the offset apart, as a clock
    change's repeated hour has equal local times. Two charts of one key get one picture and one alt
    text (only ``filename`` differs). A chart read at a place is apart from every other (its reply says
    what the sun said at that minute, and its other schools include the sun's options)."""
    m = chart.moment
    if m is None:
        return chart.day, chart.yuejiang, chart.hour, chart.school, None, None
    start = _hour_start(m)
    return (chart.day, chart.yuejiang, chart.hour, chart.school, m.zone, m.year, m.month, m.day, m.hour, m.yuejiang,
            m.principal_term, m.sectional_term, start, start.utcoffset(), chart.sun)


def warm(langs: tuple[Lang, ...] = ("ja",)) -> None:
    """Load the fonts and rasterise the texts every chart shares, so the first chart a process
    draws costs what any new chart costs (call it at start-up; ~0.1 s per language)."""
    from engine import cast_classical

    for lang in langs:
        for theme in THEMES_ALL:
            for day, hour in (("甲子", "子"), ("乙丑", "午")):
                _painted(cast_classical(day, "子", hour), theme, lang)


@dataclass(frozen=True, slots=True)
class Picture:
    """Everything a reply needs to attach the chart: the PNG, its alt text and a file name."""

    png: bytes
    alt: str
    filename: str


def draw(chart: Chart, *, theme: Theme = "dark", lang: Lang = "ja", known: Facts | None = None,
         highlight: frozenset[General] = frozenset()) -> Picture:
    """The chart's picture with its description and attachment name (see :func:`render_png`), kept
    for the next cast of its 時 (:func:`kept`).

        >>> from engine import cast_classical
        >>> found = draw(cast_classical("甲子", "亥", "午"), lang="en")
        >>> found.filename, found.alt[:33]
        ('liuren-d00-y11-h06.png', 'Da Liu Ren chart. Day 甲子 · Hour 午')
    """
    key = picture_key(chart, theme, lang, known, highlight)
    found = _found(key)
    if found is not None and found[1] is not None:
        return Picture(found[0], found[1], filename(chart))
    hour = of_the_hour(chart)  # one chart for the layout and the alt text: its facts and 課体 worked out once
    known, patterns = _worked_out(hour, known)
    png = found[0] if found is not None else _painted(hour, theme, lang, known, highlight, patterns)
    return _kept(key, png, _alt(hour, lang, known, highlight, patterns), chart)


def paint(chart: Chart, *, theme: Theme = "dark", lang: Lang = "ja", known: Facts | None = None,
          highlight: frozenset[General] = frozenset()) -> Picture:
    """``draw``'s picture drawn now and not kept (a drawing process hands it back to the process
    that keeps it: :func:`keep`). Raises ``ValueError`` for an unknown theme or language."""
    _check(theme, lang)
    hour = of_the_hour(chart)
    known, patterns = _worked_out(hour, known)
    return Picture(_painted(hour, theme, lang, known, highlight, patterns),
                   _alt(hour, lang, known, highlight, patterns), filename(chart))


def _worked_out(hour: Chart, known: Facts | None) -> tuple[Facts, Patterns]:
    """``hour``'s facts (``known``, else its own) and its 課体: worked out once, for its layout and
    its alt text both."""
    known = known if known is not None else facts(hour)
    return known, classify(hour, known)


def keep(chart: Chart, picture: Picture, *, theme: Theme = "dark", lang: Lang = "ja",
         known: Facts | None = None, highlight: frozenset[General] = frozenset()) -> Picture:
    """``picture`` (``paint``'s for these options) kept for the casts of ``chart``'s 時, as ``draw``
    keeps its own; when one was kept meanwhile, that one (the 時's casts share one PNG)."""
    return _kept(picture_key(chart, theme, lang, known, highlight), picture.png, picture.alt, chart)


def _kept(key: tuple[object, ...], png: bytes, alt: str, chart: Chart) -> Picture:
    with _LOCK:
        found = _CACHE.get(key)
        if found is None or found[1] is None:
            found = _CACHE.put(key, (png, alt))
    return Picture(found[0], found[1] or alt, filename(chart))


def kept(chart: Chart, *, theme: Theme = "dark", lang: Lang = "ja", known: Facts | None = None,
         highlight: frozenset[General] = frozenset()) -> Picture | None:
    """``draw``'s picture when its 時 was drawn lately with these options, else None: a look-up, no
    drawing, so the bot asks on its event loop before it sends a drawing to a worker."""
    found = _found(picture_key(chart, theme, lang, known, highlight))
    return None if found is None or found[1] is None else Picture(found[0], found[1], filename(chart))


def _alt(hour: Chart, lang: Lang, known: Facts, highlight: frozenset[General], patterns: Patterns) -> str:
    alt = alt_text(hour, lang, known, patterns)
    if highlight:  # a screen reader hears first which cells the outline marks
        cells = ("; " if lang == "en" else "、").join(
            text("picture.alt_cell", lang, ground=ground, heaven=hour.plate.up(ground), general=term(g, lang))
            for g in sorted(highlight) for ground in (hour.generals.ground_of(g),))
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
    from texts.picture import raster

    with _LOCK:
        _CACHE.clear()
    raster.clear()
