"""A chart read as a teacher reads it: what matters first, each classical line once.

:func:`read` is the one place that goes from a chart to its matched lines; the ``liuren`` CLI, the
bot's /cast, /chart and daily post, and the bot's terminal fallback all call it. The order is a
teacher's, the same in every medium:

1. ``課名`` — the 課名 with its 課体 verse (¶139–¶147), ¶139's framing line once;
2. ``發用`` — the 初伝: its general's opening line (not 貴人's: ¶87 only places the generals), the
   name line for the branch it stands on, and stated facts (六親, 旺相, 空亡, 遁干);
3. ``干支`` — 干上神 and 支上神 with their 六親 to the day stem, as stated facts; ¶39 (寄宮) is quoted
   only where a reason of this chart turns on a stem's 寄宮;
4. ``課体`` — the other named 課体 (¶151–¶175), one fact triggering two named together; a 課体 left
   undecided for want of an input is named once, with its reason;
5. ``中末`` — 中伝 and 末伝: their name lines; a repeated 伝 says "same as above";
6. ``取法`` — last, how the 初伝 was taken: the 賦 verse and its annotation, with the trace.

Entries carry values (texts/reading/values.py), never sentences: texts/reading/sentences.py writes them in the
reader's language. Where the seed has no line for something the reading states, the entry has no
unit and says so: nothing is quoted that the seed does not hold, and a fact stated from the chart
(六親, 旺相, 空亡, 遁干) never sits under a quotation, where it would read as the seed's.
"""

from __future__ import annotations

from engine.chart import Chart, Step, kin
from engine.facts import Facts
from engine.facts import facts as derive_facts
from engine.patterns import Pattern, Patterns, classify
from engine.reasons import Rule, Value
from engine.school import School
from engine.symbols import Branch
from engine.terms import Frame, General, Method, PatternName, Position, Role
from texts.corpus import Corpus, Unit, corpus
from texts.memo import LRU, Hashed, Sampled
from texts.reading import stated
from texts.reading.values import Entry, Note, Reading, Said, Section

# Openings that speak of the general only as 發用: ¶95 「但見騰蛇」 and ¶107 「或逢勾陳發用」. They are
# quoted for the 初伝 alone.
_INITIAL_ONLY = frozenset({General.騰蛇, General.勾陳})

# The method patterns, whose verse belongs with the 課名 (¶143–¶147); the others follow the 干支.
_NAME_PATTERNS = frozenset({
    PatternName.元首, PatternName.重審, PatternName.知一, PatternName.見機, PatternName.察微, PatternName.蒿矢,
    PatternName.弾射, PatternName.昴星, PatternName.別責, PatternName.八専, PatternName.伏吟, PatternName.自任,
    PatternName.自信, PatternName.反吟, PatternName.無依, PatternName.冬蛇掩目, PatternName.虎視転蓬, PatternName.帷簿
})

# Reasons that turn on a stem's 寄宮 (¶39 「甲課在寅…」): only a chart with one of them quotes ¶39.
_LODGING_RULES = frozenset({
    Rule.EIGHT_SPECIALS_OVERCOMING, Rule.EIGHT_SPECIALS_YANG, Rule.EIGHT_SPECIALS_YIN, Rule.SEPARATE_YANG,
    Rule.DEPTHS, Rule.P_八専, Rule.P_帷簿, Rule.P_乱首, Rule.P_贅婿, Rule.P_天獄
})

