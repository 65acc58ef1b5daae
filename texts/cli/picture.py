"""``python -m texts.cli.picture``: one chart as a PNG, or the golden images and docs/images'
examples written again after an intended change to the picture.

    python -m texts.cli.picture --regenerate-golden      # tests/golden/*.png
    python -m texts.cli.picture --regenerate-examples    # docs/images/chart-*.png
    python -m texts.cli.picture --day 甲子 --yuejiang 亥 --hour 午 --out chart.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from texts.cli.errors import say
from texts.picture.alt import alt_text
from texts.picture.draw import render_png
from texts.picture.golden import regenerate_examples, regenerate_golden
from texts.picture.raster import THEMES_ALL, Theme
from texts.words import LANGS, Lang


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m texts.cli.picture", description="Draw a chart as a PNG.")
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
        return regenerate_golden()
    if args.regenerate_examples:
        return regenerate_examples()
    from engine import CastError, cast_classical

    if not (args.day and args.yuejiang and args.hour and args.out):
        parser.error("give --day, --yuejiang, --hour and --out (or --regenerate-golden)")
    try:
        chart = cast_classical(args.day, args.yuejiang, args.hour)
    except CastError as error:
        say(f"error: {error}")
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


if __name__ == "__main__":
    raise SystemExit(main())
