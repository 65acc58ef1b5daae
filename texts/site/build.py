"""``liuren site build DIR``: write the whole study site, deterministically, with a progress line.

The 5,760 chart pages (1,440 charts × 4 languages) are the cost; they are written by a pool of
processes, a day's 24 charts a task. Everything else (index, search, corpus, glossary, rules) is
written by the main process from the same readings and the project's words: a build needs only
what the installed package holds. The same input gives the same bytes: nothing
depends on the clock, the machine or the order tasks finish in.

A build writes into an empty directory or over an earlier build (which it removes first: it marks
its directories with ``.liuren-site``); it refuses a directory holding anything else.
"""

from __future__ import annotations

import base64
import multiprocessing
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape as xml_escape

from engine import classical
from engine.chart import Chart
from engine.symbols import PILLARS, Pillar
from texts.corpus import corpus
from texts.picture.fonts import LICENCE_FILE, font_bytes
from texts.picture.svg import FONT_FAMILY, theme_css
from texts.reading import Reading, read
from texts.site import charts, frame, pages, paths, reference, schools, search
from texts.words import LANGS, Lang

MARKER = ".liuren-site"


class SiteError(ValueError):
    """The site cannot be built as asked (the message says what to change)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """What a build wrote."""

    pages: int
    files: int
    size: int  # bytes
    seconds: float


def classical_charts(days: Sequence[Pillar]) -> list[Chart]:
    """The classical charts of ``days``: each day's 12 plates at 午 (晝), then at 子 (夜)."""
    return [chart for day in days for chart in classical.classical_charts(days=(day,))]


def parse_days(value: str) -> tuple[Pillar, ...]:
    """``甲子,乙丑`` → those pillars, in the sexagenary order; SiteError naming a bad one."""
    wanted = [v.strip() for v in value.split(",") if v.strip()]
    known = {str(p): p for p in PILLARS}
    bad = [w for w in wanted if w not in known]
    if bad or not wanted:
        raise SiteError(f"--only-days: {', '.join(bad) or value!r} is not a day pillar (give e.g. 甲子,乙丑)")
    return tuple(p for p in PILLARS if str(p) in wanted)


def _write(root: Path, page: frame.Page, base_url: str | None) -> int:
    body = page.text
    if base_url is not None:
        canonical = f'<link rel="canonical" href="{frame.attr(base_url.rstrip("/") + "/" + page.path)}">\n'
        body = body.replace("</head>", canonical + "</head>", 1)
    target = root / page.path
    target.parent.mkdir(parents=True, exist_ok=True)
    data = body.encode("utf-8")
    target.write_bytes(data)
    return len(data)


def _chart_task(root: str, day: int, langs: tuple[Lang, ...], built: frozenset[str], base_url: str | None) -> int:
    """Write one day's chart pages in every language (run in a worker process)."""
    written = 0
    for chart in classical_charts((PILLARS[day],)):
        for lang in langs:
            _write(Path(root), charts.chart_page(chart, lang, built), base_url)
            written += 1
    return written


def _stylesheet() -> str:
    css = (resources.files("texts.site") / "static" / "style.css").read_text(encoding="utf-8")
    faces = "".join(
        f"@font-face{{font-family:{FONT_FAMILY};font-weight:{w};font-display:block;"
        f"src:url(data:font/otf;base64,{base64.b64encode(font_bytes(weight)).decode()}) format(\"opentype\")}}\n"
        for weight, w in (("regular", 400), ("bold", 700))
    )
    note = "\n/* The chart picture: texts.picture.THEMES and the shipped font (texts/fonts) */\n"
    return css + note + theme_css() + "\n" + faces


def _prepare(root: Path) -> None:
    if root.exists() and not root.is_dir():
        raise SiteError(f"{root} is a file: give a directory for the site")
    if root.exists() and any(root.iterdir()):
        if not (root / MARKER).exists():
            raise SiteError(f"{root} is not empty and holds no earlier site ({MARKER}): give an empty or new directory")
        for child in sorted(root.iterdir()):
            if child.is_dir():
                shutil.rmtree(child)
            else:
                child.unlink()
    root.mkdir(parents=True, exist_ok=True)
    (root / MARKER).write_bytes(_MARKED)


_MARKED = b"written by liuren site build; the next build replaces everything here\n"


