"""The study site, without a browser: page paths, a deterministic build, links that
resolve, the search index folded as the lookups fold, and the pages' content.

The builds here are subsets (``days=``): a subset links only to the chart pages it writes, so
every link of it must resolve. tests/test_site_browser.py loads the pages in chromium.
"""

from __future__ import annotations

import html
import json
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from engine import cast, cast_classical
from engine.classical import HOURS, classical_charts, classical_of
from engine.generals import is_daytime
from engine.symbols import BRANCHES, PILLARS
from texts.cli import main as cli
from texts.cli.find import find_charts
from texts.corpus import corpus
from texts.corpus.normalize import normalize
from texts.corpus.scripts import foreign
from texts.reading import read
from texts.site import chart_path, chart_url
from texts.site import paths as site_paths
from texts.site.build import SiteError, build, parse_days
from texts.site.search import fold, fold_table, index
from texts.words import LANGS, Lang, english_name, text, words
from texts.words.explain import explain

# One worker builds this module's site (a module fixture) once: pytest-xdist's --dist loadfile. Slow,
# for it builds the study site; `pytest -m "not slow"` leaves it to the full suite.
pytestmark = pytest.mark.slow

SUBSET = ("丁丑", "甲子")  # 丁丑 holds the one 冬蛇掩目 chart (docs/rules.md §7); 甲子 the first day


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    build(root, days=parse_days(",".join(SUBSET)), base_url="https://example.org/liuren/", progress=lambda _: None)
    return root


# -- paths -------------------------------------------------------------------------------------


def test_the_1440_classical_charts_have_1440_pages_per_language() -> None:
    charts = list(classical_charts(cast_classical("甲子", "子", "子").school))
    for lang in LANGS:
        found = {chart_path(c, lang) for c in charts}
        assert len(found) == 1440
        assert all(p.startswith(f"{lang}/chart/") and p.isascii() for p in found)
    assert chart_path(cast_classical("丁丑", "卯", "午"), "ja") == "ja/chart/d13-y03-h06.html"


def test_a_chart_at_any_hour_has_the_page_of_its_classical_chart() -> None:
    """Same day, plate and 晝/夜 → the same page, whose chart has the same lessons, 三伝 and generals."""
    for day in ("甲子", "丁丑", "癸亥"):
        for hour in BRANCHES:
            for k in (0, 5, 6, 9):
                chart = cast_classical(day, hour + k, hour)
                shown = classical_of(chart)
                assert chart_path(chart, "en") == chart_path(shown, "en")
                assert shown.hour in (HOURS)
                assert is_daytime(shown.hour) == is_daytime(hour)
                assert shown.lessons == chart.lessons
                assert shown.transmissions.branches == chart.transmissions.branches
                assert [s.general for s in shown.steps] == [s.general for s in chart.steps]


def test_a_moment_has_its_page_and_url() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    chart = cast(datetime(2026, 11, 29, 14, 0, tzinfo=ZoneInfo("Asia/Tokyo")))
    path = chart_path(chart, "zh-CN")
    assert path == chart_path(classical_of(chart), "zh-CN")
    assert chart_url(chart, "zh-CN", "https://example.org/x/") == f"https://example.org/x/{path}"
    assert chart_url(chart, "zh-CN", "https://example.org/x") == f"https://example.org/x/{path}"


def test_site_path_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["site", "path", "--day", "丁丑", "--yuejiang", "卯", "--hour", "午", "--lang", "en"]) == 0
    assert capsys.readouterr().out == "en/chart/d13-y03-h06.html\n"
    assert cli(["site", "path", "--day", "丁丑", "--yuejiang", "巳", "--hour", "申", "--lang", "en"]) == 0
    assert capsys.readouterr().out == "en/chart/d13-y03-h06.html\n"  # the same plate at another 晝 hour
    assert cli(["site", "path", "--at", "2026-11-29 14:00", "--tz", "Asia/Tokyo"]) == 0
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(r"ja/chart/d\d\d-y\d\d-h(00|06)\.html", out)
    assert cli(["site", "path", "--day", "丁丑"]) == 2
    assert "missing: --yuejiang, --hour" in capsys.readouterr().err
    assert cli(["site", "path", "--day", "丁丑", "--yuejiang", "卯", "--hour", "午", "--at", "now"]) == 2
    assert cli(["site", "path", "--day", "甲丑", "--yuejiang", "卯", "--hour", "午"]) == 2  # no such pillar


