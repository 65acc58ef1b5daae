"""What a screen reader says for the chart picture: the whole chart in one paragraph.

It carries everything the picture shows (header, every ring cell, 四課, 三伝 with their marks),
so a reader who cannot see the image loses nothing, and ends with the other schools' line.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.chart import Chart
from engine.facts import Facts, facts
from engine.patterns import Patterns, classify
from engine.symbols import BRANCHES
from texts.alternatives import summary_line
from texts.picture.shapes import hour_span, shown_facts
from texts.words import Lang, solar_term, term, text
from texts.words.explain import chart_name
from texts.words.schools import school_line


def alt_text(chart: Chart, lang: Lang, known: Facts | None = None, patterns: Patterns | None = None) -> str:
    """A description of the picture of ``chart`` in ``lang`` (under Discord's 1,024-character limit);
    ``known`` as for the picture (the facts with the querent's birth data); ``patterns`` is
    ``classify(chart, known)`` when the caller has it (the picture's layout reads it too)."""
    known = known if known is not None else facts(chart)
    g = chart.generals
    m = chart.moment
    if m is None:
        moment = text("picture.classical", lang)
        pillars = ""
    else:
        moment = text("picture.moment", lang, when=hour_span(chart), zone=m.zone)
        pillars = (text("picture.pillars", lang, year=m.year, month=m.month, day=m.day, hour=m.hour) + " "
                   + text("picture.principal_term", lang, term=solar_term(m.principal_term.name, lang)))
    ring = _join(lang, [  # 子 first, round the ring as a student recites it
        text("picture.alt_cell", lang, ground=ground, heaven=chart.plate.up(ground), general=term(g.over(ground), lang))
        for ground in BRANCHES
    ])
    lessons = _join(lang, [
        text("picture.alt_lesson", lang, number=text(f"picture.lesson_number.{x.number}", lang), upper=x.upper,
             lower=x.lower, general=term(g.on(x.upper), lang),
             relation="" if x.relation is None else text("picture.alt_relation", lang, relation=term(x.relation, lang)))
        for x in chart.lessons
    ])
    steps = _join(lang, [
        text("picture.alt_step", lang, position=term(s.position, lang),
             hidden="" if s.hidden_stem is None else s.hidden_stem, branch=s.branch, general=term(s.general, lang),
             kin=term(s.kin, lang), void=text("picture.alt_step_void", lang) if s.void else "",
             vigour="" if f.vigour is None else text("picture.alt_step_vigour", lang, vigour=term(f.vigour, lang)))
        for s, f in zip(chart.steps, known.steps, strict=True)
    ])
    described = text(
        "picture.alt", lang,
        title=text("picture.title", lang, day=chart.day, hour=chart.hour),
        yuejiang=text("picture.yuejiang", lang, branch=chart.yuejiang),
        name=text("picture.name", lang, name=chart_name(chart.transmissions, lang)),
        moment=moment,
        pillars=pillars,
        void=text("picture.void", lang, branches="".join(map(str, chart.void))),
        noble=text("picture.noble", lang, branch=g.noble,
                   time=text("noble.day" if g.daytime else "noble.night", lang),
                   direction=text("noble.clockwise" if g.clockwise else "noble.counter", lang)),
        lodging=text("picture.lodging", lang, stem=chart.day.stem, branch=chart.day.stem.lodging),
        ring=ring,
        lessons=lessons,
        transmissions=steps,
    )
    derived = [text("picture.alt_fact", lang, label=text(key, lang), branch=branch)
               for key, branch in shown_facts(known) if branch is not None]
    held = [term(p.name, lang) for p in (patterns if patterns is not None else classify(chart, known)).held]
    described += text(
        "picture.alt_extra", lang,
        derived=_join(lang, derived),
        patterns=text("picture.alt_patterns", lang, names=_join(lang, held)) if held
        else text("picture.patterns_none", lang),
    )
    school = school_line(chart.school, lang)
    if school is not None:
        described += text("picture.alt_school", lang, school=school)
    # The other schools (docs/rules.md §10.1): the caption's line, as under every chart; the pixels keep to the chart.
    described += text("picture.alt_school", lang, school=summary_line(chart, lang).rstrip(".。"))
    # A classical chart has no pillars: drop the empty sentence it would leave.
    described = described.replace("。。", "。").replace(". .", ".")
    # Every school option at once with a long zone name comes near Discord's limit: never past it.
    return described if len(described) <= ALT_MAX else described[: ALT_MAX - 1] + "…"


ALT_MAX = 1024  # Discord's limit for an attachment's description


def _join(lang: Lang, parts: Iterable[str]) -> str:
    return ("; " if lang == "en" else "、").join(parts)
