"""The chart picture as inline SVG: the same layout texts/picture/raster.py paints into a PNG.

Why not the PNG: the picture's labels are the reader's language, so a site of four languages
needs 5,760 pictures, and at ~100 KB each (2× for phones) they alone would be 576 MB against a
200 MB budget. The layout (``texts.picture.layout.layout``) is font-agnostic shapes and texts; drawn
as SVG with the same shipped font (embedded once, in the site's stylesheet) it is the same picture
at ~8 KB, sharp at any zoom, in the page's light or dark colours (the picture's own two themes,
``texts.picture.THEMES``, as CSS variables), and its text can be selected and found.

Pillow places a text by an anchor (``ls``: left, baseline; ``mm``: middle, middle …); SVG places it
by its baseline, so each vertical anchor becomes a baseline offset from the font's own metrics.
"""

from __future__ import annotations

import html

from engine.chart import Chart
from texts.memo import remember
from texts.picture.alt import alt_text
from texts.picture.fonts import font
from texts.picture.glyphs import measure
from texts.picture.layout import layout
from texts.picture.raster import THEMES, Theme
from texts.picture.shapes import Box, Layout, Role, Text
from texts.words import Lang

FONT_FAMILY = "liuren-picture"
_PROBE = 1000  # px: the metrics are read at a large size and scaled


@remember()
def _metrics(bold: bool) -> tuple[float, float]:
    """The font's ascent and descent per px of size (Pillow's anchors ``a`` and ``d``)."""
    ascent, descent = font("bold" if bold else "regular", _PROBE).getmetrics()
    return ascent / _PROBE, descent / _PROBE


def _baseline(item: Text) -> float:
    ascent, descent = _metrics(item.bold)
    vertical = item.anchor[1]
    if vertical == "a":
        return item.y + ascent * item.size
    if vertical == "m":
        return item.y + (ascent - descent) / 2 * item.size
    if vertical == "d":
        return item.y - descent * item.size
    return item.y  # "s": the baseline itself


def _n(value: float) -> str:
    """A coordinate, short: integers without a point, others to 0.1 px."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


# A page holds ~150 shapes, so their classes are short: a role's fill ``f<i>`` and stroke ``s<i>``
# (``i`` its place in the themes' order), a size ``z<px>``, ``b`` for bold, ``m``/``e`` for the
# middle/end anchors. theme_css() writes the rules.
_ROLES: tuple[Role, ...] = tuple(THEMES["light"])
_CODE = {role: str(i) for i, role in enumerate(_ROLES)}
_SIZES = range(8, 73)
_ANCHOR = {"l": "", "m": " m", "r": " e"}


def _text(item: Text) -> str:
    weight = " b" if item.bold else ""
    size, sized = (f" z{item.size}", "") if item.size in _SIZES else ("", f' font-size="{item.size}"')
    return (
        f'<text x="{_n(item.x)}" y="{_n(_baseline(item))}"{sized} class="f{_CODE[item.role]}{size}{weight}'
        f'{_ANCHOR[item.anchor[0]]}">{html.escape(item.text, quote=False)}</text>'
    )


def _box(box: Box) -> str:
    classes = " ".join(
        c for c in (f"f{_CODE[box.fill]}" if box.fill else "n", f"s{_CODE[box.outline]}" if box.outline else "") if c
    )
    stroke = f' stroke-width="{box.width}"' if box.outline and box.width != 1 else ""
    if box.x0 == box.x1 or box.y0 == box.y1:  # a rule, as texts.picture draws it
        return (
            f'<line x1="{_n(box.x0)}" y1="{_n(box.y0)}" x2="{_n(box.x1)}" y2="{_n(box.y1)}" '
            f'class="s{_CODE[box.outline or "grid"]}"{stroke}/>'
        )
    radius = f' rx="{box.radius}"' if box.radius else ""
    return (
        f'<rect x="{_n(box.x0)}" y="{_n(box.y0)}" width="{_n(box.x1 - box.x0)}" height="{_n(box.y1 - box.y0)}"'
        f'{radius} class="{classes}"{stroke}/>'
    )


def svg(plan: Layout, label: str, label_id: str) -> str:
    """The layout as an inline ``<svg role="img">`` described by ``label`` (its alt text)."""
    body = "".join(_text(i) if isinstance(i, Text) else _box(i) for i in plan.items)
    return (
        f'<svg class="chart-picture" viewBox="0 0 {plan.width} {plan.height}" width="{plan.width}" '
        f'height="{plan.height}" role="img" aria-labelledby="{label_id}">'
        f'<title id="{label_id}">{html.escape(label, quote=False)}</title>'
        f'<rect width="{plan.width}" height="{plan.height}" class="f{_CODE["bg"]}"/>{body}</svg>'
    )


def chart_svg(chart: Chart, lang: Lang) -> str:
    """``chart``'s picture in ``lang``, as inline SVG with its alt text (``texts.picture.alt_text``)."""
    return svg(layout(chart, lang, measure), alt_text(chart, lang), "picture-alt")


def theme_css() -> str:
    """The picture's colours as CSS: a variable per role for each theme, and the classes using them.

    The light theme is the default; the dark one follows ``prefers-color-scheme``.
    """

    def variables(theme: Theme) -> str:
        colours = THEMES[theme]
        return ";".join(f"--p{_CODE[r]}:#{''.join(f'{c:02x}' for c in colours[r])}" for r in _ROLES)

    rules = [f":root{{{variables('light')}}}", f"@media (prefers-color-scheme: dark){{:root{{{variables('dark')}}}}}"]
    rules += [f".chart-picture .f{c}{{fill:var(--p{c})}}.chart-picture .s{c}{{stroke:var(--p{c})}}"
              for c in (_CODE[r] for r in _ROLES)]
    rules.append(".chart-picture .n{fill:none}.chart-picture .b{font-weight:700}"
                 ".chart-picture .m{text-anchor:middle}.chart-picture .e{text-anchor:end}")
    rules.append("".join(f".chart-picture .z{z}{{font-size:{z}px}}" for z in _SIZES))
    return "\n".join(rules)