def test_only_days_names_a_bad_pillar() -> None:
    assert parse_days("乙丑, 甲子") == (PILLARS[0], PILLARS[1])
    with pytest.raises(SiteError, match="甲丑"):
        parse_days("甲子,甲丑")


def test_a_build_refuses_a_directory_holding_other_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SiteError, match="not empty"):
        build(tmp_path, ["ja"], days=parse_days("甲子"), progress=lambda _: None)
    assert (tmp_path / "notes.txt").read_text() == "mine"  # nothing lost


# -- determinism -------------------------------------------------------------------------------


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.slow  # over a second on the project's machine
def test_the_same_input_builds_the_same_bytes(tmp_path: Path) -> None:
    """Twice, once by a pool of two and once in one process, and once over the first build."""
    days = parse_days("丙寅")
    lines: list[str] = []
    first = build(tmp_path / "a", ["ja", "en"], days=days, workers=2, progress=lines.append)
    build(tmp_path / "b", ["ja", "en"], days=days, workers=1, progress=lambda _: None)
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert a.keys() == b.keys()
    assert [name for name in a if a[name] != b[name]] == []
    assert first.pages == len([n for n in a if n.endswith(".html")]) and first.size == sum(map(len, a.values()))
    assert lines and lines[-1].startswith("site: chart pages 48/48")
    build(tmp_path / "a", ["ja", "en"], days=days, progress=lambda _: None)  # over an earlier site
    assert _files(tmp_path / "a") == a


# -- links -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Parsed:
    links: list[str]
    ids: set[str]
    lang: str | None


_ATTR = re.compile(r'<(\w+)\b([^>]*)>')
_VALUE = re.compile(r'\s(href|src|id|lang)="([^"]*)"')


def parse(path: Path) -> Parsed:
    """The links (href, src; not a form's action), the ids and the <html lang> of a page the site wrote
    (its attributes are always double-quoted)."""
    links: list[str] = []
    ids: set[str] = set()
    lang = None
    for tag, attrs in _ATTR.findall(path.read_text(encoding="utf-8")):
        for name, value in _VALUE.findall(attrs):
            value = html.unescape(value)
            if name == "id":
                ids.add(value)
            elif name == "lang":
                lang = value if tag == "html" else lang
            else:
                links.append(value)
    return Parsed(links, ids, lang)


@pytest.mark.slow  # over a second on the project's machine
def test_every_internal_link_resolves(site: Path) -> None:
    # Each page is read and parsed once (its links, and its ids for the links into it), and each
    # distinct (folder, path) is resolved once, as text (os.path is what Path.resolve calls): the
    # pages of a folder link to the same pages, some 15,000 links to some 5,000 targets.
    parsed = [(page, os.path.realpath(page), parse(page)) for page in sorted(site.rglob("*.html"))]
    ids = {here: found.ids for _, here, found in parsed}
    broken = []
    count = 0
    exists: dict[str, bool] = {}
    resolved: dict[tuple[str, str], str] = {}
    for page, here, found in parsed:
        for link in found.links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto"):
                continue
            count += 1
            target = here
            if parts.path:
                key = (os.path.dirname(here), unquote(parts.path))
                if key not in resolved:
                    resolved[key] = os.path.realpath(os.path.join(*key))
                target = resolved[key]
            if target not in exists:
                exists[target] = os.path.isfile(target)
            if not exists[target]:
                broken.append((page.relative_to(site).as_posix(), link))
                continue
            if parts.fragment and os.path.splitext(target)[1] == ".html":
                if target not in ids:  # not a page of the site's own
                    ids[target] = parse(Path(target)).ids
                if unquote(parts.fragment) not in ids[target]:
                    broken.append((page.relative_to(site).as_posix(), link))
    assert count > 15000
    assert broken == []


def test_external_links_are_only_links(site: Path) -> None:
    """No page loads anything from elsewhere: scripts, styles and pictures are the site's own."""
    for page in sorted(site.rglob("*.html"))[:200]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(script|link|img|iframe)[^>]+(src|href)="(https?:)?//', text.replace(
            '<link rel="canonical" href="https://example.org/', "")), page


