"""The golden images the tests compare the picture with, and docs/images' examples: which charts
they show and how they are written again after an intended change (``liuren picture``'s options).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.chart import Chart
from texts.picture.alt import alt_text
from texts.picture.draw import render_png
from texts.picture.raster import THEMES_ALL, Theme
from texts.words import LANGS, Lang

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "tests" / "golden"


def golden_charts() -> dict[str, Chart]:
    """The charts the golden images show: a 伏吟 chart cast from an instant and a 重審 chart."""
    from datetime import datetime

    from engine import cast, cast_classical

    return {
        # 己巳 day, 未 hour under 月将 未: 伏吟・自信, from a moment with a zone.
        "fuyin": cast(datetime(2026, 6, 24, 13, 30), "Asia/Tokyo"),
        # 甲子 day, 月将 寅 over 午: 重審 from the classical inputs; its 初伝 戌 is 空亡.
        "chongshen": cast_classical("甲子", "寅", "午"),
    }


EXAMPLES_DIR = GOLDEN_DIR.parent.parent / "docs" / "images"


def _regenerate_examples() -> int:
    """docs/images: the 伏吟 chart on the dark theme, for a querent born in 1990 (so 本命 and 行年
    show), the 重審 chart on the light one."""
    from engine.facts import facts
    from engine.terms import Sex

    EXAMPLES_DIR.mkdir(parents=True, exist_ok=True)
    charts = golden_charts()
    examples: tuple[tuple[str, Theme, int | None], ...] = (("fuyin", "dark", 1990), ("chongshen", "light", None))
    for name, theme, born in examples:
        path = EXAMPLES_DIR / f"chart-{name}-{theme}.png"
        chart = charts[name]
        known = facts(chart, birth_year=born, sex=Sex.男) if born is not None else None
        path.write_bytes(render_png(chart, theme=theme, lang="ja", known=known))
        print(f"{path}: {charts[name].transmissions.name}")
    return 0


def _regenerate_golden() -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, chart in golden_charts().items():
        for theme in THEMES_ALL:
            path = GOLDEN_DIR / f"{name}-{theme}.png"
            path.write_bytes(render_png(chart, theme=theme, lang="ja"))
            print(f"{path}: {chart.transmissions.name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m texts.picture", description="Draw a chart as a PNG.")
    parser.add_argument("--regenerate-golden", action="store_true", help="rewrite tests/golden/*.png")
    parser.add_argument("--regenerate-examples", action="store_true", help="rewrite docs/images/chart-*.png")
    parser.add_argument("--day", help="day pillar, e.g. 甲子")
    parser.add_argument("--yuejiang", help="月将 branch")
    parser.add_argument("--hour", help="hour branch")
    parser.add_argument("--theme", choices=THEMES_ALL, default="dark")
    parser.add_argument("--lang", choices=LANGS, default="ja")
    parser.add_argument("--out", help="file to write, or - for stdout")
    args = parser.parse_args(argv)
    if args.regenerate_golden:
        return _regenerate_golden()
    if args.regenerate_examples:
        return _regenerate_examples()
    from engine import CastError, cast_classical

    if not (args.day and args.yuejiang and args.hour and args.out):
        parser.error("give --day, --yuejiang, --hour and --out (or --regenerate-golden)")
    try:
        chart = cast_classical(args.day, args.yuejiang, args.hour)
    except CastError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    theme: Theme = args.theme
    lang: Lang = args.lang
    png = render_png(chart, theme=theme, lang=lang)
    if args.out == "-":
        sys.stdout.buffer.write(png)
    else:
        Path(args.out).write_bytes(png)
        print(alt_text(chart, lang))
    return 0
