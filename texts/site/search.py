"""The site's search: a small index per language and the fold table, both as scripts a page loads.

Scripts, not JSON files fetched: a page opened from file:// may not fetch() a neighbouring file,
but it may load a ``<script>``. Each script assigns one JSON value (``window.LIUREN_INDEX``,
``window.LIUREN_FOLD``).

An entry is ``[kind, title, url, names, text]``: ``kind`` one of ``chart``, ``unit``, ``term``,
``day``; ``url`` relative to the language's folder; ``names`` the entry's own names (a chart's day
pillar, 課名, method and 課体; a unit's keys; a glossary term) and ``text`` everything else it is
found by (a unit's original, translation and, in English, the project's translation), both folded
here by :func:`fold` — ``texts.corpus.normalize.normalize``, the lookups' own folding, then lower case.
The browser folds only the query, with the same table (:func:`fold_table`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from engine.chart import Chart
from engine.symbols import PILLARS
from texts.corpus import Unit, corpus
from texts.corpus.normalize import fold_char, normalize
from texts.corpus.translations import english
from texts.reading import Reading
from texts.site import paths
from texts.site.charts import chart_label
from texts.site.reference import Term
from texts.words import Lang, corpus_name, term, text
from texts.words.explain import chart_name

Entry = list[str]
# The characters whose folded form differs from themselves: the CJK blocks a reader types in
# (radicals, symbols and punctuation, kana, the unified ideographs with extension A, the
# compatibility ideographs, and extensions B onwards). NFKC the browser does itself.
_FOLDED_BLOCKS = ((0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FA1F))


def fold(value: str) -> str:
    """How the index and the query compare: ``normalize`` (NFKC, no white space, 繁/简/日 folded), lower case."""
    return normalize(value).lower()


def fold_table() -> dict[str, str]:
    """Every character of the CJK blocks whose fold (``texts.corpus.normalize.fold_char``) is another."""
    table: dict[str, str] = {}
    for low, high in _FOLDED_BLOCKS:
        for code in range(low, high + 1):
            ch = chr(code)
            folded = fold_char(ch)
            if folded != ch:
                table[ch] = folded
    return table


def _names(values: Iterable[str]) -> str:
    return "\n".join(dict.fromkeys(fold(v) for v in values if v))


def chart_entry(chart: Chart, reading: Reading, lang: Lang) -> Entry:
    """A chart is found by its day pillar, 課名 (method and frame) and 課体, in any script."""
    t = chart.transmissions
    held = [p.name for p in reading.patterns.held]
    title = chart_label(chart, lang)
    if held:  # the 課体 in the reader's script, joined as the reader's lists are
        title += " — " + text("list.sep", lang).join(term(p, lang) for p in held)
    names = [str(chart.day), chart_name(t, lang), t.method.name, *((t.frame.name,) if t.frame else ()),
             *(p.name for p in held), *(term(p, lang) for p in held)]
    return ["chart", title, paths.chart_page(chart), _names(names), fold(title)]


def unit_entry(unit: Unit, lang: Lang) -> Entry:
    """A unit is found by its keys and aliases, and by its whole text."""
    excerpt = unit.display_original or unit.display_translation
    title = f"{unit.id} — {excerpt[:48]}{'…' if len(excerpt) > 48 else ''}"
    keys = [*unit.keys, *unit.aliases]
    shown = [corpus_name(k, lang) for k in keys]
    texts = [unit.original, unit.translation, unit.display_original, unit.display_translation]
    own = english(unit.id) if lang == "en" else None
    if own is not None:
        texts.append(own.text)
    return ["unit", title, paths.unit_page(unit.id), _names([unit.id, *keys, *shown]), fold("\n".join(texts))]


def term_entries(rows: Sequence[Term]) -> list[Entry]:
    """The glossary's terms: found by their form in any of the four languages."""
    out = []
    for row in rows:
        others = [f for f in dict.fromkeys(row.forms) if f != row.shown]
        title = row.shown + (f" — {' / '.join(others)}" if others else "")
        out.append(["term", title, f"glossary.html#{row.anchor}", _names([row.shown, *row.forms]), ""])
    return out


def day_entries() -> list[Entry]:
    """The sixty day pillars, each leading to its row of the chart table."""
    return [["day", str(d), f"index.html#d-{d}", _names([str(d)]), ""] for d in PILLARS]


def index(lang: Lang, charts: Sequence[tuple[Chart, Reading]], rows: Sequence[Term]) -> list[Entry]:
    """The whole index of a language, in the order results are listed within a rank."""
    return [
        *(chart_entry(c, r, lang) for c, r in charts),
        *(unit_entry(u, lang) for u in corpus().units),
        *term_entries(rows),
        *day_entries(),
    ]


def script(name: str, value: object) -> str:
    """``window.<name> = <value as JSON>;``: deterministic (keys in the order given, no spaces)."""
    return f"window.{name}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))};\n"
