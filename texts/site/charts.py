"""A classical chart's page, in the reader's language: its picture, tables, 課名 and 課体, reading
and trace, and the quotation of a unit as every page shows it.

Every sentence comes from the one presentation layer (texts/reading/sentences.py, texts/render.py,
texts/words/explain.py) or from the site's own words (texts/locales/<lang>/site.toml); the classical
original is shown as written (with the corpus's editorial marks), the seed's Japanese translation
beside it for readers of Japanese and English, and for English readers the project's own
translation, labelled as the project's.
"""

from __future__ import annotations

import re

from engine.alternatives import alternatives
from engine.chart import Chart, cast_classical
from engine.classical import DAY_HOUR, NIGHT_HOUR, plate
from engine.symbols import PILLARS
from texts.alternatives import alternative_line
from texts.corpus import Unit, corpus
from texts.corpus.shown import original, seed_lines, shows_translation, translation, translation_marks
from texts.corpus.translations import english
from texts.picture.svg import chart_svg
from texts.reading import Entry, Reading, Section, read
from texts.reading.sentences import notes, role_label, section_title
from texts.render import derived
from texts.site import paths
from texts.site.frame import ORIGINAL_LANG, SEED_TRANSLATION_LANG, Built, Page, attr, esc, page
from texts.words import Lang, text
from texts.words.explain import chart_name, explain, show


def chart_label(chart: Chart, lang: Lang) -> str:
    """One line naming a classical chart: day, 月将, hour, 晝/夜 and 課名 (as ``liuren find`` prints it)."""
    return text("cli.find_line", lang, day=chart.day, yuejiang=chart.yuejiang, hour=chart.hour,
                time=_time(chart, lang), name=chart_name(chart.transmissions, lang))


def _time(chart: Chart, lang: Lang) -> str:
    return text("noble.day" if chart.generals.daytime else "noble.night", lang)


def chart_link(source: str, lang: Lang, chart: Chart, label: str, built: Built, **extra: str) -> str:
    """A link to ``chart``'s page if the build writes it (a subset build leaves the others as text)."""
    target = paths.chart_path(chart, lang)
    if built is not None and target not in built:
        return esc(label)
    more = "".join(f' {k}="{attr(v)}"' for k, v in extra.items())
    return f'<a href="{paths.href(source, target)}"{more}>{esc(label)}</a>'


def unit_link(source: str, lang: Lang, unit: Unit, label: str) -> str:
    return f'<a href="{paths.href(source, f"{lang}/{paths.unit_page(unit.id)}")}">{esc(label)}</a>'


def _paragraphs(value: str) -> str:
    return "<br>".join(esc(line) for line in value.split("\n"))


def _seed_quotes(marked: str) -> str:
    """An editor's note quotes the seed's Japanese in 「」 (docs/translation.md): mark those words as Japanese."""
    return re.sub(r"「([^」]*)」", rf'「<span lang="{SEED_TRANSLATION_LANG}">\1</span>」', marked)


def quotation(source: str, lang: Lang, unit: Unit, *, heading: str = "") -> str:
    """A unit as the site quotes it: the original, the seed's translation (ja, en), the project's
    English (en), with the unit's lines linked to its page."""
    parts = [f'<p class="cite">{heading}{unit_link(source, lang, unit, seed_lines(unit))}</p>']
    if unit.original:
        parts.append(f'<blockquote class="original" lang="{ORIGINAL_LANG}"><p>{_paragraphs(original(unit, lang))}'
                     "</p></blockquote>")
    # English readers read the project's English first, with its editor's marks, then the seed's
    # Japanese (as texts.corpus.shown.translation_lines orders them for every other output).
    if lang == "en":
        own = english(unit.id)
        if own is not None:
            label = esc(text("site.chart.project_translation", lang))
            parts.append(f'<p class="project-translation"><span class="label">{label}</span> '
                         f"{_paragraphs(own.text)}</p>")
            marks = translation_marks(own, lang)
            parts += [f'<p class="translation-note">{_seed_quotes(esc(mark))}</p>' for mark in marks]
    if shows_translation(lang) and unit.translation:
        label = esc(text("site.chart.seed_translation", lang))
        parts.append(f'<p class="seed-translation"><span class="label">{label}</span> '
                     f'<span lang="{SEED_TRANSLATION_LANG}">{_paragraphs(translation(unit))}</span></p>')
    return "".join(parts)


def _entry(source: str, lang: Lang, entry: Entry) -> str:
    said = notes(entry, lang)
    if entry.unit is None:
        return '<ul class="stated">' + "".join(f"<li>{esc(s)}</li>" for s in said) + "</ul>"
    role = f'<span class="role">{esc(role_label(entry, lang))}</span> '
    quoted = quotation(source, lang, entry.unit, heading=role)
    said_html = '<ul class="said">' + "".join(f"<li>{esc(s)}</li>" for s in said) + "</ul>" if said else ""
    return f'<div class="entry">{quoted}{said_html}</div>'


def _reading(source: str, lang: Lang, reading: Reading) -> str:
    out = []
    for section in Section:
        entries = reading.section(section)
        if not entries:
            continue
        out.append(f'<section class="part"><h3>{esc(section_title(section, lang))}</h3>')
        out.extend(_entry(source, lang, e) for e in entries)
        out.append("</section>")
    return "".join(out)


