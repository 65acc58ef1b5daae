"""Where each page of the site lives, relative to the site's root (``/``-separated, ASCII for charts).

A chart page is one of the 1,440 classical charts: a day, a plate (the 月将 k places on from the
hour) and 晝 or 夜. Any chart, cast from a moment or from the classical inputs at any hour, has its
page at the classical chart with the same day, plate and 晝/夜, cast at 午 (晝) or 子 (夜): that
chart has the same 天地盤, 四課, 三伝 and 天将 (its page says what may differ: 龍首 and 天網).

    >>> from engine import cast_classical
    >>> chart_path(cast_classical("丁丑", "卯", "午"), "ja")
    'ja/chart/d13-y03-h06.html'
    >>> chart_path(cast_classical("丁丑", "巳", "申"), "en")   # the same plate at another 晝 hour
    'en/chart/d13-y03-h06.html'
    >>> chart_url(cast_classical("甲子", "亥", "子"), "zh-TW", "https://example.org/liuren/")
    'https://example.org/liuren/zh-TW/chart/d00-y11-h00.html'
"""

from __future__ import annotations

import posixpath
from urllib.parse import quote

from engine.chart import Chart
from engine.classical import DAY_HOUR, NIGHT_HOUR, plate
from texts.words import Lang

ASSETS = "assets"


def _name(day: int, yuejiang: int, hour: int) -> str:
    return f"chart/d{day:02d}-y{yuejiang:02d}-h{hour:02d}.html"


def chart_page(chart: Chart) -> str:
    """The chart page's path inside a language's folder (``chart/d13-y03-h06.html``)."""
    hour = DAY_HOUR if chart.generals.daytime else NIGHT_HOUR
    return _name(chart.day.index, int(hour + plate(chart)), int(hour))


def chart_path(chart: Chart, lang: Lang) -> str:
    """The page of ``chart`` relative to the site's root: ``<lang>/chart/d<day>-y<月将>-h<hour>.html``
    (day 0 = 甲子 … 59 = 癸亥; branches 0 = 子 … 11 = 亥), for the classical chart that shows it."""
    return f"{lang}/{chart_page(chart)}"


def chart_url(chart: Chart, lang: Lang, base_url: str) -> str:
    """``chart_path`` under the site's address ``base_url`` (e.g. ``LIUREN_SITE_URL``)."""
    return base_url.rstrip("/") + "/" + chart_path(chart, lang)


def schools_path(lang: Lang) -> str:
    """The page of what each school option changes, from the site's root."""
    return f"{lang}/schools.html"


def unit_page(unit_id: str) -> str:
    """A corpus unit's page inside a language's folder: ``corpus/<id>.html`` (the id as the corpus writes it)."""
    return f"corpus/{unit_id}.html"


def href(source: str, target: str) -> str:
    """A relative link from the page ``source`` to ``target`` (both from the site's root), percent-encoded.

    >>> href("ja/chart/d00-y00-h00.html", "ja/corpus/general.玄武.html")
    '../corpus/general.%E7%8E%84%E6%AD%A6.html'
    >>> href("ja/index.html", "ja/index.html#d-甲子")
    'index.html#d-%E7%94%B2%E5%AD%90'
    >>> href("index.html", "en/index.html"), href("ja/chart/a.html", "assets/style.css")
    ('en/index.html', '../../assets/style.css')
    """
    folder = posixpath.dirname(source)
    path, _, fragment = target.partition("#")
    here = folder.split("/") if folder else []
    there = path.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    rel = "/".join([".."] * (len(here) - common) + there[common:])
    link = quote(rel, safe="/.-_~")
    return f"{link}#{quote(fragment, safe='-_.~')}" if fragment else link
