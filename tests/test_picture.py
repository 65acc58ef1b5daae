"""The chart as a picture (texts/picture/): it decodes, draws no tofu, matches the golden
images, draws the same pixels every time, marks what it promises, and says in words what it shows."""

from __future__ import annotations

import fnmatch
import re
import tomllib
import tracemalloc
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from engine import cast, cast_classical
from engine.chart import Chart
from engine.facts import Facts, facts
from engine.patterns import classify
from engine.school import School
from engine.symbols import BRANCHES, PILLARS
from engine.terms import General, Sex, Vigour
from texts.cli import picture as picture_command
from texts.picture import draw as picture
from texts.picture import raster
from texts.picture.alt import alt_text
from texts.picture.draw import clear_cache, filename, render_png
from texts.picture.fonts import FONT_DIR, FONT_FILES, cmap
from texts.picture.glyphs import SCALE, measure, pieces
from texts.picture.golden import GOLDEN_DIR, golden_charts
from texts.picture.layout import layout, texts_of
from texts.picture.shapes import CELL, MARGIN, MIN_TEXT, RING_ROWS, WIDTH, Box, Layout, Text, drawable_characters, term
from texts.words import LANGS, Lang, solar_term, text
from texts.words.explain import chart_name

ROOT = Path(__file__).resolve().parent.parent
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def sample_charts() -> Iterator[Chart]:
    """Every plate and every day stem and branch, both 晝 and 夜, classical and from instants."""
    for i, pillar in enumerate(PILLARS):
        for yuejiang in BRANCHES:
            yield cast_classical(pillar, yuejiang, BRANCHES[(i + yuejiang) % 12])
    for month in range(1, 13):
        yield cast(datetime(2026, month, 7 + month, (month * 5) % 24, 10), "America/New_York")
    yield cast(datetime(1900, 1, 1, 0, 30), "Europe/London")
    yield cast(datetime(2100, 12, 31, 23, 30), "Pacific/Kiritimati")


def _layout(chart: Chart, lang: Lang = "ja") -> Layout:
    return layout(chart, lang, measure)


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("name", ["fuyin", "chongshen"])
def test_png_decodes_at_twice_the_layout_size(name: str, theme: raster.Theme) -> None:
    chart = golden_charts()[name]
    for lang in LANGS:
        png = render_png(chart, theme=theme, lang=lang)
        assert png.startswith(PNG_SIGNATURE)
        image = Image.open(BytesIO(png))
        image.load()
        plan = _layout(chart, lang)
        assert image.format == "PNG"
        assert image.size == (WIDTH * SCALE, plan.height * SCALE) == (880, plan.height * 2)
        # Tall enough for the header, the ring, the lessons and the transmissions.
        assert plan.height > 4 * CELL + 400


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_png_holds_exactly_the_painted_pixels(theme: raster.Theme) -> None:
    """The PNG is written by texts.raster.encode (ISA-L's deflate, rows unfiltered), not by
    Pillow's encoder: what a decoder reads back is the painted picture, index for index and colour
    for colour, its chunks' checksums verified; a picture not of a palette goes through Pillow."""
    chart = golden_charts()["chongshen"]
    painted = raster.paint(_layout(chart), theme)
    png = raster.encode(painted)
    back = Image.open(BytesIO(png))
    back.verify()  # every chunk's CRC
    back = Image.open(BytesIO(png))
    assert (back.mode, back.size, back.info) == ("P", painted.size, {})
    # Compared as booleans: pytest's explanation of two unequal 2 MB byte strings takes minutes.
    same_palette, same_pixels = back.getpalette() == painted.getpalette(), back.tobytes() == painted.tobytes()
    assert same_palette and same_pixels, f"palette kept: {same_palette}, pixels kept: {same_pixels}"
    rgb = painted.convert("RGB")
    same_rgb = Image.open(BytesIO(raster.encode(rgb))).convert("RGB").tobytes() == rgb.tobytes()
    assert same_rgb, "an RGB picture's PNG does not decode to its pixels"


