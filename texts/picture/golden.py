"""The golden images the tests compare the picture with, and docs/images' examples: which charts
they show and how they are written again after an intended change (``liuren picture``'s options).
"""

from __future__ import annotations

from pathlib import Path

from engine.chart import Chart
from texts.picture.draw import render_png
from texts.picture.raster import THEMES_ALL, Theme

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


def regenerate_examples() -> int:
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


def regenerate_golden() -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, chart in golden_charts().items():
        for theme in THEMES_ALL:
            path = GOLDEN_DIR / f"{name}-{theme}.png"
            path.write_bytes(render_png(chart, theme=theme, lang="ja"))
            print(f"{path}: {chart.transmissions.name}")
    return 0