# -- the search index --------------------------------------------------------------------------


def _script_value(path: Path, name: str) -> object:
    text = path.read_text(encoding="utf-8")
    prefix = f"window.{name}="
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix) : -2])


def js_fold(table: dict[str, str], value: str) -> str:
    """What assets/search.js does with a query (NFKC, no white space, the table, lower case)."""
    plain = re.sub(r"\s+", "", unicodedata.normalize("NFKC", value))
    return "".join(table.get(ch, ch) for ch in plain).lower()


def test_the_fold_table_folds_as_the_lookups_fold(site: Path) -> None:
    table = _script_value(site / "assets" / "fold.js", "LIUREN_FOLD")
    assert isinstance(table, dict) and table == fold_table()
    samples = ["三傳 三传 三伝", "青龍 青龙 青竜", "騰蛇 腾蛇", "鑄印 铸印 鋳印", "遙克 遥剋", "八專 八专 八専"]
    samples.append("Azure ＤＲＡＧＯＮ")
    samples += [t for u in corpus().units for t in (u.original, u.translation)]
    for value in samples:
        assert js_fold(table, value) == normalize(value).lower(), value[:20]
    assert js_fold(table, "腾蛇") == js_fold(table, "騰蛇") and js_fold(table, "铸印") == js_fold(table, "鋳印")


def _search(entries: list[list[str]], query: str) -> list[list[str]]:
    needle = fold(query)
    return [e for e in entries if needle in e[3] or needle in e[4]]


def test_the_index_holds_every_text_folded(site: Path) -> None:
    for lang in LANGS:
        entries = _script_value(site / lang / "search-index.js", "LIUREN_INDEX")
        assert isinstance(entries, list)
        kinds = [e[0] for e in entries]
        assert kinds.count("chart") == 48 and kinds.count("unit") == len(corpus().units) and kinds.count("day") == 60
        assert kinds.count("term") > 120  # the glossary's rows
        for kind, _title, url, names, hay in entries:
            assert names == "\n".join(dict.fromkeys(fold(n) for n in names.split("\n")))  # folded: a fixed point
            assert hay == fold(hay)
            if kind in ("chart", "unit"):
                assert (site / lang / unquote(url)).is_file()
        units = {e[2]: e for e in entries if e[0] == "unit"}
        for u in corpus().units:
            entry = units[site_paths.unit_page(u.id)]
            assert fold(u.original) in entry[4] and fold(u.translation) in entry[4]
        # any script finds the same: the simplified and the Japanese forms of a name
        assert _search(entries, "腾蛇") == _search(entries, "騰蛇") == _search(entries, "腾蛇".upper())
        assert len(_search(entries, "铸印")) == len(_search(entries, "鋳印")) > 0


def test_one_chart_in_all_1440_is_found_for_冬蛇掩目() -> None:
    readings = [(c, read(c)) for c in classical_charts(cast_classical("甲子", "子", "子").school)]
    for lang in ("ja", "zh-CN"):
        charts = [e for e in index(lang, readings, []) if e[0] == "chart" and fold("冬蛇掩目") in e[3].split("\n")]
        assert [e[2] for e in charts] == ["chart/d13-y03-h06.html"]


# -- the pages ---------------------------------------------------------------------------------


def test_every_page_says_its_language(site: Path) -> None:
    for lang in LANGS:
        for page in sorted((site / lang).rglob("*.html"))[:120]:
            assert parse(page).lang == lang, page
    assert parse(site / "index.html").lang == "ja"