# How each method takes the 初伝, as the seed's units (¶51–¶83): the 賦 verse with its annotation
# first, then the method's own lines.
_METHOD_UNITS: dict[Method, tuple[str, ...]] = {
    Method.重審: ("method.賊剋", "method.重審", "method.重審元首", "procedure.相因"),
    Method.元首: ("method.賊剋", "method.元首", "method.重審元首", "procedure.相因"),
    Method.知一: ("method.比用渉害", "method.比用", "method.知一", "procedure.相因"),
    Method.見機: ("method.比用渉害", "method.渉害", "method.見機", "procedure.相因"),
    Method.察微: ("method.比用渉害", "method.渉害", "method.察微", "procedure.相因"),
    Method.綴瑕: ("method.比用渉害", "method.渉害", "procedure.相因"),
    Method.渉害: ("method.比用渉害", "method.渉害", "procedure.相因"),
    Method.蒿矢: ("method.遙剋", "method.蒿矢", "procedure.相因"),
    Method.弾射: ("method.遙剋", "method.弾射", "procedure.相因"),
    Method.昴星: ("method.昴星",),
    Method.別責: ("method.別責",),
    Method.八専: ("method.八専",),
    Method.自任: ("method.伏吟反吟", "method.伏吟", "procedure.三刑"),
    Method.自信: ("method.伏吟反吟", "method.伏吟", "procedure.三刑"),
    Method.無依: ("method.反吟", "method.無依"),
}
# A frame tried before 賊剋 adds its own verse first (¶79, ¶83).
_FRAME_UNITS: dict[Frame, tuple[str, ...]] = {
    Frame.反吟: ("method.伏吟反吟", "method.反吟"),
    Frame.八専: ("method.八専",),
}
# A method the seed has no rule line for (docs/rules.md decides it); the note says so. (渉害 by the
# depth count says so in its own reasons: engine.reasons marks DEPTHS as outside the seed.)
_NO_RULE_LINE = frozenset({Method.綴瑕})
# ¶63's 「如有二克或克二者，亦如比用之法」: quoted where several 遙剋 candidates went through 比用.
_REMOTE_SEVERAL_UNIT = "method.遙剋.比用"


class _Builder:
    """Collects entries, quoting each unit at most once."""

    def __init__(self, texts: Corpus) -> None:
        self.texts = texts
        self.entries: list[Entry] = []
        self.quoted: set[str] = set()

    def add(self, entry: Entry) -> None:
        unit = entry.unit
        if unit is None:
            self.entries.append(entry)
            return
        unit_id = unit.id
        if unit_id in self.quoted:
            if not entry.notes:
                return  # the line is already above and nothing new is said with it
            entry = Entry(
                entry.section,
                entry.role,
                entry.position,
                None,
                (*entry.notes, Note("quoted_above", (("unit", unit_id),))),
                entry.excluded,
                entry.same_as,
                entry.names,
            )
        self.quoted.add(unit_id)
        self.entries.append(entry)

    def unit(self, unit_id: str) -> Unit | None:
        try:
            return self.texts.get(unit_id)
        except KeyError:
            return None


# Readings kept by value (the reading's seam, docs/performance.md), by their measured bytes: each
# depends only on its inputs and facts; the corpus's units and the chart's parts are not the entry's.
BUDGET = 2**20
_SHARED = (Unit, Chart, Step, School)
_CACHE: LRU[tuple[object, ...], tuple[Patterns, tuple[Entry, ...]]] = LRU(BUDGET)  # weighed as put
_WEIGH = Sampled(_SHARED)  # an eighth measured (texts.memo.Sampled), the rest the moving mean


def read(
    chart: Chart,
    known: Facts | None = None,
    *,
    texts: Corpus | None = None,
    quoted: frozenset[str] = frozenset(),
    patterns: Patterns | None = None,
) -> Reading:
    """Read ``chart``: classify its 課体 and match the classical lines, in a teacher's order.

    ``known`` passes facts derived with birth data or a month/year (they decide 龍戦, 遊子 …);
    it defaults to the chart's own. ``texts`` defaults to the shipped corpus.
    ``quoted``: ids of units the reply has already quoted above (the matter section): each
    is referred back to ("quoted above"), not quoted again. ``patterns``: ``classify(chart, known)``
    when the caller has it already (the matter section does), so it is not worked out twice.
    """
    facts = derive_facts(chart) if known is None else known
    key = Hashed(chart.day, chart.yuejiang, chart.hour, chart.school, chart.steps, facts, quoted)
    cached = _CACHE.get(key) if texts is None else None
    if cached is None:
        found = classify(chart, facts) if patterns is None else patterns  # shared, not redone
        b = _Builder(corpus() if texts is None else texts)
        b.quoted.update(quoted)  # units the matter section quoted are referred back to
        _name(b, chart, found)
        _initial(b, chart, facts)
        _day(b, chart, found)
        _patterns(b, chart, facts, found)
        _later(b, chart)
        _method(b, chart)
        cached = (found, tuple(b.entries))
        if texts is None:
            _CACHE.put(key, cached, _WEIGH((key, cached)))
    return Reading(chart, facts, cached[0], cached[1], key if texts is None else ())


