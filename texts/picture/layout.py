"""Where everything on the chart picture goes: a chart in, a list of shapes and texts out.

Pure and font-agnostic apart from a ``measure`` function the painter passes in (so long labels
can be fitted). Coordinates are at 1× (the size the picture is displayed at); the painter draws
at 2×. No text is smaller than ``MIN_TEXT`` px at 1×, so it stays readable on a phone.

What is drawn: the header (day, hour, 月将, 課名, moment and zone, the four pillars,
旬空, 貴人 晝/夜 順/逆); the 天地盤 as the square ring, each cell at its fixed 地盤 place with the
天将 (top left), the 天盤 branch (large) and the 地盤 branch (small, bottom right), the day stem's
寄宮 and the hour tagged, 空亡 tagged and coloured; the 四課 right to left; the 三伝 with 遁干,
天将, 六親 and 地盤, the 發用 emphasised; and a legend.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.chart import Chart
from engine.facts import Facts, facts
from engine.patterns import Pattern, Patterns, classify
from engine.symbols import Branch
from engine.terms import General
from texts.picture.shapes import (
    CELL,
    MARGIN,
    MIN_TEXT,
    RING_ROWS,
    WIDTH,
    Box,
    Item,
    Layout,
    Measure,
    Role,
    Text,
    hour_span,
    shown_facts,
)
from texts.words import Lang, solar_term, term, text
from texts.words.explain import chart_name
from texts.words.schools import school_line


def _fit(measure: Measure, value: str, size: int, bold: bool, room: float) -> int:
    """The largest size ≤ ``size`` (and ≥ MIN_TEXT) at which ``value`` fits in ``room`` px."""
    while size > MIN_TEXT and measure(value, size, bold) > room:
        size -= 1
    return size


_TOKEN = re.compile(r"[^\s、，,：:・·]*[\s、，,：:・·]*")  # a word and the spaces or separators after it


def _wrap(measure: Measure, value: str, size: int, bold: bool, room: float) -> list[str]:
    """``value`` broken into lines no wider than ``room``: after a space or a list separator
    (、，：・), and inside a word only when the word alone is wider than the room."""
    tokens = [t for t in _TOKEN.findall(value) if t]
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and measure((line + token).rstrip(), size, bold) > room:
            lines.append(line.rstrip())
            line = ""
        while measure(token.rstrip(), size, bold) > room and len(token) > 1:  # one word wider than the room
            cut = max(k for k in range(1, len(token)) if measure(token[:k], size, bold) <= room or k == 1)
            lines.append(token[:cut])
            token = token[cut:]
        line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _tag_width(measure: Measure, label: str, size: int = MIN_TEXT) -> float:
    """A tag's width: its bold label with room either side, never narrower than it is tall."""
    return max(measure(label, size, True) + 8, size + 6)


def _badge(items: list[Item], x: float, y: float, label: str, fill: Role, measure: Measure,
           size: int = MIN_TEXT) -> float:
    """A small filled tag with ``label``, its left edge at x and its middle at y; returns its right."""
    width = _tag_width(measure, label, size)
    items.append(Box(x, y - size / 2 - 3, x + width, y + size / 2 + 3, fill=fill, radius=4))
    items.append(Text(x + width / 2, y, label, size, "badge_text", bold=True, anchor="mm"))
    return x + width


_Tag = tuple[str, float]  # a tag's word and its width


def _void_badge(items: list[Item], x: float, y: float, tag: _Tag) -> float:
    """The 空亡 tag (its word and its width, measured once a picture), outlined in the void colour so
    it reads apart from the filled tags; its left edge at x and its middle at y; returns its right."""
    label, width = tag
    items.append(Box(x, y - MIN_TEXT / 2 - 3, x + width, y + MIN_TEXT / 2 + 3, outline="void", width=2, radius=4))
    items.append(Text(x + width / 2, y, label, MIN_TEXT, "void", bold=True, anchor="mm"))
    return x + width