@pytest.mark.parametrize("lang", LANGS)
def test_long_texts_drawn_as_their_words_keep_their_places(lang: Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long text is drawn as its words, each at its pen position rounded to a whole pixel: a
    word is never more than half a pixel (at 2×) from where the whole text draws it, CJK words are
    exactly there (the title and pillars paint the same pixels either way), and a picture drawn by
    words differs from one drawn by whole texts in a sliver of pixels, in both themes, for moments
    in several zones."""
    charts = [picture.of_the_hour(cast(datetime(2026, month, 3 + month, (5 * month) % 24, 30), zone))
              for month, zone in zip((1, 5, 9, 12), ("Asia/Tokyo", "Europe/London", "America/Argentina/ComodRivadavia",
                                                    "Asia/Taipei"), strict=True)]
    plans = [_layout(chart, lang) for chart in charts]
    for plan in plans:
        for item in plan.items:
            if isinstance(item, Text) and len(item.text) > 3:
                starts = [0] + [m.start() for m in re.finditer("[^ \u3000]+", item.text) if m.start()]
                cut = pieces(item.text, item.size, item.bold)
                assert [word for _, word in cut] == [item.text[a:b].rstrip(" \u3000") for a, b in
                                                    zip(starts, [*starts[1:], len(item.text)], strict=True)]
                for (offset, word), start in zip(cut, starts, strict=True):
                    pen = measure(item.text[:start], item.size, item.bold) * SCALE
                    assert abs(offset - pen) <= 0.5, (item.text, word, offset, pen)
    cut = [raster.paint(plan, theme) for plan in plans for theme in raster.THEMES_ALL]
    monkeypatch.setattr(raster, "pieces", lambda value, size, bold: [(0, value)])
    whole = [raster.paint(plan, theme) for plan in plans for theme in raster.THEMES_ALL]
    for a, b in zip(cut, whole, strict=True):
        changed = ImageChops.difference(a.convert("L"), b.convert("L")).point(lambda v: 255 if v else 0)
        share = ImageStat.Stat(changed).mean[0] / 255
        assert share < 0.005, f"{share:.2%} of the pixels moved"
    pillars = text("picture.pillars", "ja", year="丙午", month="庚寅", day="甲戌", hour="辛未")
    assert [piece for _, piece in pieces(pillars, 17, False)] == ["年丙午", "月庚寅", "日甲戌", "時辛未"]
    line = Layout(WIDTH, 40, (Text(MARGIN, 30, pillars, 17, "fg"),))
    drawn_whole = raster.paint(line, "dark").tobytes()
    monkeypatch.undo()
    assert raster.paint(line, "dark").tobytes() == drawn_whole


class _Watched:
    """A canvas that looks under every text pasted without its mask before pasting it."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("P", size)
        self.crowded: list[tuple[int, ...]] = []

    def getpixel(self, xy: tuple[int, int]) -> int:
        return int(self.image.im.getpixel(xy))

    def paste(self, source: object, box: tuple[int, int, int, int], mask: object = None) -> None:
        if mask is None and not isinstance(source, int):  # a text, paper and all
            low, high = self.image.crop(box).getextrema()
            if low != high:
                self.crowded.append(box)
            self.image.im.paste(source, box)
        elif mask is None:
            self.image.im.paste(source, box)
        else:
            self.image.im.paste(source, box, mask)


def test_no_text_is_drawn_over_anything_but_its_paper() -> None:
    """The painter puts a text down whole, its paper with it, where its box's four corners are
    one colour: so on every chart, in every language, with a matter's outlines, another school's
    line and a long zone name, the box under such a text holds that colour alone (no text over
    another, over a rule or over a badge)."""
    charts = [*sample_charts(), cast(datetime(2026, 3, 9, 11, 0), "America/Argentina/ComodRivadavia"),
              cast_classical("甲子", "寅", "午", school=School(noble_table="甲羊", maoxing_by_day=True))]
    for lang in LANGS:
        for i, chart in enumerate(charts):
            if lang != "ja" and i % 5:  # every chart in Japanese, a fifth of them in the other languages
                continue
            highlight = frozenset({General.貴人, General.白虎}) if i % 2 else frozenset()
            plan = layout(chart, lang, measure, None, highlight)
            watched = _Watched((plan.width * SCALE, plan.height * SCALE))
            raster._paint_on(watched, watched.image.size, plan, "dark")  # type: ignore[arg-type]
            assert watched.crowded == [], (lang, chart.day, chart.yuejiang, chart.hour, watched.crowded)
    over_a_rule = Layout(WIDTH, 80, (Box(60, 0, 60, 80, outline="grid"), Text(40, 60, "甲子", 30, "fg")))
    watched = _Watched((WIDTH * SCALE, 80 * SCALE))
    raster._paint_on(watched, watched.image.size, over_a_rule, "dark")  # type: ignore[arg-type]
    assert watched.crowded, "a text over a rule went unseen"


def _decoded(png: bytes) -> tuple[tuple[int, int], list[int] | None, bytes]:
    """A PNG's size, palette and pixels: what two drawings of one picture share. ISA-L's deflate
    may pick another of two equal matches from one run to the next (its match finder looks at
    memory it has not cleared), so the compressed bytes of one picture can differ by a few bits."""
    image = Image.open(BytesIO(png))
    return image.size, image.getpalette(), image.tobytes()


def test_a_thread_painting_over_its_canvas_draws_each_picture_as_a_fresh_one() -> None:
    """``raster.png`` paints on the thread's own canvas, over the last picture: each PNG is the one
    a fresh canvas gives, whatever was drawn before it (other charts, themes, languages)."""
    charts = [*golden_charts().values(), cast_classical("乙丑", "寅", "申"), cast_classical("丙寅", "卯", "酉")]
    plans = [(_layout(chart, lang), theme) for chart in charts for lang in ("ja", "en") for theme in raster.THEMES_ALL]
    sizes = Counter((plan.width, plan.height) for plan, _ in plans)
    assert max(sizes.values()) >= 4, sizes  # pictures of one size follow each other: the canvas is painted over
    for plan, theme in sorted(plans + plans[::-1], key=lambda p: (p[0].height, p[1] == "dark")):
        assert _decoded(raster.png(plan, theme)) == _decoded(raster.encode(raster.paint(plan, theme)))


@pytest.mark.parametrize("rows", [1, raster.STRIP_ROWS - 1, raster.STRIP_ROWS, 2 * raster.STRIP_ROWS,
                                  2 * raster.STRIP_ROWS + 1])
def test_every_row_is_kept_across_the_strips(rows: int) -> None:
    """The rows go to the compressor in strips: a picture of one strip, of a whole number of
    strips, and one row more or fewer, each decodes to exactly its pixels."""
    painted = raster.paint(_layout(golden_charts()["chongshen"]), "dark")
    part = painted.crop((0, painted.height - rows, painted.width, painted.height))  # the legend's rows: not blank
    back = Image.open(BytesIO(raster.encode(part)))
    assert (back.size, back.getpalette()) == (part.size, part.getpalette())
    assert back.tobytes() == part.tobytes(), f"{rows} rows: the pixels differ"


def test_encoding_never_copies_the_whole_picture() -> None:
    """The encoder's buffers stay a fraction of the picture's pixels (a whole copy stayed in
    the drawing thread's malloc arena after every drawing); Python's own allocations are traced."""
    painted = raster.paint(_layout(golden_charts()["chongshen"]), "dark")
    pixels = painted.width * painted.height
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        start, _ = tracemalloc.get_traced_memory()
        raster.encode(painted)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        if not was_tracing:
            tracemalloc.stop()
    held = (peak - start) / 2**20
    assert peak - start < pixels / 2, f"the encoding held {held:.2f} MB of a {pixels / 2**20:.2f} MB picture"


def test_every_character_the_picture_may_draw_is_in_the_font() -> None:
    wanted = drawable_characters()
    assert set("子丑寅卯辰巳午未申酉戌亥甲乙丙丁戊己庚辛壬癸") <= wanted
    assert {"傳", "传", "發", "发"} <= wanted  # the zh label files' own forms
    for weight in FONT_FILES:
        lacking = sorted(c for c in wanted if ord(c) not in cmap(weight))
        assert not lacking, f"{FONT_FILES[weight]} lacks {''.join(lacking)!r}: run python tools/build_font.py"


@pytest.mark.slow  # over a second on the project's machine
def test_layouts_draw_only_characters_the_font_has() -> None:
    """Every text of every chart in every language, as laid out, is in the drawable set and the font."""
    wanted = drawable_characters()
    glyphs = cmap("regular") & cmap("bold")
    drawn: set[str] = set()
    for chart in sample_charts():
        for lang in LANGS:
            drawn |= set(texts_of(_layout(chart, lang).items))
    assert not drawn - wanted, "".join(sorted(drawn - wanted))
    assert all(ord(c) in glyphs for c in drawn)


def test_no_text_is_smaller_than_14_px_at_display_size() -> None:
    for chart in list(sample_charts())[::37]:
        for lang in LANGS:
            sizes = [item.size for item in _layout(chart, lang).items if isinstance(item, Text)]
            assert min(sizes) >= MIN_TEXT == 14


def test_everything_stays_inside_the_picture() -> None:
    """Long labels (English, the longest zone names) are fitted, not cut off at the right edge."""
    for chart in list(sample_charts())[::29]:
        for lang in LANGS:
            plan = _layout(chart, lang)
            for item in plan.items:
                if isinstance(item, Text):
                    width = measure(item.text, item.size, item.bold)
                    left = {"l": item.x, "m": item.x - width / 2, "r": item.x - width}[item.anchor[0]]
                    assert left >= MARGIN - 1 and left + width <= WIDTH - MARGIN + 1, (lang, item)
                else:
                    assert 0 <= item.x0 <= item.x1 <= WIDTH and 0 <= item.y0 <= item.y1 <= plan.height


def _cell_of(ground: str) -> tuple[float, float]:
    row = next(i for i, places in enumerate(RING_ROWS) if ground in places)
    return MARGIN + RING_ROWS[row].index(ground) * CELL, row


def _texts_in_cell(plan: Layout, ground: str) -> list[Text]:
    x0, row = _cell_of(ground)
    ring_top = min(i.y0 for i in plan.items if isinstance(i, Box) and i.x1 - i.x0 == CELL == i.y1 - i.y0)
    y0 = ring_top + row * CELL
    return [i for i in plan.items if isinstance(i, Text) and x0 <= i.x <= x0 + CELL and y0 <= i.y <= y0 + CELL]


@pytest.mark.parametrize("name", ["fuyin", "chongshen"])
def test_ring_cells_show_general_heaven_and_ground_at_their_fixed_places(name: str) -> None:
    chart = golden_charts()[name]
    plan = _layout(chart)
    for ground in BRANCHES:
        cell = _texts_in_cell(plan, str(ground))
        heaven = str(chart.plate.up(ground))
        big = max(cell, key=lambda t: t.size)
        assert big.text == heaven and big.bold
        assert str(ground) in [t.text for t in cell if t.size < big.size]
        assert str(chart.generals.over(ground)) in [t.text for t in cell]


@pytest.mark.parametrize("name", ["fuyin", "chongshen"])
def test_lodging_hour_and_void_are_marked(name: str) -> None:
    chart = golden_charts()[name]
    plan = _layout(chart)
    stem, hour_tag, void_tag = str(chart.day.stem), text("picture.tag_hour", "ja"), text("picture.tag_void", "ja")
    for ground in BRANCHES:
        cell = [(t.text, t.role) for t in _texts_in_cell(plan, str(ground))]
        assert ((stem, "badge_text") in cell) == (ground == chart.day.stem.lodging)
        assert ((hour_tag, "badge_text") in cell) == (ground == chart.hour)
        void = chart.plate.up(ground) in chart.void
        assert ((void_tag, "void") in cell) == void
        assert (str(chart.plate.up(ground)), "void" if void else "fg") in cell
    # Each void mark: two on the ring, one per void upper of a lesson and per void 伝, one in the legend.
    marks = sum(1 for t in plan.items if isinstance(t, Text) and (t.text, t.role) == (void_tag, "void"))
    expected = 2 + sum(x.upper in chart.void for x in chart.lessons) + sum(s.void for s in chart.steps) + 1
    assert marks == expected


def test_the_initial_transmission_is_emphasised() -> None:
    chart = cast_classical("甲子", "亥", "午")  # 初伝 not void
    plan = _layout(chart)
    initial = text("picture.initial", "ja")
    title = next(t for t in plan.items if isinstance(t, Text) and t.text == text("picture.transmissions", "ja"))
    rows = [t for t in plan.items if isinstance(t, Text) and t.y > title.y and t.size == 32]
    assert [t.text for t in rows] == [str(s.branch) for s in chart.steps]
    assert not chart.steps[0].void and chart.steps[2].void
    assert [t.role for t in rows] == ["accent", "fg", "void"]
    assert any(isinstance(t, Text) and t.text == initial and t.role == "badge_text" for t in plan.items)
    assert sum(isinstance(b, Box) and b.fill == "accent_bg" for b in plan.items) == 1


def test_lessons_read_right_to_left() -> None:
    chart = golden_charts()["chongshen"]
    plan = _layout(chart)
    numbers = [text(f"picture.lesson_number.{n}", "ja") for n in (1, 2, 3, 4)]
    heads = sorted((t for t in plan.items if isinstance(t, Text) and t.text in numbers and t.role == "muted"),
                   key=lambda t: t.x)
    assert [t.text for t in heads] == numbers[::-1]
    uppers = sorted((t for t in plan.items if isinstance(t, Text) and t.size == 32 and t.x > 100
                     and heads[0].y < t.y < heads[0].y + 100), key=lambda t: -t.x)
    assert [t.text for t in uppers] == [str(x.upper) for x in chart.lessons]


def _difference(png: bytes, golden: Path) -> tuple[float, float]:
    """Mean absolute difference per channel (0–255) and the share of pixels that differ."""
    new = Image.open(BytesIO(png)).convert("RGB")
    old = Image.open(golden).convert("RGB")
    assert new.size == old.size, f"size {new.size} != golden {old.size}"
    diff = ImageChops.difference(new, old)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda p: 255 if p > 24 else 0).histogram()[255] / (new.width * new.height)
    return mean, changed


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("name", ["fuyin", "chongshen"])
def test_matches_the_golden_image(name: str, theme: raster.Theme) -> None:
    """Regenerate after an intended change with: python -m texts.cli.picture --regenerate-golden"""
    golden = GOLDEN_DIR / f"{name}-{theme}.png"
    mean, changed = _difference(render_png(golden_charts()[name], theme=theme, lang="ja"), golden)
    assert mean < 0.5 and changed < 0.002, f"{golden.name}: mean diff {mean:.3f}, {changed:.2%} of pixels changed"