def _reasons(p: Pattern) -> tuple[Said, ...]:
    return (stated.PATTERN_NOTES[p.name], *p.reasons)


def _name(b: _Builder, chart: Chart, found: Patterns) -> None:
    """(1) The 課名: ¶139's framing once, then the verse of each method pattern."""
    held = [p for p in found.held if p.name in _NAME_PATTERNS]
    framing = b.unit("pattern.卦名")
    if framing is not None:
        t = chart.transmissions
        name = (
            stated.NAME_NOTES[t.method]
            if t.frame is None or t.frame._name_ == t.method._name_  # _name_: .name is a Python-level property
            else (Note("name_framed", (("frame", t.frame), ("method", t.method))),)
        )
        b.add(Entry(Section.課名, Role.課体, None, framing, name))
    # Several names may share one verse (伏吟 and 自信, 八専 and 帷簿): one entry says all their reasons.
    verses: dict[str, tuple[Unit, list[Said]]] = {}
    for p in held:
        unit = b.texts.pattern(p.name._name_)
        if unit is None:
            b.add(Entry(Section.課名, Role.課体, None, None, (*_reasons(p), *_no_verse(b.texts, p.name))))
            continue
        said = verses.setdefault(unit.id, (unit, []))[1]
        said.extend(p.reasons)
        if p.name is PatternName.伏吟:
            said.append(_hidden_chant_search(chart))
    for unit, said in verses.values():
        b.add(Entry(Section.課名, Role.課体, None, unit, tuple(said)))


def _hidden_chant_search(chart: Chart) -> Note:
    """¶147 on 伏吟: what is lost or fled is near — 「貴順支前一位尋之；貴逆支後一位尋之」."""
    day = chart.day.branch
    if chart.generals.clockwise:
        return Note("hidden_chant_search_順", (("branch", day), ("place", day + 1)))
    return Note("hidden_chant_search_逆", (("branch", day), ("place", day - 1)))


def _step_facts(chart: Chart, facts: Facts, index: int) -> tuple[Note, ...]:
    step, known = chart.steps[index], facts.steps[index]
    branch = step.branch
    notes: list[Note] = [stated.KIN_NOTES[branch][step.kin]]
    if known.vigour is not None and facts.month is not None:
        vigour_note = stated.VIGOUR_NOTES[branch][facts.month]
        if vigour_note.values[2][1] is not known.vigour:  # facts given by hand may say otherwise
            vigour_note = Note(
                "vigour", (stated.BRANCH[branch], stated.MONTH[facts.month], stated.VIGOUR[known.vigour])
            )
        notes.append(vigour_note)
    if step.void:
        notes.append(stated.VOID_NOTES[branch])
    elif step.hidden_stem is not None:
        notes.append(stated.HIDDEN_NOTES[branch][step.hidden_stem])
    return tuple(notes)