def _header(chart: Chart, lang: Lang, measure: Measure, items: list[Item]) -> float:
    room = WIDTH - 2 * MARGIN
    y = MARGIN + 26
    title = text("picture.title", lang, day=chart.day, hour=chart.hour)
    items.append(Text(MARGIN, y, title, _fit(measure, title, 26, True, room * 0.62), "fg", bold=True))
    yuejiang = text("picture.yuejiang", lang, branch=chart.yuejiang)
    items.append(Text(WIDTH - MARGIN, y, yuejiang, _fit(measure, yuejiang, 20, True, room * 0.36), "fg",
                      bold=True, anchor="rs"))
    y += 32
    name = text("picture.name", lang, name=chart_name(chart.transmissions, lang))
    items.append(Text(MARGIN, y, name, _fit(measure, name, 22, True, room), "accent", bold=True))
    y += 26
    m = chart.moment
    if m is None:
        line = text("picture.classical", lang)
        items.append(Text(MARGIN, y, line, _fit(measure, line, 15, False, room), "muted"))
    else:
        abbreviation = m.local.tzname()
        zone = f"{m.zone} {abbreviation}" if abbreviation not in (None, m.zone) else m.zone
        line = text("picture.moment", lang, when=hour_span(chart), zone=zone)
        size = _fit(measure, line, 16, False, room)
        # A long zone name (America/Argentina/ComodRivadavia) does not fit even at the smallest size:
        # it goes on a line of its own rather than past the margin.
        fits = measure(line, size, False) <= room
        for i, part in enumerate([line] if fits else _wrap(measure, line, size, False, room)):
            y += 20 if i else 0
            items.append(Text(MARGIN, y, part, size, "muted"))
        y += 24
        line = text("picture.pillars", lang, year=m.year, month=m.month, day=m.day, hour=m.hour)
        principal = text("picture.principal_term", lang, term=solar_term(m.principal_term.name, lang))
        term_size = _fit(measure, principal, 17, True, room * 0.3)
        term_width = measure(principal, term_size, True)
        items.append(Text(MARGIN, y, line, _fit(measure, line, 17, False, room - term_width - 12), "fg"))
        items.append(Text(WIDTH - MARGIN, y, principal, term_size, "fg", bold=True, anchor="rs"))
    y += 26
    g = chart.generals
    void = text("picture.void", lang, branches="".join(map(str, chart.void)))
    noble = text("picture.noble", lang, branch=g.noble, time=text("noble.day" if g.daytime else "noble.night", lang),
                 direction=text("noble.clockwise" if g.clockwise else "noble.counter", lang))
    void_size = _fit(measure, void, 17, False, room * 0.4)
    items.append(Text(MARGIN, y, void, void_size, "void", bold=True))
    left = MARGIN + measure(void, void_size, True) + 18
    items.append(Text(left, y, noble, _fit(measure, noble, 17, False, WIDTH - MARGIN - left), "noble", bold=True))
    school = school_line(chart.school, lang)  # a chart cast by another school says so
    if school is not None:
        for line in _wrap(measure, school, MIN_TEXT, True, room):
            y += 20
            items.append(Text(MARGIN, y, line, MIN_TEXT, "accent", bold=True))
    return y + 16


# Each ring cell's 地盤 branch and its offset from the ring's top left, row by row (RING_ROWS).
_CELLS: tuple[tuple[Branch, int, int], ...] = tuple(
    (Branch[place], column * CELL, row * CELL)
    for row, places in enumerate(RING_ROWS) for column, place in enumerate(places) if place != " "
)


def _ring(chart: Chart, top: float, lang: Lang, void_tag: _Tag, measure: Measure, items: list[Item],
          highlight: frozenset[General]) -> float:
    """The twelve cells (each with its 天将, 天盤 and 地盤 branches and tags) round the ring's centre."""
    append = items.append
    for ground, dx, dy in _CELLS:
        x, y = MARGIN + dx, top + dy
        heaven = chart.plate.up(ground)
        general = chart.generals.over(ground)
        empty = heaven in chart.void
        append(Box(x, y, x + CELL, y + CELL, fill="panel", outline="grid", width=1))
        append(Text(x + 7, y + 7, term(general, lang), 16, "noble" if general == General.貴人 else "general",
                    bold=True, anchor="la"))
        append(Text(x + CELL / 2, y + CELL / 2, str(heaven), 44, "void" if empty else "fg", bold=True, anchor="mm"))
        append(Text(x + CELL - 7, y + CELL - 7, str(ground), 16, "muted", anchor="rs"))
        if empty:
            _void_badge(items, x + CELL - 6 - (MIN_TEXT + 6), y + 17, void_tag)
        left: float = x + 6
        if ground == chart.day.stem.lodging:
            left = _badge(items, left, y + CELL - 14, str(chart.day.stem), "lodging", measure) + 4
        if ground == chart.hour:
            _badge(items, left, y + CELL - 14, text("picture.tag_hour", lang), "hour", measure)
        if general in highlight:  # a 類神 of the matter asked
            append(Box(x + 2, y + 2, x + CELL - 2, y + CELL - 2, outline="spirit", width=3))
    _ring_centre(chart, MARGIN + CELL, top + CELL, lang, measure, items)
    return top + 4 * CELL


