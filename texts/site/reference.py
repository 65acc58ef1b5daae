"""The glossary and the casting rules as pages for readers, in each language, from the project's
words (texts/locales): the terms in the forms every language writes them, and the rules told in
the reader's language. No code names: docs/glossary.md and docs/rules.md are the developers' pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from texts.corpus import Unit, corpus
from texts.corpus.shown import seed_lines
from texts.site.charts import unit_link
from texts.site.frame import Built, Page, esc, page
from texts.words import LANGS, Lang, english_name, text, words


@dataclass(frozen=True, slots=True)
class Term:
    """A glossary row: its anchor, its form for the reader, and its forms in every language."""

    anchor: str
    shown: str
    forms: tuple[str, ...]  # in the order of LANGS


# The groups of proper names whose English form is the project's English name (texts/english.toml).
NAMED = ("General", "Method", "Frame", "PatternName")

# The glossary's groups: a table of terms.toml each (a term listed under its first group only).
GROUPS = ("General", "Position", "Method", "Frame", "PatternName", "Kin", "Vigour", "Element", "Rank",
          "Polarity", "Relation", "Seat", "Role", "Input", "Sex", "solar_term")

# The rules page's sections, in order (each a title and paragraphs in site.rules_page).
SECTIONS = ("moment", "plate", "lessons", "transmissions", "generals", "school-options")


def _keys(group: str) -> list[str]:
    prefix = f"{group}." if group == "solar_term" else f"term.{group}."
    return [k.removeprefix(prefix) for k in words()["ja"] if k.startswith(prefix)]


def _form(group: str, key: str, lang: Lang) -> str:
    """A term as a reader of ``lang`` writes it: in English, a proper name by the project's English
    name ("the Soaring Serpent"), as the translation and the bot's glosses call it."""
    if lang == "en" and group in NAMED and (english := english_name(key)) is not None:
        return english
    return text(f"{group}.{key}" if group == "solar_term" else f"term.{group}.{key}", lang)


def terms(lang: Lang) -> list[tuple[str, list[Term]]]:
    """The glossary's groups, each with its terms (a term once, in its first group)."""
    seen: set[str] = set()
    out = []
    for group in GROUPS:
        rows = []
        for key in _keys(group):
            if key in seen:
                continue
            seen.add(key)
            forms = tuple(_form(group, key, other) for other in LANGS)
            rows.append(Term(f"term-{key}", _form(group, key, lang), forms))
        out.append((group, rows))
    return out


def _unit(group: str, key: str) -> Unit | None:
    c = corpus()
    if group == "General":
        return c.general(key)
    if group in ("Method", "Frame", "PatternName"):
        return c.pattern(key) or c.method(key)
    return None


def glossary_page(lang: Lang, built: Built = None) -> Page:
    """The terms, grouped, each in the reader's form and in the four languages' forms, linked to the
    line of the 《心印賦》 that speaks of it."""
    path = f"{lang}/glossary.html"
    order = (lang, *(other for other in LANGS if other != lang))  # the reader's own form heads each row
    head = "".join(f'<th scope="col" lang="{other}">{esc(text("language.name", other))}</th>' for other in order)
    head += f'<th scope="col">{esc(text("site.glossary_page.text", lang))}</th>'
    parts = [f"<h1>{esc(text('site.glossary', lang))}</h1><p>{esc(text('site.glossary_page.intro', lang))}</p>"]
    for group, rows in terms(lang):
        body = []
        for row in rows:
            key = row.anchor.removeprefix("term-")
            unit = _unit(group, key)
            forms = dict(zip(LANGS, row.forms, strict=True))
            cells = "".join(f'<td lang="{other}">{esc(forms[other])}</td>' for other in order[1:])
            link = unit_link(path, lang, unit, seed_lines(unit)) if unit is not None else ""
            body.append(f'<tr id="{row.anchor}"><th scope="row">{esc(row.shown)}</th>{cells}<td>{link}</td></tr>')
        parts.append(
            f'<section id="{group.lower()}"><h2>{esc(text(f"site.glossary_page.{group}", lang))}</h2>'
            f'<div class="table"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}'
            "</tbody></table></div></section>"
        )
    return page(path, lang, text("site.glossary", lang), "".join(parts), built=built)


def rules_page(lang: Lang, built: Built = None) -> Page:
    """How a chart is cast, told for readers: the moment, the plate, the lessons, the 三傳, the
    generals and the school options, each a section with its anchor."""
    path = f"{lang}/rules.html"
    parts = [f"<h1>{esc(text('site.rules', lang))}</h1><p>{esc(text('site.rules_page.intro', lang))}</p>"]
    for section in SECTIONS:
        key = section.replace("-", "_")
        paragraphs = "".join(f"<p>{esc(p)}</p>" for p in text(f"site.rules_page.{key}", lang).split("\n\n"))
        parts.append(f'<section id="{section}"><h2>{esc(text(f"site.rules_page.{key}_title", lang))}</h2>'
                     f"{paragraphs}</section>")
    return page(path, lang, text("site.rules", lang), "".join(parts), built=built)