class Progress:
    """One line on stderr, rewritten in place on a terminal, every 10 % elsewhere."""

    def __init__(self, total: int, out: Callable[[str], None] | None) -> None:
        self.total, self.done, self.start, self.out = total, 0, time.perf_counter(), out
        self.shown = -1
        self.tty = out is None and sys.stderr.isatty()

    def add(self, count: int) -> None:
        self.done += count
        tenth = self.done * 10 // max(self.total, 1)
        line = f"site: chart pages {self.done}/{self.total} ({time.perf_counter() - self.start:.0f} s)"
        if self.out is not None:
            if tenth != self.shown:
                self.out(line)
        elif self.tty:
            print("\r" + line, end="", file=sys.stderr, flush=True)
        elif tenth != self.shown:
            print(line, file=sys.stderr, flush=True)
        self.shown = tenth

    def end(self) -> None:
        if self.tty and self.out is None:
            print(file=sys.stderr)


def build(
    out: Path | str,
    langs: Iterable[Lang] = LANGS,
    *,
    base_url: str | None = None,
    days: Sequence[Pillar] = PILLARS,
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Summary:
    """Write the site into ``out``: per language an index, the chart pages of ``days`` (all 60 by
    default), a page per corpus unit, the glossary, the rules and the search; at the root the
    language list, the shared assets and (with ``base_url``) a sitemap. ``progress`` receives the
    progress lines (default: stderr). SiteError for an unusable directory."""
    start = time.perf_counter()
    chosen = tuple(lang for lang in LANGS if lang in set(langs))
    if not chosen:
        raise SiteError(f"no language to build: give --lang among {', '.join(LANGS)}")
    root = Path(out)
    _prepare(root)

    charts = classical_charts(days)
    readings: list[tuple[Chart, Reading]] = [(c, read(c)) for c in charts]
    quoting: dict[str, list[Chart]] = {u.id: [] for u in corpus().units}
    for chart, reading in readings:
        for unit in reading.units():
            quoting[unit.id].append(chart)
    folders = frozenset(f"{lang}/" for lang in chosen)
    built_all = {lang: folders | {paths.chart_path(c, lang) for c in charts} for lang in chosen}

    size, files, count = len(_MARKED), 1, 0

    def put(page: frame.Page) -> None:
        nonlocal size, files, count
        size += _write(root, page, base_url)
        files += 1
        count += 1

    def put_file(name: str, data: bytes) -> None:
        nonlocal size, files
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        size += len(data)
        files += 1

    asset = resources.files("texts.site") / "static"
    put_file(f"{paths.ASSETS}/style.css", _stylesheet().encode())
    put_file(f"{paths.ASSETS}/search.js", (asset / "search.js").read_bytes())
    put_file(f"{paths.ASSETS}/fold.js", search.script("LIUREN_FOLD", search.fold_table()).encode())
    put_file(f"{paths.ASSETS}/{LICENCE_FILE}", (resources.files("texts") / "fonts" / LICENCE_FILE).read_bytes())

    counts = {k: len(v) for k, v in quoting.items()}
    options = schools.classical_alternatives()  # every classical chart's, once for every language
    put(pages.root_page(folders))
    for lang in chosen:
        built = built_all[lang]
        put(pages.index_page(lang, built))
        put(pages.search_page(lang, built))
        put(pages.corpus_index(lang, counts, built))
        put(reference.rules_page(lang, built))
        put(reference.glossary_page(lang, built))
        put(schools.schools_page(lang, options, built))
        for unit in corpus().units:
            put(pages.unit_page(unit, lang, quoting[unit.id], built))
        terms = [t for _, group in reference.terms(lang) for t in group]
        put_file(f"{lang}/search-index.js", search.script("LIUREN_INDEX", search.index(lang, readings, terms)).encode())

    bar = Progress(len(charts) * len(chosen), progress)
    day_indices = sorted({c.day.index for c in charts})
    built_union = frozenset().union(*built_all.values())
    pool_size = workers if workers is not None else min(2, os.cpu_count() or 1)
    if pool_size <= 1:
        for day in day_indices:
            bar.add(_chart_task(str(root), day, chosen, built_union, base_url))
    else:
        context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
        with ProcessPoolExecutor(max_workers=pool_size, mp_context=context) as pool:
            jobs = [pool.submit(_chart_task, str(root), day, chosen, built_union, base_url) for day in day_indices]
            for job in as_completed(jobs):
                bar.add(job.result())
    bar.end()
    for chart in charts:
        for lang in chosen:
            target = root / paths.chart_path(chart, lang)
            size += target.stat().st_size
            files += 1
            count += 1
    if base_url is not None:
        put_file("sitemap.xml", _sitemap(root, base_url).encode())
    return Summary(count, files, size, time.perf_counter() - start)


def _sitemap(root: Path, base_url: str) -> str:
    base = base_url.rstrip("/") + "/"
    names = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))
    urls = "".join(f"<url><loc>{xml_escape(base + quote(name, safe='/-_.~'))}</loc></url>\n" for name in names)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{urls}</urlset>\n'