def _ring_centre(chart: Chart, x: float, y: float, lang: Lang, measure: Measure, items: list[Item]) -> None:
    """The middle of the ring: its name, a sample cell saying what is where, the 寄宮 and hour."""
    mid = x + CELL
    items.append(Text(mid, y + 26, text("picture.ring", lang), 18, "fg", bold=True, anchor="ms"))
    sx0, sy0, sx1, sy1 = mid - 62, y + 40, mid + 62, y + 132
    items.append(Box(sx0, sy0, sx1, sy1, fill="panel", outline="grid", width=1))
    sample_general = text("picture.sample_general", lang)
    items.append(Text(sx0 + 6, sy0 + 5, sample_general, _fit(measure, sample_general, 14, True, 110), "general",
                      bold=True, anchor="la"))
    heaven = text("picture.sample_heaven", lang)
    items.append(Text(mid, (sy0 + sy1) / 2 + 2, heaven, _fit(measure, heaven, 24, True, 110), "fg", bold=True,
                      anchor="mm"))
    items.append(Text(sx1 - 6, sy1 - 6, text("picture.sample_ground", lang), MIN_TEXT, "muted", anchor="rs"))
    stem = chart.day.stem
    lodging = text("picture.lodging", lang, stem=stem, branch=stem.lodging)
    items.append(Text(mid, y + 158, lodging, _fit(measure, lodging, 15, False, 2 * CELL - 12), "fg", anchor="ms"))
    hour = text("picture.hour_at", lang, branch=chart.hour)
    items.append(Text(mid, y + 182, hour, 15, "fg", anchor="ms"))


_LABEL_ROOM = 84.0  # the 四課's row labels, left of the four columns
_COLUMN = (WIDTH - 2 * MARGIN - _LABEL_ROOM) / 4
# The middle of each lesson's column, 一課 first: 四課 at the left and 一課 at the right (the books' order).
_CENTRES = tuple(MARGIN + _LABEL_ROOM + _COLUMN * (3 - i) + _COLUMN / 2 for i in range(4))
_LESSON_ROWS = (("picture.lesson_row_general", 36), ("picture.lesson_row_upper", 42),
                ("picture.lesson_row_lower", 42), ("picture.lesson_row_relation", 30))


def _lessons(chart: Chart, top: float, lang: Lang, void_tag: _Tag, measure: Measure, items: list[Item]) -> float:
    """四課 as four columns, 四課 at the left and 一課 at the right (the books' order)."""
    items.append(Text(MARGIN, top + 20, text("picture.lessons", lang), 18, "fg", bold=True))
    y = top + 48
    for lesson, cx in zip(chart.lessons, _CENTRES, strict=True):
        items.append(Text(cx, y, text(f"picture.lesson_number.{lesson.number}", lang), 15, "muted", anchor="ms"))
    y += 8
    box_top = y
    for key, height in _LESSON_ROWS:
        label = text(key, lang)
        items.append(Text(MARGIN, y + height / 2, label, _fit(measure, label, 15, False, _LABEL_ROOM - 6), "muted",
                          anchor="lm"))
        y += height
    items.append(Box(MARGIN + _LABEL_ROOM, box_top, WIDTH - MARGIN, y, fill="panel", outline="grid", width=1))
    generals = chart.generals
    for lesson, cx in zip(chart.lessons, _CENTRES, strict=True):
        row_y = box_top
        general = generals.on(lesson.upper)
        items.append(Text(cx, row_y + 36 / 2, term(general, lang), 17,
                          "noble" if general == General.貴人 else "general", bold=True, anchor="mm"))
        row_y += 36
        void = lesson.upper in chart.void
        items.append(Text(cx, row_y + 21, str(lesson.upper), 32, "void" if void else "fg", bold=True, anchor="mm"))
        if void:
            _void_badge(items, cx + 19, row_y + 12, void_tag)
        row_y += 42
        items.append(Text(cx, row_y + 21, str(lesson.lower), 32, "fg", bold=True, anchor="mm"))
        row_y += 42
        if lesson.relation is not None:
            # The bare character: the shared term may carry a gloss too wide for the column.
            items.append(Text(cx, row_y + 15, text(f"picture.relation.{lesson.relation}", lang), 18, "accent",
                              bold=True, anchor="mm"))
    for i in range(1, 4):
        x = MARGIN + _LABEL_ROOM + _COLUMN * i
        items.append(Box(x, box_top, x, y, outline="grid", width=1))
    return y