def _patterns(source: str, lang: Lang, reading: Reading) -> str:
    c = corpus()
    items = []
    for p in reading.patterns.held:
        unit = c.pattern(p.name.name) or c.method(p.name.name)  # 昴星 … are named by their method's verse
        name = show(p.name, lang)
        items.append(f"<li>{unit_link(source, lang, unit, name) if unit is not None else esc(name)}</li>")
    if not items:
        return esc(text("site.chart.patterns_none", lang))
    return '<ul class="inline">' + "".join(items) + "</ul>"


def schools_section(source: str, chart: Chart, lang: Lang) -> str:
    """One line per school option that changes the chart, or the line saying none does; and the
    page of every option's changes."""
    found = alternatives(chart)
    items = ("".join(f"<li>{esc(alternative_line(a, lang))}</li>" for a in found) if found
             else f"<li>{esc(text('alt.none', lang))}</li>")
    link = f'<a href="{paths.href(source, paths.schools_path(lang))}">{esc(text("site.schools.title", lang))}</a>'
    return (f'<section class="schools"><h2>{esc(text("site.schools.heading", lang))}</h2><ul>{items}</ul>'
            f"<p>{link}</p></section>")


def neighbours(chart: Chart) -> tuple[tuple[str, Chart], ...]:
    """The charts a page links to: the previous and next plate, the other of 晝/夜, the previous
    and next day (each with the same plate and time)."""
    k = plate(chart)
    hour = chart.hour
    other = NIGHT_HOUR if chart.generals.daytime else DAY_HOUR
    day = chart.day.index
    return (
        ("previous_plate", cast_classical(chart.day, hour + (k - 1), hour)),
        ("next_plate", cast_classical(chart.day, hour + (k + 1), hour)),
        ("other_time", cast_classical(chart.day, other + k, other)),
        ("previous_day", cast_classical(PILLARS[(day - 1) % 60], hour + k, hour)),
        ("next_day", cast_classical(PILLARS[(day + 1) % 60], hour + k, hour)),
    )


def chart_page(chart: Chart, lang: Lang, built: Built = None) -> Page:
    """The page of a classical chart (cast at 午 or 子): picture, tables, 課名 and 課体, reading, trace."""
    path = paths.chart_path(chart, lang)
    reading = read(chart)
    t = chart.transmissions
    name = chart_name(t, lang)
    title = text("site.chart.title", lang, day=chart.day, hour=chart.hour, yuejiang=chart.yuejiang, name=name)
    method = corpus().method(t.method.name)
    name_html = unit_link(path, lang, method, name) if method is not None else esc(name)
    g = chart.generals
    summary = (
        "<dl class=\"summary\">"
        f"<dt>{esc(text('site.chart.name', lang))}</dt><dd>{name_html}</dd>"
        f"<dt>{esc(text('site.chart.patterns', lang))}</dt><dd>{_patterns(path, lang, reading)}</dd>"
        f"<dt>{esc(text('site.chart.derived', lang))}</dt><dd>"
        + esc(text("render.void_noble", lang, void="".join(map(str, chart.void)), noble=g.noble,
                   daytime=_time(chart, lang),
                   direction=text("noble.clockwise" if g.clockwise else "noble.counter", lang)))
        + "<br>" + esc(" ".join(derived(reading.facts, lang).split())) + "</dd></dl>"
    )
    note = text("site.chart.hour_note", lang, hour=chart.hour, yuejiang=chart.yuejiang, time=_time(chart, lang))
    near = "".join(
        "<li>" + chart_link(path, lang, other,
                            text(f"site.chart.{key}", lang, yuejiang=other.yuejiang, day=other.day,
                                 time=_time(other, lang)), built) + "</li>"
        for key, other in neighbours(chart)
    )
    # The reading says how the 初伝 was taken; the trace section gives only what it leaves unsaid.
    said = {s for entry in (e for section in Section for e in reading.section(section)) for s in notes(entry, lang)}
    trace = "".join(f"<li>{esc(line)}</li>" for line in (explain(w, lang) for w in t.trace) if line not in said)
    trace_html = (f'<section class="trace"><h2>{esc(text("site.chart.trace", lang))}</h2><ol>{trace}</ol></section>'
                  if trace else "")
    main = (
        f"<h1>{esc(title)}</h1>"
        f'<p class="note">{esc(note)}</p>'
        f"{summary}"
        # The one drawing of the plate, lessons and 三傳: its title is the description a screen reader reads.
        f'<figure class="picture">{chart_svg(chart, lang)}</figure>'
        f'<section class="reading"><h2>{esc(text("site.chart.reading", lang))}</h2>'
        f'<p class="reading-title">{esc(text("reading.title", lang))}</p>{_reading(path, lang, reading)}</section>'
        f"{trace_html}"
        f"{schools_section(path, chart, lang)}"
        f'<nav class="neighbours" aria-label="{attr(text("site.chart.neighbours", lang))}">'
        f'<h2>{esc(text("site.chart.neighbours", lang))}</h2><ul>{near}</ul></nav>'
    )
    return page(path, lang, title, main, built=built)