def test_a_chart_page_has_everything_the_issue_lists(site: Path) -> None:
    chart = cast_classical("丁丑", "卯", "午")
    reading = read(chart)
    for lang in LANGS:
        page = (site / chart_path(chart, lang)).read_text(encoding="utf-8")
        assert '<svg class="chart-picture"' in page and 'role="img"' in page
        assert re.search(r'<title id="picture-alt">[^<]{200,}</title>', page)  # the alt text
        assert page.count("<svg") == 1 and "<table" not in page  # the chart drawn once, not beside tables of it
        assert page.count('class="entry"') >= len(reading.units())
        for unit in reading.units():
            assert f"../corpus/{site_paths.href('x', unit.id)}.html" in page  # every quoted unit linked
        assert 'href="../corpus/pattern.%E5%86%AC%E8%9B%87%E6%8E%A9%E7%9B%AE.html"' in page  # 冬蛇掩目
        for why in chart.transmissions.trace:  # the trace, said once (in the reading's method section)
            assert page.count(html.escape(explain(why, lang), quote=False)) == 1, why
        assert page.count("<li>") > 10
        assert 'href="d13-y02-h06.html"' in page and 'href="d13-y04-h06.html"' in page  # neighbouring plates
        assert 'href="d13-y09-h00.html"' in page  # the 夜 chart of the same plate
        assert ('<span lang="ja">' in page) is (lang in ("ja", "en"))  # the seed's Japanese for ja and en only
    english = (site / chart_path(chart, "en")).read_text(encoding="utf-8")
    assert english.count("the project&#x27;s translation") + english.count("the project's translation") >= len(
        reading.units()) - 1