def _transmissions(chart: Chart, known: Facts, top: float, lang: Lang, void_tag: _Tag, measure: Measure,
                   items: list[Item]) -> float:
    """三伝: position, 遁干, branch, 天将, 六親, 旺相休囚死 (when the month is known) over the 地盤;
    the 初伝 row (發用) in the accent colour.

    Columns follow the widest position label of the language, so English words fit as well as
    two CJK characters; the 發用 tag sits under the 初伝 label.
    """
    items.append(Text(MARGIN, top + 20, text("picture.transmissions", lang), 18, "fg", bold=True))
    steps = chart.steps
    positions = [term(step.position, lang) for step in steps]
    initial = text("picture.initial", lang)
    left = MARGIN + 10 + max(*(measure(p, 18, True) for p in positions), measure(initial, MIN_TEXT, True) + 8)
    hidden_x = left + 24
    branch_x = hidden_x + 40
    general_x = branch_x + 50  # room for a 空 tag beside the branch
    generals = [term(step.general, lang) for step in steps]
    general_heading = text("picture.column_general", lang)
    kin_x = general_x + max(*(measure(g, 18, True) for g in generals), measure(general_heading, MIN_TEXT, False)) + 16
    ground_x = WIDTH - MARGIN - 8
    y = top + 46
    vigours = [fact.vigour for fact in known.steps]
    # With the month known, the 旺相休囚死 word goes under the 六親 word.
    kin_heading = text("picture.column_kin_vigour" if any(v is not None for v in vigours) else "picture.column_kin",
                       lang)
    items.append(Text(hidden_x, y, text("picture.column_hidden", lang), MIN_TEXT, "muted", anchor="ms"))
    items.append(Text(general_x, y, general_heading, MIN_TEXT, "muted"))
    items.append(Text(kin_x, y, kin_heading, MIN_TEXT, "muted"))
    y += 8
    row = 52
    on_ground = text("picture.on_ground", lang)
    for i, step in enumerate(steps):
        first = i == 0
        top_y, mid = y + i * row, y + i * row + row / 2
        items.append(Box(MARGIN, top_y, WIDTH - MARGIN, top_y + row, fill="accent_bg" if first else "panel",
                         outline="accent" if first else "grid", width=2 if first else 1))
        if first:
            items.append(Text(MARGIN + 10, mid - 2, positions[i], 18, "accent", bold=True))
            _badge(items, MARGIN + 10, mid + 12, initial, "accent", measure)
        else:
            items.append(Text(MARGIN + 10, mid, positions[i], 18, "fg", bold=True, anchor="lm"))
        if step.hidden_stem is not None:
            items.append(Text(hidden_x, mid, str(step.hidden_stem), 20, "muted", bold=True, anchor="mm"))
        items.append(Text(branch_x, mid, str(step.branch), 32, "void" if step.void else ("accent" if first else "fg"),
                          bold=True, anchor="mm"))
        if step.void:
            _void_badge(items, branch_x + 19, mid - 10, void_tag)
        items.append(Text(general_x, mid, generals[i], 18, "noble" if step.general == General.貴人 else "general",
                          bold=True, anchor="lm"))
        ground = on_ground.format(branch=str(step.ground))
        items.append(Text(ground_x, mid, ground, 15, "muted", anchor="rm"))
        kin = term(step.kin, lang)
        room = ground_x - measure(ground, 15, False) - 10 - kin_x
        vigour = vigours[i]
        if vigour is None:
            items.append(Text(kin_x, mid, kin, _fit(measure, kin, 18, False, room), "fg", anchor="lm"))
        else:  # 六親 above, 旺相休囚死 below it
            items.append(Text(kin_x, mid - 10, kin, _fit(measure, kin, 17, False, room), "fg", anchor="lm"))
            word = term(vigour, lang)
            items.append(Text(kin_x, mid + 12, word, _fit(measure, word, 15, True, room), "fg", bold=True, anchor="lm"))
    return y + 3 * row


