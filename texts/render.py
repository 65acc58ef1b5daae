"""The chart as text for a terminal, in the reader's language: the 天地盤 ring, 四課, 三伝, 課体, trace.

>>> from engine import cast_classical
>>> print(ring(cast_classical("甲子", "亥", "午")))
│合戌│雀亥│蛇子│貴丑│
│勾酉│　　│　　│后寅│
│龍申│　　│　　│陰卯│
│空未│虎午│常巳│玄辰│
"""

from __future__ import annotations

from engine.chart import Chart
from engine.facts import Facts, facts
from engine.patterns import Patterns, classify
from engine.symbols import Branch
from texts.when import on_clock
from texts.words import Lang, shorts, solar_term, term, text
from texts.words.explain import chart_name, explain, show
from texts.words.schools import school_line

# 地盤 positions of the square ring, read row by row (south at the top, as printed in the books).
_RING_ROWS = ("巳午未申", "辰  酉", "卯  戌", "寅丑子亥")
# The same as 地盤 branches (None: an empty cell), looked up once rather than on every ring drawn.
_RING_GROUNDS = tuple(tuple(None if ch == " " else int(Branch[ch]) for ch in row) for row in _RING_ROWS)
_NAMES = tuple(str(b) for b in Branch)  # a branch as printed, by its number
_SPACE = "\u3000"  # a full-width space keeps CJK columns aligned
_BLANK = _SPACE * 2  # one empty cell


def heading(chart: Chart, lang: Lang) -> str:
    """The chart's name line and, for an instant, the moment, zone, pillars and 中気."""
    head = text(
        "render.heading",
        lang,
        day=chart.day,
        hour=chart.hour,
        yuejiang=chart.yuejiang,
        name=chart_name(chart.transmissions, lang),
    )
    m = chart.moment
    if m is None:
        return head
    override = (
        "" if chart.yuejiang == m.yuejiang else text("render.override", lang, calendar=m.yuejiang, given=chart.yuejiang)
    )
    return (
        head
        + "\n"
        + text(
            "render.moment",
            lang,
            local=f"{m.local:%Y-%m-%d %H:%M}",
            zone=m.zone,
            abbreviation=m.local.tzname(),
            year=m.year,
            month=m.month,
            day=m.day,
            hour=m.hour,
            term=solar_term(m.principal_term.name, lang),
            instant=on_clock(m.principal_term.instant, m.local.tzinfo),  # the chart's own zone
        )
        + override
    )


def ring(chart: Chart, lang: Lang = "ja") -> str:
    """The 天地盤: each cell is the general's one-character form (in ``lang``'s script) and the 天盤
    branch; a cell's place in the square is its 地盤 branch."""
    offset = chart.plate.offset  # Plate.up, without a call each
    over = shorts(chart.generals.by_ground, lang)  # Generals.over, written: each general once
    return "\n".join([
        "│" + "│".join([_BLANK if ground is None else over[ground] + _NAMES[(ground + offset) % 12]
                       for ground in row]) + "│"
        for row in _RING_GROUNDS
    ])


def lessons(chart: Chart, lang: Lang) -> str:
    """四課 in the book's order, right to left: 四 三 二 一."""
    order = chart.lessons[::-1]
    numerals, number = text("render.numerals", lang), text("render.lesson_number", lang)  # number: its template
    on = chart.generals.on
    rows = (
        (text("render.lessons", lang), [number.format(number=numerals[x.number - 1]) for x in order]),
        (text("render.general_row", lang), [s + _SPACE for s in shorts([on(x.upper) for x in order], lang)]),
        (text("render.upper_row", lang), [x.upper._name_ + _SPACE for x in order]),
        (text("render.lower_row", lang), [x.lower._name_ + _SPACE for x in order]),
        (
            text("render.relation_row", lang),
            [(term(x.relation, lang) if x.relation else _SPACE) + _SPACE for x in order],  # term: show's for it
        ),
    )
    return "\n".join(f"{label}  " + " ".join(cells) for label, cells in rows)


def transmissions(chart: Chart, known: Facts, lang: Lang) -> str:
    """三伝 with 遁干, 天将, 六親, 旺相休囚死 (when the month is known) and the 空亡 mark."""
    width = max(len(show(step.position, lang)) for step in chart.steps)  # "initial"/"middle" differ in English
    rows = []
    for step, fact in zip(chart.steps, known.steps, strict=True):
        stem = str(step.hidden_stem) if step.hidden_stem is not None else _SPACE
        vigour = f"  {show(fact.vigour, lang)}" if fact.vigour is not None else ""
        mark = f" {text('render.void_mark', lang)}" if step.void else ""
        rows.append(
            f"{show(step.position, lang).ljust(width)}  {stem}{step.branch}  "
            f"{show(step.general, lang)}  {show(step.kin, lang)}"
            f"{vigour}  ({text('render.ground', lang, branch=step.ground)}){mark}"
        )
    return "\n".join(rows)


def derived(known: Facts, lang: Lang) -> str:
    """驛馬, 丁神, and 天馬, 太歳, 月建, 本命, 行年 where known, on one line."""
    parts = [text("render.derived", lang, horse=known.travel_horse, ding=known.ding)]
    for key, value in (
        ("heavenly_horse", known.heavenly_horse),
        ("year", known.year),
        ("month", known.month),
        ("natal", known.natal),
        ("walking", known.walking_year),
    ):
        if value is not None:
            parts.append(text(f"render.{key}", lang, branch=value))
    return "  ".join(parts)


def patterns(found: Patterns, lang: Lang) -> str:
    """課体 that hold, with their reasons, then those an input is missing for."""
    lines = [
        f"  {show(p.name, lang)}: " + text("list.sep", lang).join(explain(w, lang, with_seed=False) for w in p.reasons)
        for p in found.held
    ]
    lines += [
        "  " + text("render.undecided", lang, name=show(u.name, lang), why=explain(u.why, lang, with_seed=False))
        for u in found.undecided
    ]
    if not lines:
        return text("render.patterns_none", lang)
    return text("render.patterns", lang) + "\n" + "\n".join(lines)


def trace(chart: Chart, lang: Lang) -> str:
    return text("render.trace", lang) + "\n" + "\n".join(f"  {explain(w, lang)}" for w in chart.transmissions.trace)


def render_text(
    chart: Chart, lang: Lang = "ja", *, with_trace: bool = True, known: Facts | None = None, with_patterns: bool = True
) -> str:
    """The whole chart as a terminal shows it; ``known`` passes facts derived with birth data.

    ``with_patterns=False`` (and ``with_trace=False``) leave out the 課体 and the trace: a reading
    printed after the chart (texts/reading/sentences.py render_reading) says each of them once, in its place."""
    known = known if known is not None else facts(chart)
    g = chart.generals
    school = school_line(chart.school, lang)  # the non-default school options, named
    parts = [
        heading(chart, lang),
        *((school,) if school is not None else ()),
        text(
            "render.void_noble",
            lang,
            void="".join(map(str, chart.void)),
            noble=g.noble,
            daytime=text("noble.day" if g.daytime else "noble.night", lang),
            direction=text("noble.clockwise" if g.clockwise else "noble.counter", lang),
        ),
        text("render.ring", lang),
        ring(chart, lang),
        lessons(chart, lang),
        f"{text('render.transmissions', lang)}  {chart_name(chart.transmissions, lang)}",
        transmissions(chart, known, lang),
        derived(known, lang),
    ]
    if with_patterns:  # not when a reading follows, which says them
        parts.append(patterns(classify(chart, known), lang))
    if with_trace:
        parts.append(trace(chart, lang))
    return "\n".join(parts)