def _said(page: str) -> list[str]:
    """What a chart page says outside its quotations, its drawing and its navigation: the text of
    each list item and summary cell (the reading's sentences, the trace, the 課名 and 課体)."""
    main = page[page.index("<main"):page.index("</main>")]
    main = re.sub(r"<svg.*?</svg>|<nav .*?</nav>", " ", _QUOTED.sub(" ", main), flags=re.S)
    found = re.findall(r"<(li|dd)\b[^>]*>(.*?)</\1>", main, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", body)).strip() for _, body in found]


def test_a_chart_page_says_each_thing_once(site: Path) -> None:
    """The trace is not said again under the reading that gives it; an undecided 課体 (龍首 on every
    甲子 chart: the year and month are not known) is said once, with its reason, in the reading."""
    charts = [c for c in classical_charts(cast_classical("甲子", "子", "子").school) if str(c.day) in SUBSET]
    undecided = 0
    for chart in charts:
        for lang in LANGS:
            page = (site / chart_path(chart, lang)).read_text(encoding="utf-8")
            label = text("reading.stated", lang)  # the mark of each fact stated from the chart, not a line
            said = [line for line in _said(page) if line and line != label]
            twice = sorted({line for line in said if said.count(line) > 1 and len(line) > 12})
            assert twice == [], (chart_path(chart, lang), twice)
            for u in read(chart).patterns.undecided:
                undecided += 1
                reason = explain(u.why, lang, with_seed=False)
                assert sum(line.count(reason) for line in said) == 1, (chart_path(chart, lang), u.name)
    assert undecided > 0


def test_a_unit_page_lists_the_charts_that_quote_it(site: Path) -> None:
    charts = [c for c in classical_charts(cast_classical("甲子", "子", "子").school) if str(c.day) in SUBSET]
    for unit_id in ("general.玄武", "pattern.冬蛇掩目", "method.昴星", "procedure.相因"):
        want = [chart_path(c, "ja") for c in charts if any(u.id == unit_id for u in read(c).units())]
        page = site / "ja" / site_paths.unit_page(unit_id)
        links = [
            (page.parent / unquote(link)).resolve().relative_to(site.resolve()).as_posix()
            for link in parse(page).links
            if "/chart/" in link
        ]
        assert want and sorted(links) == sorted(want), unit_id
    shown = (site / "ja" / site_paths.unit_page("pattern.冬蛇掩目")).read_text(encoding="utf-8")
    assert "この句を引く課（1）" in shown
    # the same count as `liuren find`, over all 1,440 (one chart)
    assert re.match(r"冬蛇掩目: 1 課", find_charts("冬蛇掩目", cast_classical("甲子", "子", "子").school, "ja")[-1])


def test_the_site_words_are_in_the_readers_script() -> None:
    for lang in ("zh-TW", "zh-CN", "en"):
        wrong = {k: foreign(v, lang) for k, v in words()[lang].items() if k.startswith("site.") and foreign(v, lang)}
        assert wrong == {}


# the seed's words, and the other languages' names in their own (each marked with its lang)
_QUOTED = re.compile(r'<blockquote class="original".*?</blockquote>|<span lang="ja">.*?</span>'
                     r'|<a [^>]*\slang="[^"]+"[^>]*>.*?</a>', re.S)


@pytest.mark.parametrize("lang", ["zh-TW", "zh-CN", "en"])
def test_what_the_pages_say_is_in_the_readers_script(site: Path, lang: Lang) -> None:
    """Outside the seed's own words (the original, its Japanese translation), a chart page (its
    picture's description too), the index and the search index speak the reader's script: no
    kana, no Japanese-only forms, no traditional forms in simplified Chinese."""
    charts = [chart_path(cast_classical(*inputs), lang) for inputs in (("丁丑", "卯", "午"), ("甲子", "亥", "子"))]
    for name in (*charts, f"{lang}/index.html", f"{lang}/search.html"):
        page = (site / name).read_text(encoding="utf-8")
        shown = html.unescape(re.sub(r"<[^>]+>", " ", _QUOTED.sub(" ", page)))
        assert foreign(shown, lang) == "", name
    entries = _script_value(site / lang / "search-index.js", "LIUREN_INDEX")
    assert isinstance(entries, list)
    assert foreign(" ".join(e[1] for e in entries if e[0] == "chart"), lang) == ""


_OTHER_LANGS = re.compile(r'<(td|th)\s+(?:scope="col"\s+)?lang="[^"]+">.*?</\1>', re.S)


def test_the_glossary_and_the_rules_are_written_for_each_languages_readers(site: Path) -> None:
    """Not the developers' English documents on every language's pages: no code names, the page in
    the reader's language (the other languages' forms of a term marked as theirs), every term of
    the project's words with its anchor, and every section of the rules with its own."""
    from texts.site.reference import SECTIONS, terms

    for lang in LANGS:
        for name in ("glossary", "rules"):
            page = (site / lang / f"{name}.html").read_text(encoding="utf-8")
            assert parse(site / lang / f"{name}.html").lang == lang
            assert not re.search(r"<code>|engine/|texts/|\.py\b|School\.|General\.", page), (lang, name)
            if lang != "ja":
                shown = html.unescape(re.sub(r"<[^>]+>", " ", _OTHER_LANGS.sub(" ", _QUOTED.sub(" ", page))))
                assert foreign(shown, lang) == "", (lang, name)
        rules = (site / lang / "rules.html").read_text(encoding="utf-8")
        assert set(SECTIONS) <= parse(site / lang / "rules.html").ids and "school-options" in SECTIONS
        assert html.escape(text("site.rules_page.school_options_title", lang), quote=False) in rules
        glossary = site / lang / "glossary.html"
        rows = [t for _, group in terms(lang) for t in group]
        assert len(rows) > 120 and {t.anchor for t in rows} <= parse(glossary).ids
        snake = english_name("騰蛇") if lang == "en" else text("term.General.騰蛇", lang)  # English: its English name
        assert f'<th scope="row">{html.escape(snake or "", quote=False)}</th>' in (
            glossary.read_text(encoding="utf-8"))


def test_languages_of_the_build_can_be_chosen(tmp_path: Path) -> None:
    summary = build(tmp_path, ["en"], days=parse_days("甲子"), progress=lambda _: None)
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["assets", "en"]
    assert summary.pages == 1 + 6 + len(corpus().units) + 24  # root; index, search, corpus, rules, glossary, schools
    lang: Lang = "en"
    assert (tmp_path / chart_path(cast_classical("甲子", "子", "子"), lang)).is_file()


def test_an_english_quotation_gives_the_projects_english_and_its_marks_before_the_seeds_japanese() -> None:
    """English readers read the original, then the project's English with its editor's marks, then
    the seed's Japanese (the order of texts.corpus.shown.translation_lines), on the site as elsewhere."""
    from texts.corpus import corpus
    from texts.corpus.translations import english
    from texts.site.charts import quotation

    unit = corpus().get("general.騰蛇")
    own = english(unit.id)
    assert own is not None and own.notes
    page = quotation("en/chart/x.html", "en", unit)
    original_at = page.index('class="original"')
    english_at = page.index(html.escape(own.text[:30]))
    note_at = page.index('class="translation-note"')
    japanese_at = page.index('class="seed-translation"')
    assert original_at < english_at < note_at < japanese_at
    assert page.count('class="translation-note"') == len(own.notes)
    assert "project-translation" not in quotation("ja/chart/x.html", "ja", unit)