def _flow(items: list[Item], top: float, chips: list[tuple[str, str]], label_size: int, value_size: int,
          measure: Measure, value_role: Role = "fg") -> float:
    """Label–value pairs (``驛馬 寅``) flowed left to right over as many lines as they need; returns the bottom."""
    x, y = float(MARGIN), top + value_size
    for label, value in chips:
        label_width = measure(label, label_size, False) if label else 0.0
        value_width = measure(value, value_size, True)
        width = label_width + (6 if label else 0) + value_width
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x, y = float(MARGIN), y + value_size + 12
        if label:
            items.append(Text(x, y, label, label_size, "muted"))
        items.append(Text(x + width - value_width, y, value, value_size, value_role, bold=True))
        x += width + 18
    return y + 6


def _derived(known: Facts, top: float, lang: Lang, measure: Measure, items: list[Item]) -> float:
    """The facts the picture shows (``shown_facts``), those known, as chips flowed in its order."""
    chips = [(text(key, lang), str(value)) for key, value in shown_facts(known) if value is not None]
    return _flow(items, top, chips, 15, 20, measure)


def _patterns(held: tuple[Pattern, ...], top: float, lang: Lang, measure: Measure, items: list[Item]) -> float:
    """The 課体 that hold, as names flowed after their heading."""
    items.append(Text(MARGIN, top + 20, text("picture.patterns", lang), 18, "fg", bold=True))
    if not held:
        items.append(Text(MARGIN, top + 46, text("picture.patterns_none", lang), 15, "muted"))
        return top + 52
    return _flow(items, top + 26, [("", term(p.name, lang)) for p in held], 15, 18, measure, "accent")


def _legend(chart: Chart, top: float, lang: Lang, void_tag: _Tag, measure: Measure, items: list[Item],
            spirits: bool) -> float:
    """Tags and colours explained, flowed over as many lines as the language needs."""
    entries: list[tuple[str, Role | None, str]] = [
        (str(chart.day.stem), "lodging", text("picture.legend_lodging", lang)),
        (text("picture.tag_hour", lang), "hour", text("picture.legend_hour", lang)),
        (void_tag[0], None, text("picture.legend_void", lang)),
        (text("picture.initial", lang), "accent", text("picture.legend_initial", lang)),
    ]
    if spirits:  # the outlined cells
        entries.append((text("matter.picture_tag", lang), "spirit", text("matter.picture_legend", lang)))
    x, y = float(MARGIN), top + 12
    for tag, fill, label in entries:
        tag_width = void_tag[1] if fill is None else _tag_width(measure, tag)
        width = tag_width + 5 + measure(label, MIN_TEXT, False)
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x, y = float(MARGIN), y + 24
        right = _void_badge(items, x, y, void_tag) if fill is None else _badge(items, x, y, tag, fill, measure)
        items.append(Text(right + 5, y, label, MIN_TEXT, "muted", anchor="lm"))
        x += width + 14
    return y + 12


def layout(chart: Chart, lang: Lang, measure: Measure, known: Facts | None = None,
           highlight: frozenset[General] = frozenset(), patterns: Patterns | None = None) -> Layout:
    """Everything to draw for ``chart`` in ``lang``, top to bottom, at 1×; ``known`` passes the facts
    derived with the querent's birth data (本命, 行年), else they are derived from the chart alone;
    ``highlight`` outlines the cells of these generals (the 類神 of the matter asked); ``patterns``
    is ``classify(chart, known)`` when the caller has it (the alt text reads it too)."""
    known = known if known is not None else facts(chart)
    held = (patterns if patterns is not None else classify(chart, known)).held
    void = text("picture.tag_void", lang)
    void_tag = (void, _tag_width(measure, void))
    items: list[Item] = []
    y = _header(chart, lang, measure, items)
    y = _ring(chart, y + 12, lang, void_tag, measure, items, highlight)
    y = _lessons(chart, y + 14, lang, void_tag, measure, items)
    y = _transmissions(chart, known, y + 12, lang, void_tag, measure, items)
    y = _derived(known, y + 10, lang, measure, items)
    y = _patterns(held, y + 8, lang, measure, items)
    y = _legend(chart, y + 12, lang, void_tag, measure, items, bool(highlight))
    return Layout(WIDTH, int(y + MARGIN), tuple(items))


def texts_of(items: Iterable[Item]) -> str:
    """Every character a layout draws (the font must hold each one)."""
    return "".join(item.text for item in items if isinstance(item, Text))
