"""Every page's frame: its HTML template, navigation and search form, and the escaping the pages
share. Links are relative (the site works from file://).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from string import Template

from texts.memo import remember
from texts.site import paths
from texts.words import LANGS, Lang, text

# What a build writes: the chart pages (paths from the root) and each language's folder ("en/");
# None: everything. A subset build links only to what it writes.
Built = frozenset[str] | None

# What the classical original and the seed's translation are written in (for screen readers and fonts).
ORIGINAL_LANG = "zh-Hant"
SEED_TRANSLATION_LANG = "ja"


def esc(value: object) -> str:
    return html.escape(str(value), quote=False)


def attr(value: object) -> str:
    return html.escape(str(value), quote=True)


@remember()
def _template() -> Template:
    return Template((resources.files("texts.site") / "static" / "page.html").read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class Page:
    """One file of the site: its path from the root and its text."""

    path: str
    text: str


def _nav(path: str, lang: Lang, built: Built) -> str:
    here = path.split("/", 1)[1] if "/" in path else "index.html"
    items = [
        (f"{lang}/index.html", text("site.home", lang)),
        (f"{lang}/index.html#charts", text("site.charts", lang)),
        (f"{lang}/corpus/index.html", text("site.corpus", lang)),
        (f"{lang}/glossary.html", text("site.glossary", lang)),
        (f"{lang}/rules.html", text("site.rules", lang)),
    ]
    links = "".join(f'<li><a href="{paths.href(path, target)}">{esc(label)}</a></li>' for target, label in items)
    current = ' aria-current="true"'
    others = "".join(
        f'<li><a href="{paths.href(path, f"{other}/{here}")}" hreflang="{other}" lang="{other}"'
        f'{current if other == lang else ""}>{esc(text("language.name", other))}</a></li>'
        for other in LANGS
        if built is None or f"{other}/" in built
    )
    return (
        f'<nav class="site" aria-label="{attr(text("site.home", lang))}"><ul>{links}</ul></nav>'
        f'<nav class="langs" aria-label="{attr(text("site.language", lang))}"><ul>{others}</ul></nav>'
    )


def _search_form(path: str, lang: Lang) -> str:
    return (
        f'<form class="search" role="search" action="{paths.href(path, f"{lang}/search.html")}" method="get">'
        f'<label for="q-top" class="visually-hidden">{esc(text("site.search_page.label", lang))}</label>'
        f'<input id="q-top" name="q" type="search" placeholder="{attr(text("site.search", lang))}">'
        f'<button type="submit">{esc(text("site.search_page.button", lang))}</button></form>'
    )


def page(path: str, lang: Lang, title: str, main: str, *, head: str = "", scripts: Sequence[str] = (),
         built: Built = None) -> Page:
    """A whole HTML document at ``path`` (from the site's root) in ``lang``."""
    root = paths.href(path, "index.html").removesuffix("index.html") or "./"
    body = _template().substitute(
        lang=lang,
        title=esc(f"{title} — {text('site.name', lang)}"),
        css=paths.href(path, f"{paths.ASSETS}/style.css"),
        head=head,
        skip=esc(text("site.skip", lang)),
        home=paths.href(path, f"{lang}/index.html"),
        name=esc(text("site.name", lang)),
        nav=_nav(path, lang, built),
        search=_search_form(path, lang),
        main=main,
        footer=esc(text("site.footer", lang)),
        licence=paths.href(path, f"{paths.ASSETS}/OFL.txt"),
        scripts="".join(f'<script src="{paths.href(path, s)}"></script>' for s in scripts),
        root=root,
    )
    return Page(path, body)