def _general_entries(b: _Builder, chart: Chart, index: int, section: Section, opening: bool) -> None:
    step = chart.steps[index]
    position = step.position
    general, ground = step.general, step.ground
    if opening:
        # the 伝 and its branch, then the general and the ground stands_on names
        rides = Note("rides", (stated.POSITION[position], stated.BRANCH[step.branch],
                               stated.GENERAL[general], stated.GROUND[ground]))
        if general is General.貴人:
            # ¶87 天乙居中 is where the generals stand, not what 貴人 means: its name line says that.
            b.entries.append(Entry(section, Role.天将, position, None, (rides, stated.NOBLE_OPENING)))  # no unit
        else:
            unit = b.texts.general(general)  # the General itself: a name would be normalized to find it
            if unit is not None and ground._name_ in unit.excludes:
                b.add(Entry(section, Role.天将, position, unit, (rides, stated.EXCLUDED[general][ground]), True))
            else:
                b.add(Entry(section, Role.天将, position, unit, (rides,)))
    on = b.texts.general_on(general, ground)
    if on is not None:
        b.add(Entry(section, Role.所臨, position, on, stated.STANDS_ON[general][ground], names=_names_for(on, ground)))
    elif general is General.天空:  # no unit: nothing quoted to keep track of
        b.entries.append(Entry(section, Role.所臨, position, None, stated.NO_LINE_SKY[ground]))
    else:
        on_ground = (stated.GENERAL[general], stated.GROUND[ground])
        b.entries.append(Entry(section, Role.所臨, position, None, (Note("no_line_on", on_ground),)))


def _no_verse(texts: Corpus, name: PatternName) -> tuple[Note, ...]:
    """A pattern without a verse of its own, and where the text names it all the same (昴星, ¶147)."""
    lines = texts.named_in_patterns(name._name_)
    said = Note("no_verse", (stated.NAME[name],))
    if not lines:
        return (said,)
    return said, Note("named_in", (stated.NAME[name], ("lines", ",¶".join(map(str, lines)))))


def _names_for(unit: Unit, ground: Branch) -> tuple[str, ...]:
    """The name the line gives the general on ``ground`` — only that branch's own (升堂 or 入室)."""
    name = unit.name_on(ground)
    return (name,) if name is not None else unit.names


def _initial(b: _Builder, chart: Chart, facts: Facts) -> None:
    """(2) The 發用: its general and name line, then what is stated of it."""
    _general_entries(b, chart, 0, Section.發用, opening=True)
    b.entries.append(Entry(Section.發用, Role.天将, Position.初伝, None, _step_facts(chart, facts, 0)))


def _day(b: _Builder, chart: Chart, found: Patterns) -> None:
    """(3) 干上神 and 支上神, each with its 六親 to the day stem (docs/rules.md §6: 六親 are the day stem's,
    never the branch's), stated from the chart. ¶39 (日辰, 寄宮) is quoted first only where a reason
    of this chart turns on a stem's 寄宮 (八専, 別責 on a 陽日, 乱首, 贅婿, 天獄, the depth count)."""
    stem = chart.day.stem
    if _turns_on_lodging(chart, found):
        lodging = Note("lodging", (("stem", stem), ("lodging", stem.lodging)))
        b.add(Entry(Section.干支, Role.干支, None, b.unit("procedure.日辰"), (lodging,)))
    generals, element, said_stem = chart.generals, stem.element, stated.STEM[stem]
    upper, lower = chart.stem_upper, chart.branch_upper
    notes = (
        Note("seat", (stated.STEM_SEAT, stated.UPPER[upper], stated.GENERAL[generals.on(upper)], said_stem,
                      stated.KIN[kin(element, upper.element)])),
        Note("seat", (stated.BRANCH_SEAT, stated.UPPER[lower], stated.GENERAL[generals.on(lower)], said_stem,
                      stated.KIN[kin(element, lower.element)])),
    )
    b.entries.append(Entry(Section.干支, Role.干支, None, None, notes))


def _turns_on_lodging(chart: Chart, found: Patterns) -> bool:
    """Whether a reason of the trace or of a 課体 held turns on a stem's 寄宮 (loops: no generators)."""
    for w in chart.transmissions.trace:
        if w.rule in _LODGING_RULES:
            return True
    for p in found.held:
        for w in p.reasons:
            if w.rule in _LODGING_RULES:
                return True
    return False


