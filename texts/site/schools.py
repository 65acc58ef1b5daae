"""The other schools on the study site (docs/rules.md §10.1): one page listing, for each option,
every classical chart whose 三伝 or method it changes, with the counts of each kind of difference
(a chart's own page lists its alternatives: texts.site.charts)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.alternatives import OPTION_VALUES, Alternative, alternatives
from engine.chart import Chart
from engine.classical import classical_charts
from texts.alternatives import changes, option_words
from texts.site import paths
from texts.site.charts import chart_label, chart_link
from texts.site.frame import Built, Page, esc, page
from texts.words import Lang, text

__all__ = ["KINDS", "Found", "classical_alternatives", "counts", "schools_page"]

# The kinds of difference counted, in the order docs/rules.md §10.1's table gives them.
KINDS = ("transmissions", "method", "generals", "patterns", "tengshe")
Found = tuple[tuple[Chart, tuple[Alternative, ...]], ...]


def classical_alternatives() -> Found:
    """Every classical chart (720 at 午, 720 at 子) with its alternatives (about 0.7 s)."""
    return tuple((chart, alternatives(chart)) for chart in classical_charts())


def counts(found: Found) -> dict[tuple[str, bool | str], dict[str, int]]:
    """For each option at each of its other values: the charts it changes (``charts``) and how many
    it changes in each kind of difference."""
    table: dict[tuple[str, bool | str], dict[str, int]] = {}
    for _, found_here in found:
        for a in found_here:
            row = table.setdefault((a.option, a.value), dict.fromkeys(("charts", *KINDS), 0))
            row["charts"] += 1
            for kind in a.kinds:
                if kind in row:
                    row[kind] += 1
    return table


def schools_page(lang: Lang, found: Found, built: Built = None) -> Page:
    """The page of every option's changes over the classical charts: the counts, then per option the
    charts whose 三伝 or method it changes (each linked, with what changes)."""
    path = paths.schools_path(lang)
    table = counts(found)
    options = [(o, v) for o, values in OPTION_VALUES.items() for v in values[1:] if (o, v) in table]
    heads = "".join(f'<th scope="col">{esc(h)}</th>' for h in (
        text("site.schools.option", lang), text("site.schools.changed", lang),
        *(text(f"alt.kind.{k}", lang) for k in KINDS)))
    rows = "".join(
        f'<tr><th scope="row"><a href="#{o}-{v}">{esc(option_words(o, v, lang))}</a></th>'
        + "".join(f"<td>{table[(o, v)][k]:,}</td>" for k in ("charts", *KINDS)) + "</tr>"
        for o, v in options
    )
    sections = [_option_section(path, lang, o, v, found, built) for o, v in options]
    main = (f"<h1>{esc(text('site.schools.title', lang))}</h1><p>{esc(text('site.schools.intro', lang))}</p>"
            f'<div class="table"><table class="counts"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody>'
            f"</table></div>{''.join(sections)}")
    return page(path, lang, text("site.schools.title", lang), main, built=built)


def _option_section(path: str, lang: Lang, option: str, value: bool | str, found: Found, built: Built) -> str:
    listed: Sequence[tuple[Chart, Alternative]] = [
        (chart, a) for chart, here in found for a in here
        if a.option == option and a.value == value and (a.transmissions is not None or a.method is not None)]
    items = "".join(f"<li>{chart_link(path, lang, chart, chart_label(chart, lang), built)} — "
                    f"{esc(changes(a, lang))}</li>" for chart, a in listed)
    body = f"<ol>{items}</ol>" if listed else f"<p>{esc(text('site.schools.none', lang))}</p>"
    count = text("site.schools.count", lang, count=len(listed))
    return (f'<section id="{option}-{value}"><h2>{esc(option_words(option, value, lang))}</h2>'
            f"<p>{esc(count)}</p>{body}</section>")
