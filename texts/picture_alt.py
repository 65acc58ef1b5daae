"""What a screen reader says for the chart picture: the whole chart in one paragraph.

It carries everything the picture shows (header, every ring cell, 四課, 三伝 with their marks),
so a reader who cannot see the image loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.chart import Chart
from engine.symbols import BRANCHES
from texts.picture_layout import chart_name, term
from texts.words import Lang, text


def alt_text(chart: Chart, lang: Lang) -> str:
    """A description of the picture of ``chart`` in ``lang`` (under Discord's 1,024-character limit)."""
    g = chart.generals
    m = chart.moment
    if m is None:
        moment = text("picture.classical", lang)
        pillars = ""
    else:
        moment = text("picture.moment", lang, when=f"{m.local:%Y-%m-%d %H:%M}", zone=m.zone)
        pillars = text("picture.pillars", lang, year=m.year, month=m.month, day=m.day, hour=m.hour)
    ring = _join(lang, (
        text("picture.alt_cell", lang, ground=ground, heaven=chart.plate.up(ground),
             general=term(g.over(ground), lang))
        for ground in BRANCHES  # 子 first, round the ring as a student recites it
    ))
    lessons = _join(lang, (
        text("picture.alt_lesson", lang, number=text(f"picture.lesson_number.{x.number}", lang), upper=x.upper,
             lower=x.lower, general=term(g.on(x.upper), lang),
             relation=text("picture.alt_relation", lang, relation=term(x.relation, lang)) if x.relation is not None
             else "")
        for x in chart.lessons
    ))
    steps = _join(lang, (
        text("picture.alt_step", lang, position=term(s.position, lang),
             hidden=s.hidden_stem if s.hidden_stem is not None else "", branch=s.branch, general=term(s.general, lang),
             kin=term(s.kin, lang), void=text("picture.alt_step_void", lang) if s.void else "")
        for s in chart.steps
    ))
    described = text(
        "picture.alt", lang,
        title=text("picture.title", lang, day=chart.day, hour=chart.hour),
        yuejiang=text("picture.yuejiang", lang, branch=chart.yuejiang),
        name=text("picture.name", lang, name=chart_name(chart, lang)),
        moment=moment,
        pillars=pillars,
        void=text("picture.void", lang, branches="".join(map(str, chart.void))),
        noble=text("picture.noble", lang, branch=g.noble,
                   time=text("picture.daytime" if g.daytime else "picture.night", lang),
                   direction=text("picture.clockwise" if g.clockwise else "picture.counterclockwise", lang)),
        lodging=text("picture.lodging", lang, stem=chart.day.stem, branch=chart.day.stem.lodging),
        ring=ring,
        lessons=lessons,
        transmissions=steps,
    )
    # A classical chart has no pillars: drop the empty sentence it would leave.
    return described.replace("。。", "。").replace(". .", ".")


def _join(lang: Lang, parts: Iterable[str]) -> str:
    return ("; " if lang == "en" else "、").join(parts)
