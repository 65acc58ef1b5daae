"""The site's other pages, in the reader's language: a corpus unit's, the corpus index, the front
page with the table of all 1,440 charts and the search page.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from engine.chart import Chart
from engine.classical import DAY_HOUR, NIGHT_HOUR, classical_charts
from engine.symbols import PILLARS
from texts.corpus import Unit, corpus
from texts.corpus.notes import says, unreachable_reason
from texts.corpus.shown import seed_lines
from texts.corpus.translations import english
from texts.site import paths
from texts.site.charts import chart_label, chart_link, quotation, unit_link
from texts.site.frame import ORIGINAL_LANG, SEED_TRANSLATION_LANG, Built, Page, esc, page
from texts.words import LANGS, Lang, text
from texts.words.explain import chart_name

# -- corpus pages -----------------------------------------------------------------------------


def _chart_list(source: str, lang: Lang, charts: Iterable[Chart]) -> str:
    return '<ul class="charts">' + "".join(
        f"<li>{chart_link(source, lang, c, chart_label(c, lang), None)}</li>" for c in charts
    ) + "</ul>"


def unit_page(unit: Unit, lang: Lang, charts: Sequence[Chart], built: Built = None) -> Page:
    """A corpus unit: its text as the site quotes it, its editorial notes, and the charts quoting it."""
    path = f"{lang}/{paths.unit_page(unit.id)}"
    title = text("site.unit.title", lang, id=unit.id)
    facts_html = (
        f"<dl class=\"summary\"><dt>{esc(text('site.unit.kind', lang))}</dt>"
        f"<dd>{esc(text(f'site.unit.kind_{unit.kind}', lang))}</dd>"
        f"<dt>{esc(text('site.unit.keys', lang))}</dt><dd>{esc(' '.join((*unit.keys, *unit.aliases)))}</dd>"
        f"<dt>{esc(text('site.unit.lines', lang))}</dt><dd>{esc(seed_lines(unit))}</dd></dl>"
    )
    parts = [f"<h1>{esc(title)}</h1>", facts_html, f'<section class="entry">{quotation(path, lang, unit)}</section>']
    if unit.notes:
        parts.append(f'<section><h2>{esc(text("site.unit.notes", lang))}</h2><ul>'  # in the reader's language
                     + "".join(f"<li>{esc(text(f'lookup.note.{n.kind}', lang))}: {esc(says(unit, i, lang))}</li>"
                               for i, n in enumerate(unit.notes)) + "</ul></section>")
    own = english(unit.id) if lang == "en" else None
    if own is not None and own.notes:
        parts.append(f'<section><h2>{esc(text("site.unit.translation_notes", lang))}</h2><ul>'
                     + "".join(f"<li>{esc(n.kind)}: {esc(n.says)}</li>" for n in own.notes) + "</ul></section>")
    if unit.unreachable:
        parts.append(f'<section><h2>{esc(text("site.unit.unreachable", lang))}</h2><ul>'
                     + "".join(f"<li>{esc(b)}: {esc(unreachable_reason(corpus(), unit, b, lang))}</li>"
                               for b, _ in unit.unreachable) + "</ul></section>")
    heading = esc(text("site.unit.applies", lang, count=len(charts)))
    listed = _chart_list(path, lang, charts) if charts else f"<p>{esc(text('site.unit.applies_none', lang))}</p>"
    parts.append(f'<section class="applies"><h2>{heading}</h2>{listed}</section>')
    return page(path, lang, title, "".join(parts), built=built)


def corpus_index(lang: Lang, counts: dict[str, int], built: Built = None) -> Page:
    """Every unit in seed order, by kind, with how many charts quote it."""
    path = f"{lang}/corpus/index.html"
    title = text("site.unit.list", lang)
    rows = []
    for u in corpus().units:
        excerpt = (u.display_original or u.display_translation)[:40]
        rows.append(
            f"<tr><td>{unit_link(path, lang, u, u.id)}</td><td>{esc(text(f'site.unit.kind_{u.kind}', lang))}</td>"
            f'<td lang="{ORIGINAL_LANG if u.original else SEED_TRANSLATION_LANG}">{esc(excerpt)}</td>'
            f'<td class="num">{counts.get(u.id, 0)}</td></tr>'
        )
    table = ('<div class="table"><table><thead><tr><th scope="col">id</th>'
             f'<th scope="col">{esc(text("site.unit.kind", lang))}</th><th scope="col"></th>'
             f'<th scope="col">{esc(text("site.search_page.kind_chart", lang))}</th></tr></thead><tbody>'
             + "".join(rows) + "</tbody></table></div>")
    main = f"<h1>{esc(title)}</h1><p>{esc(text('site.index.corpus_note', lang))}</p>{table}"
    return page(path, lang, title, main, built=built)


# -- the index and the search page --------------------------------------------


def index_page(lang: Lang, built: Built = None) -> Page:
    """A language's front page: what the site holds, the search, and the table of all 1,440 charts."""
    path = f"{lang}/index.html"
    tables = []
    for key, hour in (("day_table", DAY_HOUR), ("night_table", NIGHT_HOUR)):
        head = "".join(f'<th scope="col">{esc(text("site.index.yuejiang_column", lang, branch=hour + k))}</th>'
                       for k in range(12))
        rows = []
        for day in PILLARS:
            cells = []
            for chart in classical_charts(days=(day,), hours=(hour,)):
                name = chart_name(chart.transmissions, lang)
                cells.append(f"<td>{chart_link(path, lang, chart, name, built, title=chart_label(chart, lang))}</td>")
            anchor = f' id="d-{day}"' if hour is DAY_HOUR else ""
            rows.append(f'<tr{anchor}><th scope="row">{esc(day)}</th>{"".join(cells)}</tr>')
        tables.append(
            f'<h3>{esc(text(f"site.index.{key}", lang))}</h3><div class="table"><table class="grid">'
            f'<thead><tr><th scope="col">{esc(text("site.index.day_column", lang))}</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>'
        )
    links = "".join(
        f'<li><a href="{paths.href(path, f"{lang}/{target}")}">{esc(text(key, lang))}</a></li>'
        for target, key in (("corpus/index.html", "site.corpus"), ("glossary.html", "site.glossary"),
                            ("rules.html", "site.rules"), ("schools.html", "site.schools.title"),
                            ("search.html", "site.search"))
    )
    main = (
        f"<h1>{esc(text('site.name', lang))}</h1><p>{esc(text('site.tagline', lang))}</p><ul>{links}</ul>"
        f'<section id="charts"><h2>{esc(text("site.charts", lang))}</h2>'
        f"<p>{esc(text('site.index.table_note', lang))}</p>{''.join(tables)}</section>"
    )
    return page(path, lang, text("site.home", lang), main, built=built)