def test_the_golden_comparison_sees_a_changed_picture() -> None:
    """The tolerance is small enough that another chart of the same size, or the other theme, fails it."""
    golden = GOLDEN_DIR / "chongshen-dark.png"
    same_size = cast_classical("甲子", "卯", "午")  # a classical chart: the same header, so the same size
    for png in (render_png(same_size, theme="dark", lang="ja"),
                render_png(golden_charts()["chongshen"], theme="light", lang="ja")):
        mean, changed = _difference(png, golden)
        assert mean >= 0.5 or changed >= 0.002


def test_rendering_is_deterministic() -> None:
    """The same chart drawn again (nothing kept) is the same picture: size, palette and pixels."""
    chart = golden_charts()["fuyin"]
    first = render_png(chart, theme="light", lang="zh-TW")
    clear_cache()
    again = render_png(chart, theme="light", lang="zh-TW")
    assert _decoded(first) == _decoded(again) and first is not again


def test_a_chart_already_drawn_comes_from_the_cache_and_the_cache_is_bounded() -> None:
    clear_cache()
    chart = golden_charts()["chongshen"]
    first = render_png(chart)
    assert render_png(chart) is first
    assert render_png(chart, theme="light") is not first
    for i in range(picture.CACHE_SIZE + 5):
        render_png(cast_classical(PILLARS[i % 60], "子", BRANCHES[1 + i // 60]))
    assert len(picture._CACHE) == picture.CACHE_SIZE
    assert render_png(chart) is not first  # pushed out, drawn again
    assert _decoded(render_png(chart)) == _decoded(first)


def test_bad_theme_or_language_is_a_clear_error() -> None:
    chart = golden_charts()["chongshen"]
    with pytest.raises(ValueError, match="unknown theme 'sepia': give 'dark' or 'light'"):
        render_png(chart, theme="sepia")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        render_png(chart, lang="fr")  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_alt_text_says_everything_the_picture_shows(lang: Lang) -> None:
    for chart in (*golden_charts().values(), *list(sample_charts())[::97]):
        said = alt_text(chart, lang)
        assert len(said) <= 1024  # Discord's limit for an attachment description
        assert str(chart.day) in said and str(chart.yuejiang) in said
        assert text("picture.name", lang, name=chart_name(chart.transmissions, lang)) in said
        for ground in BRANCHES:
            cell = text("picture.alt_cell", lang, ground=ground, heaven=chart.plate.up(ground),
                        general=term(chart.generals.over(ground), lang))
            assert cell in said
        for step in chart.steps:
            assert term(step.general, lang) in said and str(step.branch) in said
        assert "".join(map(str, chart.void)) in said
        assert ("。。" not in said) and (". ." not in said)
        if chart.moment is not None:
            assert chart.moment.zone in said and str(chart.moment.year) in said


def test_alt_text_marks_a_void_transmission() -> None:
    chart = golden_charts()["chongshen"]
    assert chart.steps[0].void
    assert "初伝戌・六合・妻財（空亡）" in alt_text(chart, "ja")
    assert "(void)" in alt_text(chart, "en")


def test_filename_is_ascii_and_names_the_chart() -> None:
    charts = golden_charts()
    assert filename(charts["fuyin"]) == "liuren-20260624-1330.png"
    assert filename(charts["chongshen"]) == "liuren-d00-y02-h06.png"
    assert filename(cast_classical("癸亥", "亥", "亥")) == "liuren-d59-y11-h11.png"


def test_generals_are_drawn_in_every_language_as_their_cjk_names() -> None:
    chart = golden_charts()["chongshen"]
    for lang in LANGS:
        drawn = Counter(t.text for t in _layout(chart, lang).items if isinstance(t, Text))
        for general in General:
            assert drawn[term(general, lang)] >= 1


def test_the_font_ships_as_package_data_and_stays_small() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["texts"]
    shipped = [*FONT_FILES.values(), "OFL.txt"]
    for name in shipped:
        assert (FONT_DIR / name).is_file()
        assert any(fnmatch.fnmatch(f"fonts/{name}", p) for p in patterns), name
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert sum((FONT_DIR / name).stat().st_size for name in shipped) < 2 * 1024 * 1024


def test_command_line_writes_a_picture_and_says_what_it_shows(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chart.png"
    args = ["--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--theme", "light", "--out", str(out)]
    assert picture_command.main(args) == 0
    chart = cast_classical("甲子", "亥", "午")
    assert out.read_bytes() == render_png(chart, theme="light")
    assert capsys.readouterr().out.strip() == alt_text(chart, "ja")


def test_command_line_refuses_a_bad_day_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.png")
    assert picture_command.main(["--day", "甲丑", "--yuejiang", "亥", "--hour", "午", "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "甲丑" in err
    assert not (tmp_path / "x.png").exists()


def test_warm_fills_the_text_cache_without_caching_pictures() -> None:
    clear_cache()
    picture.warm()
    assert not picture._CACHE
    assert raster._short_inked.cache_info().currsize > 50


def test_every_text_edge_blends_through_the_palette(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each (paper, ink) pair a picture draws has its blends in the theme's palette (smooth edges)."""
    missing: set[tuple[str, int, int]] = set()
    original = raster.Palette.ramp

    def ramp(self: raster.Palette, paper: int, ink: int) -> list[int]:
        if (paper, ink) not in self.blends:
            missing.add((next(k for k, v in self.index.items() if v == paper), paper, ink))
        return original(self, paper, ink)

    monkeypatch.setattr(raster.Palette, "ramp", ramp)
    clear_cache()
    raster._ramp.cache_clear()
    for chart in (*golden_charts().values(), cast_classical("丁未", "子", "午"), cast_classical("甲子", "亥", "午")):
        for theme in raster.THEMES_ALL:
            for lang in LANGS:
                raster.paint(_layout(chart, lang), theme)
    raster._ramp.cache_clear()
    assert not missing


def test_draw_gives_a_reply_everything_it_attaches() -> None:
    chart = golden_charts()["fuyin"]
    found = picture.draw(chart, theme="light", lang="zh-CN")
    assert found == picture.Picture(render_png(chart, theme="light", lang="zh-CN"), alt_text(chart, "zh-CN"),
                                    filename(chart))
    assert found.filename.isascii() and found.alt.startswith("大六壬课图")


# -- what a student looks for beside the plate --------------------------------


def _drawn(chart: Chart, lang: Lang, known: Facts | None = None) -> list[Text]:
    return [t for t in layout(chart, lang, measure, known).items if isinstance(t, Text)]


def _below(drawn: list[Text], heading: str) -> list[Text]:
    top = next(t for t in drawn if t.text == heading).y
    return [t for t in drawn if t.y > top]


@pytest.mark.parametrize("lang", LANGS)
def test_the_transmissions_show_their_seasonal_strength_with_a_moment(lang: Lang) -> None:
    for chart in list(sample_charts())[-14:]:  # the charts cast from an instant
        known = facts(chart)
        rows = _below(_drawn(chart, lang), text("picture.transmissions", lang))
        for step, fact in zip(chart.steps, known.steps, strict=True):
            assert fact.vigour is not None
            branch = next(t for t in rows if t.text == str(step.branch) and t.size == 32)
            row = [t.text for t in rows if abs(t.y - branch.y) < 26]
            assert term(fact.vigour, lang) in row and term(step.kin, lang) in row, row
    classical = golden_charts()["chongshen"]  # no month, no 旺相休囚死 (and no column heading for it)
    drawn = {t.text for t in _drawn(classical, lang)}
    assert not drawn & {term(v, lang) for v in Vigour} and text("picture.column_kin_vigour", lang) not in drawn


@pytest.mark.parametrize("lang", LANGS)
def test_the_derived_branches_and_the_natal_ones_with_birth_data(lang: Lang) -> None:
    chart = golden_charts()["fuyin"]
    plain, born = facts(chart), facts(chart, birth_year=1990, sex=Sex.男)
    assert born.natal is not None and born.walking_year is not None
    for known, with_birth in ((plain, False), (born, True)):
        drawn = _drawn(chart, lang, known)
        labels = [t.text for t in drawn]
        for key, branch in (("horse", known.travel_horse), ("ding", known.ding), ("heavenly_horse",
                            known.heavenly_horse), ("year", known.year), ("month", known.month)):
            label = next(t for t in drawn if t.text == text(f"picture.fact_{key}", lang))
            value = min((t for t in drawn if t.x > label.x and t.y == label.y), key=lambda t: t.x)
            assert value.text == str(branch) and value.bold
        for key in ("natal", "walking"):
            assert (text(f"picture.fact_{key}", lang) in labels) == with_birth
    classical = golden_charts()["chongshen"]
    labels = [t.text for t in _drawn(classical, lang)]
    assert text("picture.fact_horse", lang) in labels and text("picture.fact_year", lang) not in labels


@pytest.mark.parametrize("lang", LANGS)
def test_the_patterns_and_the_principal_term_are_drawn(lang: Lang) -> None:
    for chart in (*golden_charts().values(), *list(sample_charts())[::61]):
        drawn = _drawn(chart, lang)
        after = [t.text for t in _below(drawn, text("picture.patterns", lang)) if t.role == "accent"]
        held = [term(p.name, lang) for p in classify(chart, facts(chart)).held]
        assert after[: len(held)] == held and held
        words = [t.text for t in drawn]
        if chart.moment is not None:
            named = text("picture.principal_term", lang, term=solar_term(chart.moment.principal_term.name, lang))
            assert named in words and named in alt_text(chart, lang)
        else:
            assert not any(w.startswith(text("picture.principal_term", lang, term="")) for w in words)
        said = alt_text(chart, lang)
        assert all(name in said for name in held) and len(said) <= 1024


def test_the_picture_names_the_principal_term_in_the_readers_script() -> None:
    chart = cast(datetime(2026, 8, 30, 10, 0), "Asia/Tokyo")  # 中気 処暑
    assert chart.moment is not None and chart.moment.principal_term.name == "処暑"
    for lang, form in (("ja", "処暑"), ("zh-TW", "處暑"), ("zh-CN", "处暑"), ("en", "處暑")):
        assert any(form in t.text for t in _drawn(chart, lang))  # type: ignore[arg-type]


def test_the_one_character_forms_are_not_drawn_but_the_full_names_in_the_readers_script() -> None:
    chart = golden_charts()["chongshen"]
    drawn = {t.text for t in _drawn(chart, "zh-CN")}
    assert {"贵人", "青龙", "太阴"} <= drawn and not {"貴人", "青龍", "太陰"} & drawn
