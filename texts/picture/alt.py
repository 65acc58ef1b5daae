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
from texts.words import Lang, solar_term, term, words
from texts.words.explain import chart_name
from texts.words.schools import school_line


def alt_text(chart: Chart, lang: Lang, known: Facts | None = None, patterns: Patterns | None = None) -> str:
    """A description of the picture of ``chart`` in ``lang`` (under Discord's 1,024-character limit);
    ``known`` as for the picture (the facts with the querent's birth data); ``patterns`` is
    ``classify(chart, known)`` when the caller has it (the picture's layout reads it too)."""
    known = known if known is not None else facts(chart)
    said = words()[lang]  # every word below is looked up here, not through text() one by one
    g = chart.generals
    m = chart.moment
    if m is None:
        moment = said["picture.classical"]
        pillars = ""
    else:
        moment = said["picture.moment"].format(when=hour_span(chart), zone=m.zone)
        pillars = (said["picture.pillars"].format(year=str(m.year), month=str(m.month), day=str(m.day),
                                                  hour=str(m.hour)) + " "
                   + said["picture.principal_term"].format(term=solar_term(m.principal_term.name, lang)))
    cell = said["picture.alt_cell"]
    ring = _join(lang, [  # 子 first, round the ring as a student recites it
        cell.format(ground=str(ground), heaven=str(chart.plate.up(ground)), general=term(g.over(ground), lang))
        for ground in BRANCHES
    ])
    lesson, relation = said["picture.alt_lesson"], said["picture.alt_relation"]
    lessons = _join(lang, [
        lesson.format(number=said[f"picture.lesson_number.{x.number}"], upper=str(x.upper), lower=str(x.lower),
                      general=term(g.on(x.upper), lang),
                      relation="" if x.relation is None else relation.format(relation=term(x.relation, lang)))
        for x in chart.lessons
    ])
    step, vigour, void = said["picture.alt_step"], said["picture.alt_step_vigour"], said["picture.alt_step_void"]
    steps = _join(lang, [
        step.format(position=term(s.position, lang), hidden="" if s.hidden_stem is None else str(s.hidden_stem),
                    branch=str(s.branch), general=term(s.general, lang), kin=term(s.kin, lang),
                    void=void if s.void else "",
                    vigour="" if f.vigour is None else vigour.format(vigour=term(f.vigour, lang)))
        for s, f in zip(chart.steps, known.steps, strict=True)
    ])
    stem = chart.day.stem
    described = said["picture.alt"].format(
        title=said["picture.title"].format(day=str(chart.day), hour=str(chart.hour)),
        yuejiang=said["picture.yuejiang"].format(branch=str(chart.yuejiang)),
        name=said["picture.name"].format(name=chart_name(chart.transmissions, lang)),
        moment=moment,
        pillars=pillars,
        void=said["picture.void"].format(branches=str(chart.void[0]) + str(chart.void[1])),
        noble=said["picture.noble"].format(branch=str(g.noble),
                                           time=said["noble.day" if g.daytime else "noble.night"],
                                           direction=said["noble.clockwise" if g.clockwise else "noble.counter"]),
        lodging=said["picture.lodging"].format(stem=str(stem), branch=str(stem.lodging)),
        ring=ring,
        lessons=lessons,
        transmissions=steps,
    )
    fact = said["picture.alt_fact"]
    derived = [fact.format(label=said[key], branch=str(branch)) for key, branch in shown_facts(known)
               if branch is not None]
    held = [term(p.name, lang) for p in (patterns if patterns is not None else classify(chart, known)).held]
    described += said["picture.alt_extra"].format(
        derived=_join(lang, derived),
        patterns=said["picture.alt_patterns"].format(names=_join(lang, held)) if held
        else said["picture.patterns_none"],
    )
    school = school_line(chart.school, lang)
    if school is not None:
        described += said["picture.alt_school"].format(school=school)
    # The other schools (docs/rules.md §10.1): the caption's line, as under every chart; the pixels keep to the chart.
    described += said["picture.alt_school"].format(school=summary_line(chart, lang).rstrip(".。"))
    # A classical chart has no pillars: drop the empty sentence it would leave.
    described = described.replace("。。", "。").replace(". .", ".")
    # Every school option at once with a long zone name comes near Discord's limit: never past it.
    return described if len(described) <= ALT_MAX else described[: ALT_MAX - 1] + "…"


ALT_MAX = 1024  # Discord's limit for an attachment's description


def _join(lang: Lang, parts: Iterable[str]) -> str:
    return ("; " if lang == "en" else "、").join(parts)
