"""The other schools shown where a chart is shown outside the bot and the terminal (docs/rules.md
§10.1): the picture's caption (its alt text; the pixels keep to the chart), the study site's chart
pages and its page of what each option changes."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import pytest

from engine import cast_classical
from engine.alternatives import alternatives
from engine.classical import classical_charts
from engine.school import School
from texts.alternatives import alternative_line, summary_line
from texts.picture.alt import alt_text
from texts.site.charts import chart_page
from texts.site.schools import KINDS, classical_alternatives, schools_page
from texts.words import Lang, text

LANGS: tuple[Lang, ...] = ("ja", "en", "zh-TW", "zh-CN")


@pytest.mark.parametrize("lang", LANGS)
def test_the_pictures_caption_ends_with_the_other_schools(lang: Lang) -> None:
    changed = cast_classical("丁卯", "子", "子")  # 伏吟: the clash option changes the 三伝
    unchanged = cast_classical("丁卯", "未", "午")
    for chart in (changed, unchanged):
        said = alt_text(chart, lang)
        assert summary_line(chart, lang).rstrip(".。") in said and len(said) <= 1024
    assert summary_line(changed, lang) != summary_line(unchanged, lang)


# -- the study site ---------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
KIND_COLUMNS = {"三伝": "transmissions", "method": "method", "天将": "generals", "課体": "patterns",
                "騰蛇 R3": "tengshe"}


def rules_table() -> dict[tuple[str, str], dict[str, int]]:
    """docs/rules.md §10.1's counts: option (its other value) → charts changed and each kind."""
    lines = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| option (other value) |"))
    heads = [h.strip() for h in lines[start].strip("|").split("|")]
    table = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        option, _, value = cells[0].strip("`").partition("` ")
        row = {"charts": int(cells[1].split()[0].replace(",", ""))}
        for head, cell in zip(heads[2:], cells[2:], strict=True):
            row[KIND_COLUMNS[head]] = 0 if cell == "—" else int(cell.replace(",", ""))
        table[(option, value or "True")] = row
    return table


def page_table(html: str) -> dict[tuple[str, str], dict[str, int]]:
    """The schools page's counts, read back from its table (rows keyed by their anchors)."""
    table = {}
    for anchor, cells in re.findall(r'<tr><th scope="row"><a href="#([^"]+)">.*?</a></th>(.*?)</tr>', html):
        option, value = anchor.rsplit("-", 1)
        numbers = [int(n.replace(",", "")) for n in re.findall(r"<td>([\d,]+)</td>", cells)]
        table[(option, value)] = dict(zip(("charts", *KINDS), numbers, strict=True))
    return table


def test_the_schools_page_counts_what_rules_md_counts_and_casting_under_each_option_gives() -> None:
    found = classical_alternatives()
    html = schools_page("en", found).text
    shown = page_table(html)
    assert shown == rules_table()
    # The 三伝 and method columns, counted again by casting every chart under each option directly.
    for (option, value), row in shown.items():
        school = School(**{option: True if value == "True" else value})
        pairs = [(c, cast_classical(c.day, c.yuejiang, c.hour, school=school)) for c in classical_charts()]
        moved = [c for c, o in pairs if (o.transmissions.branches, o.transmissions.method)
                 != (c.transmissions.branches, c.transmissions.method)]
        branches = sum(1 for c, o in pairs if o.transmissions.branches != c.transmissions.branches)
        methods = sum(1 for c, o in pairs if o.transmissions.method is not c.transmissions.method)
        assert (row["transmissions"], row["method"]) == (branches, methods)
        assert html.count(f'id="{option}-{value}"') == 1
        section = html.split(f'id="{option}-{value}"', 1)[1].split("</section>", 1)[0]
        assert section.count("<li>") == len(moved)  # every chart whose 三伝 or method it changes, listed


@pytest.mark.parametrize("lang", LANGS)
def test_a_chart_page_lists_its_other_schools_and_links_the_page(lang: Lang) -> None:
    for chart in (cast_classical("丁卯", "子", "子"), cast_classical("丁卯", "未", "午")):
        html = chart_page(chart, lang).text
        found = alternatives(chart)
        lines = [alternative_line(a, lang) for a in found] or [text("alt.none", lang)]
        for line in lines:
            assert f"<li>{escape(line, quote=False)}</li>" in html
        assert 'href="../schools.html"' in html
