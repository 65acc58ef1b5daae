"""The other schools shown where a chart is shown outside the bot and the terminal (docs/rules.md
§10.1): the picture's caption (its alt text; the pixels keep to the chart)."""

from __future__ import annotations

import pytest

from engine import cast_classical
from texts.alternatives import summary_line
from texts.picture.alt import alt_text
from texts.words import Lang

LANGS: tuple[Lang, ...] = ("ja", "en", "zh-TW", "zh-CN")


@pytest.mark.parametrize("lang", LANGS)
def test_the_pictures_caption_ends_with_the_other_schools(lang: Lang) -> None:
    changed = cast_classical("丁卯", "子", "子")  # 伏吟: the clash option changes the 三伝
    unchanged = cast_classical("丁卯", "未", "午")
    for chart in (changed, unchanged):
        said = alt_text(chart, lang)
        assert summary_line(chart, lang).rstrip(".。") in said and len(said) <= 1024
    assert summary_line(changed, lang) != summary_line(unchanged, lang)