def _patterns(b: _Builder, chart: Chart, facts: Facts, found: Patterns) -> None:
    """(4) The other named 課体, a shared fact said once. The seed ties no 課体's force to a void or
    weak 初伝, so none is claimed here (the 初伝's 空亡 and 旺相 are stated once, under 發用); a
    課体 left undecided is named once, with the reason that leaves it open."""
    said: dict[tuple[Rule, tuple[tuple[str, Value], ...]], PatternName] = {}
    for p in found.held:
        if p.name in _NAME_PATTERNS:
            continue
        notes: list[Said] = [stated.PATTERN_NOTES[p.name]]
        for why in p.reasons:
            # 龍首 and 富貴 both hold because 貴人 rides the 初伝: say the fact once, point back.
            fact = (Rule.P_富貴 if why.rule is Rule.P_龍首_NOBLE else why.rule, why.values)
            if fact in said:
                notes.append(Note("same_fact", (stated.NAME[said[fact]],)))
            else:
                said[fact] = p.name
                notes.append(why)
        unit = b.texts.pattern(p.name._name_)
        if unit is None:
            notes.extend(_no_verse(b.texts, p.name))
        b.add(Entry(Section.課体, Role.課体, None, unit, tuple(notes)))
    for u in found.undecided:
        b.entries.append(Entry(Section.課体, Role.課体, None, None, (Note("undecided", (stated.NAME[u.name],)), u.why)))


def _later(b: _Builder, chart: Chart) -> None:
    """(5) 中伝 and 末伝: name lines; a repeated 伝 points back instead of quoting again."""
    steps = chart.steps
    first = steps[0]
    for index in (1, 2):
        step = steps[index]
        branch = step.branch
        if first.branch == branch:
            earlier: Position | None = first.position
        elif index == 2 and steps[1].branch == branch:
            earlier = steps[1].position
        else:
            earlier = None
        if earlier is not None:
            b.entries.append(
                Entry(
                    Section.中末,
                    Role.所臨,
                    step.position,
                    None,
                    (Note("same_as", (("position", step.position), ("earlier", earlier))),),
                    same_as=earlier,
                )
            )
            continue
        _general_entries(b, chart, index, Section.中末, opening=step.general not in _INITIAL_ONLY)
        if step.void:
            b.entries.append(
                Entry(Section.中末, Role.天将, step.position, None, (stated.VOID_NOTES[step.branch],))
            )


def _method(b: _Builder, chart: Chart) -> None:
    """(6) How the 初伝 was taken: the 賦 verse, its annotation, and the trace."""
    t = chart.transmissions
    method = t.method
    frame_ids = _FRAME_UNITS.get(t.frame, ()) if t.frame is not None else ()
    ids = (*frame_ids, *_METHOD_UNITS[method]) if frame_ids else _METHOD_UNITS[method]
    for w in t.trace:
        if w.rule is Rule.REMOTE_SEVERAL:
            # ¶63 「如有二克或克二者，亦如比用之法」 took the 初伝: quote it before the 相因.
            ids = (*ids[:-1], _REMOTE_SEVERAL_UNIT, ids[-1])
            break
    first = True
    for unit_id in dict.fromkeys(ids) if frame_ids else ids:  # only a frame's verses repeat a method's
        unit = b.unit(unit_id)
        if unit is None:
            continue
        if first:
            notes: tuple[Said, ...] = stated.METHOD_NOTES[method]
            if method in _NO_RULE_LINE:
                notes += (Note("no_rule_line", (stated.METHOD[method],)),)
            first = False
        else:
            notes = ()
        b.add(Entry(Section.取法, Role.課格 if unit_id in frame_ids else Role.課法, None, unit, notes))
    b.entries.append(Entry(Section.取法, Role.課法, None, None, t.trace))