def search_page(lang: Lang, built: Built = None) -> Page:
    """The search: a form, the results list, and the scripts that fill it from the index."""
    path = f"{lang}/search.html"
    words = {k: text(f"site.search_page.{k}", lang)
             for k in ("none", "count", "more", "kind_chart", "kind_unit", "kind_term", "kind_day")}
    # a script's text is not HTML-decoded: only "</" could end it early
    data = json.dumps(words, ensure_ascii=False).replace("</", "<\\/")
    main = (
        f"<h1>{esc(text('site.search', lang))}</h1>"
        f'<form id="search" role="search"><label for="q">{esc(text("site.search_page.label", lang))}</label>'
        f'<div class="row"><input id="q" name="q" type="search" autocomplete="off">'
        f'<button type="submit">{esc(text("site.search_page.button", lang))}</button></div></form>'
        f'<noscript><p>{esc(text("site.search_page.noscript", lang))}</p></noscript>'
        f'<p id="count" role="status" aria-live="polite"></p><ol id="results"></ol>'
        f'<script type="application/json" id="search-words">{data}</script>'
    )
    scripts = (f"{paths.ASSETS}/fold.js", f"{lang}/search-index.js", f"{paths.ASSETS}/search.js")
    return page(path, lang, text("site.search", lang), main, scripts=scripts, built=built)


def root_page(built: Built = None) -> Page:
    """The site's root: the languages built, each named in its own."""
    path = "index.html"
    shown = [lang for lang in LANGS if built is None or f"{lang}/" in built]
    links = "".join(
        f'<li><a href="{lang}/index.html" hreflang="{lang}" lang="{lang}">{esc(text("language.name", lang))} — '
        f"{esc(text('site.name', lang))}</a></li>"
        for lang in shown
    )
    first = shown[0] if shown else "ja"
    main = f"<h1>{esc(text('site.name', first))}</h1><ul class=\"languages\">{links}</ul>"
    return page(path, first, text("site.home", first), main, built=built)
