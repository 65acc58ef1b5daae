"""Questions drawn from the classical charts: charts by topic and level, a question asked of a
chart (its wrong choices plausible), a round of them. Values only: their text is sentences.py's.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from engine.alternatives import alternatives
from engine.chart import Chart
from engine.classical import classical_charts
from engine.generals import place_generals
from engine.patterns import classify
from engine.reasons import Rule, Why
from engine.school import DEFAULT_SCHOOL, School
from engine.symbols import BRANCHES, Branch
from engine.terms import GENERALS, PATTERN_NAMES, Method, PatternName
from texts.corpus import Unit, corpus
from texts.matters.recognise import MATTERS
from texts.matters.table import RULES
from texts.memo import remember
from texts.quiz.levels import Level
from texts.quiz.values import (
    LEVEL_KINDS,
    LEVEL_TOPICS,
    METHOD_PATTERNS,
    NEIGHBOURS,
    PATTERN_GROUPS,
    Answer,
    Explanation,
    Kind,
    Note,
    Prompt,
    Question,
    Split,
    Topic,
    Word,
)

# --- topics and the index ---------------------------------------------------------------------


def topic_of(chart: Chart) -> Topic:
    """The chart's topic: its frame (伏吟 反吟 八専) if it has one, else the method of its 初伝."""
    t = chart.transmissions
    return Topic(t.frame.name if t.frame is not None else t.method.name)


def level_of(topic: Topic) -> Level:
    """The level whose rounds draw charts of ``topic``."""
    return next(level for level, topics in LEVEL_TOPICS.items() if topic in topics)


def chart_key(chart: Chart) -> tuple[str, str, str]:
    """What tells classical charts apart (and what a store may keep): day, 月将, hour."""
    return (str(chart.day), str(chart.yuejiang), str(chart.hour))


@remember()
def index(school: School = DEFAULT_SCHOOL) -> Mapping[Topic, tuple[Chart, ...]]:
    """The 1,440 classical charts (engine/classical.py) by topic, built once per school.

    Every topic is a key; a topic no chart has under this school (渉害 without the depth-count
    option) maps to ``()``.
    """
    by_topic: dict[Topic, list[Chart]] = {t: [] for t in Topic}
    for chart in classical_charts(school):
        by_topic[topic_of(chart)].append(chart)
    return MappingProxyType({t: tuple(cs) for t, cs in by_topic.items()})


def topics(level: Level, school: School = DEFAULT_SCHOOL) -> tuple[Topic, ...]:
    """The level's topics that have charts under ``school``, in LEVEL_TOPICS order."""
    have = index(school)
    return tuple(t for t in LEVEL_TOPICS[level] if have[t])


def draw(level: Level, count: int, rng: random.Random, school: School = DEFAULT_SCHOOL) -> tuple[Chart, ...]:
    """Up to ``count`` distinct charts of the level: round-robin over its topics (each cycle in a
    random order), a random chart within each. A topic whose charts are used up is skipped; when
    every one is, the round is shorter than ``count``. Within that, the counts per topic differ by
    at most one.
    """
    if count < 0:
        raise ValueError(f"count={count}: give a number of questions, 0 or more")
    have = index(school)
    left = {t: list(have[t]) for t in topics(level, school)}
    drawn: list[Chart] = []
    while len(drawn) < count and any(left.values()):
        cycle = [t for t in left if left[t]]
        rng.shuffle(cycle)
        for topic in cycle:
            if len(drawn) == count:
                break
            pool = left[topic]
            drawn.append(pool.pop(rng.randrange(len(pool))))
    return tuple(drawn)


# --- questions --------------------------------------------------------------------------------


def _pick(answer: Answer, tiers: Iterable[Iterable[Answer]], n: int, rng: random.Random) -> tuple[Answer, ...]:
    """``n`` distinct wrong choices: each tier (shuffled) in turn, skipping the answer and repeats."""
    out: list[Answer] = []
    for tier in tiers:
        items = list(dict.fromkeys(x for x in tier if x != answer and x not in out))
        rng.shuffle(items)
        out.extend(items[: n - len(out)])
        if len(out) == n:
            break
    return tuple(out)


def _method_units(chart: Chart) -> tuple[str, ...]:
    """The seed's units for how this chart's 三伝 were taken: the frame's rule, then the method's."""
    t = chart.transmissions
    names: list[str] = []
    if t.frame is not None:
        names.append(t.frame.name)
    # 綴瑕 is the end of the 渉害 paragraph; 自任/自信 are the two sides of 伏吟.
    names.append({Method.綴瑕: "渉害", Method.自任: "伏吟", Method.自信: "伏吟"}.get(t.method, t.method.name))
    found = [u.id for u in (corpus().method(n) for n in names) if u is not None]
    if any(w.rule is Rule.REMOTE_SEVERAL for w in t.trace):
        found.append("method.遙剋.比用")  # ¶63 「如有二克或克二者，亦如比用之法」 took the 初伝
    return tuple(dict.fromkeys(found))


# What a question asks, its answer and its wrong choices.
_Asked = tuple[Prompt, Answer, tuple[Answer, ...]]


def _ask_transmission(chart: Chart, kind: Kind, n: int, rng: random.Random) -> _Asked:
    t, plate = chart.transmissions, chart.plate
    uppers = [x.upper for x in chart.lessons]
    if kind is Kind.INITIAL:
        answer = t.initial
        tiers: list[list[Branch]] = [
            list(t.candidates),  # the competitors the rule set aside
            uppers,
            [plate.up(Branch.酉), plate.down(Branch.酉), chart.stem_upper + 2, uppers[3] - 2, t.middle, t.final],
        ]
        prompt = Prompt("initial")
    elif kind is Kind.MIDDLE:
        answer = t.middle
        i = t.initial
        tiers = [[plate.up(i), i.punishment, i.clash, chart.stem_upper, chart.branch_upper],
                 [t.final, plate.up(plate.up(i)), *uppers]]
        prompt = Prompt("middle", (("initial", i),))
    else:
        answer = t.final
        m = t.middle
        tiers = [[plate.up(m), m.punishment, m.clash, chart.stem_upper, chart.branch_upper],
                 [t.initial, *uppers]]
        prompt = Prompt("final", (("initial", t.initial), ("middle", m)))
    return prompt, answer, _pick(answer, [*tiers, BRANCHES], n, rng)


def _ask_method(chart: Chart, n: int, rng: random.Random) -> _Asked:
    answer = chart.transmissions.method
    # 渉害 as a method is the depth-count school option's: offered only where that school is on, or
    # where it would take this chart (then half right: texts.quiz.values.Split).
    # 渉害 as a method is the depth-count school option's: never offered where that school is off.
    others = [m for m in Method if chart.school.shehai_depth_first or m is not Method.渉害]
    near = [m for m in NEIGHBOURS[answer] if m in others]
    return Prompt("method"), answer, _pick(answer, [near[:2], near[2:], others], n, rng)


def _ask_pattern(chart: Chart, n: int, rng: random.Random) -> tuple[_Asked, tuple[Why, ...]]:
    found = classify(chart)
    held = {p.name: p for p in found.held}
    if not held:
        raise ValueError(f"{chart.day} {chart.yuejiang}加{chart.hour} carries no 課体 to ask about")
    # Ask about a 課体 beyond the method's name when the chart has one: that is what the level drills.
    beyond = [name for name in held if name not in METHOD_PATTERNS]
    answer = rng.choice(beyond or list(held))
    # Never offer as wrong a 課体 the chart carries or one its missing inputs leave open.
    ruled_out = set(held) | {u.name for u in found.undecided}
    near = [p for group in PATTERN_GROUPS if answer in group for p in group if p not in ruled_out]
    rest = [p for p in PATTERN_NAMES if p not in ruled_out]
    return (Prompt("pattern"), answer, _pick(answer, [near, rest], n, rng)), held[answer].reasons


def _pattern_units(name: PatternName) -> tuple[str, ...]:
    unit: Unit | None = corpus().pattern(name.name) or corpus().method(name.name)
    return () if unit is None else (unit.id,)


def _ask_general(chart: Chart, n: int, rng: random.Random) -> tuple[_Asked, tuple[Note, ...]]:
    t, g = chart.transmissions, chart.generals
    branch = rng.choice([*dict.fromkeys((*t.branches, chart.stem_upper, chart.branch_upper))])
    answer = g.on(branch)
    under = chart.plate.down(branch)
    steps = ((under - g.noble_ground) * (1 if g.clockwise else -1)) % 12
    other_time = place_generals(chart.day.stem, Branch.子 if g.daytime else Branch.午, chart.plate,
                                chart.school.noble_table)
    other_table = place_generals(chart.day.stem, chart.hour, chart.plate,
                                 "甲羊" if chart.school.noble_table == "甲牛" else "甲牛")
    tiers = [
        [GENERALS[-steps % 12], other_time.on(branch), other_table.on(branch)],  # the wrong direction, 晝夜, table
        [g.on(branch + 1), g.on(branch - 1)],
        GENERALS,
    ]
    time = Word("day" if g.daytime else "night")
    direction = Word("clockwise" if g.clockwise else "counter")
    notes = (
        Note("noble", (("stem", chart.day.stem), ("hour", chart.hour), ("time", time),
                       ("table", Word(f"table.{chart.school.noble_table}")), ("noble", g.noble)), (87,)),
        Note("direction", (("noble", g.noble), ("ground", g.noble_ground), ("direction", direction)), (87,)),
        Note("count", (("direction", direction), ("steps", steps), ("order", GENERALS[: steps + 1]),
                       ("under", under), ("branch", branch), ("general", answer)), (87,)),
    )
    return (Prompt("general", (("branch", branch),)), answer, _pick(answer, tiers, n, rng)), notes


# -- which 天将 is the 類神 of a matter, and where does it stand? -------------------------------------


def _ask_spirit(chart: Chart, n: int, rng: random.Random) -> tuple[_Asked, tuple[Note, ...], tuple[str, ...]]:
    """A matter of docs/rules.md §9.2 with a 類神 (all but 子・胎孕); the answer is the 地盤 branch its first
    類神 stands over on this plate. The explanation names the 類神 with the ¶ of its grounds, then
    places it from 貴人 (¶87); the units are the seed's grounds for it."""
    matter = rng.choice([m for m in MATTERS if RULES[m].spirits])
    spirit = RULES[matter].spirits[0]
    g = chart.generals
    answer = g.ground_of(spirit.general)
    heaven = chart.plate.up(answer)
    steps = spirit.general.value  # places from 貴人 in the order of ¶87
    wrong_way = g.noble_ground + (-steps if g.clockwise else steps)  # counted the other way round
    other_time = place_generals(chart.day.stem, Branch.子 if g.daytime else Branch.午, chart.plate,
                                chart.school.noble_table)
    tiers = [[wrong_way, other_time.ground_of(spirit.general)], [answer + 1, answer - 1, heaven], BRANCHES]
    grounds = corpus()
    units = tuple(dict.fromkeys(x.unit for x in spirit.grounds))
    seed = tuple(sorted({grounds.get(x.unit).lines[-1 if x.translated else 0] for x in spirit.grounds}))
    time = Word("day" if g.daytime else "night")
    direction = Word("clockwise" if g.clockwise else "counter")
    notes = (
        Note("spirit", (("matter", matter), ("general", spirit.general)), seed),
        Note("noble", (("stem", chart.day.stem), ("hour", chart.hour), ("time", time),
                       ("table", Word(f"table.{chart.school.noble_table}")), ("noble", g.noble)), (87,)),
        Note("direction", (("noble", g.noble), ("ground", g.noble_ground), ("direction", direction)), (87,)),
        Note("count", (("direction", direction), ("steps", steps), ("order", GENERALS[: steps + 1]),
                       ("under", answer), ("branch", heaven), ("general", spirit.general)), (87,)),
    )
    asked = (Prompt("spirit", (("matter", matter),)), answer, _pick(answer, tiers, n, rng))
    return asked, notes, units


def _school_answer(chart: Chart, other: Chart, kind: Kind, prompt: Prompt) -> Answer | None:
    """What ``other`` (the chart under another school option) answers to the question asked of
    ``chart``; ``None`` where the question would not be the same there (a 中伝 asked after an 初伝 the
    other school does not take)."""
    t, u = chart.transmissions, other.transmissions
    if kind is Kind.INITIAL:
        return u.initial
    if kind is Kind.MIDDLE:
        return u.middle if u.initial == t.initial else None
    if kind is Kind.FINAL:
        return u.final if u.branches[:2] == t.branches[:2] else None
    if kind is Kind.METHOD:
        return u.method
    if kind is Kind.GENERAL:
        branch = dict(prompt.values)["branch"]
        return other.generals.on(branch) if isinstance(branch, Branch) else None
    return None  # 課体 and 類神 questions: no school split counted


def _splits(chart: Chart, kind: Kind, prompt: Prompt, answer: Answer, wrong: tuple[Answer, ...]) -> tuple[Split, ...]:
    """The wrong choices another school option gives as the answer, each once (its first option)."""
    found: dict[Answer, Split] = {}
    for alternative in alternatives(chart):
        given = _school_answer(chart, alternative.chart, kind, prompt)
        if given is not None and given != answer and given in wrong and given not in found:
            found[given] = Split(alternative.option, alternative.value, given)
    return tuple(found.values())


def ask(chart: Chart, kind: Kind, rng: random.Random, *, choices: int = 4) -> Question:
    """A ``kind`` question about ``chart`` with ``choices`` choices (2–12), its answer the engine's.

    ``rng`` decides the wrong choices, their order and (for 課体 and 天将 questions) what is asked;
    the same state gives the same question. ``ValueError`` for a 課体 question on a chart with no
    課体 (a 綴瑕 chart without a frame) or a choice count outside 2–12.
    """
    if not 2 <= choices <= 12:
        raise ValueError(f"choices={choices}: give 2 to 12")
    n = choices - 1
    t = chart.transmissions
    trace_units = _method_units(chart)
    if kind in (Kind.INITIAL, Kind.MIDDLE, Kind.FINAL):
        prompt, answer, wrong = _ask_transmission(chart, kind, n, rng)
        why = Explanation(trace=t.trace, units=trace_units)
    elif kind is Kind.METHOD:
        prompt, answer, wrong = _ask_method(chart, n, rng)
        why = Explanation(trace=t.trace, units=trace_units)
    elif kind is Kind.PATTERN:
        (prompt, answer, wrong), reasons = _ask_pattern(chart, n, rng)
        assert isinstance(answer, PatternName)
        why = Explanation(trace=t.trace, reasons=reasons, units=_pattern_units(answer))
    elif kind is Kind.SPIRIT:
        (prompt, answer, wrong), notes, units = _ask_spirit(chart, n, rng)
        why = Explanation(notes=notes, units=units)
    else:
        (prompt, answer, wrong), notes = _ask_general(chart, n, rng)
        units = ("general.貴人", f"general.{answer}")
        why = Explanation(notes=notes, units=tuple(dict.fromkeys(units)))
    order = [answer, *wrong]
    rng.shuffle(order)
    splits = _splits(chart, kind, prompt, answer, wrong)
    return Question(kind, topic_of(chart), chart, prompt, answer, wrong, tuple(order), why, splits)


def kinds_for(chart: Chart, level: Level) -> tuple[tuple[Kind, int], ...]:
    """The kinds a level asks, with their weights, leaving out a 課体 question where there is none."""
    weights = LEVEL_KINDS[level]
    if any(k is Kind.PATTERN for k, _ in weights) and not classify(chart).held:
        return tuple((k, w) for k, w in weights if k is not Kind.PATTERN)
    return weights


def make_round(
    level: Level | str,
    count: int,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    school: School = DEFAULT_SCHOOL,
    kinds: Sequence[Kind] | None = None,
    choices: int = 4,
) -> tuple[Question, ...]:
    """A round: ``count`` questions (fewer only when the level's charts run out), on distinct
    charts drawn by :func:`draw`. Each question's kind is drawn by the level's weights, or evenly
    from ``kinds`` when given (a 課体 question is swapped for a method question on a chart that
    carries no 課体). The same ``seed`` gives the same round; ``rng`` may be passed instead.
    """
    level = Level(level)
    rng = rng if rng is not None else random.Random(seed)
    questions: list[Question] = []
    for chart in draw(level, count, rng, school):
        if kinds:
            kind = rng.choice(list(kinds))
            if kind is Kind.PATTERN and not classify(chart).held:
                kind = Kind.METHOD
        else:
            weights = kinds_for(chart, level)
            kind = rng.choices([k for k, _ in weights], [w for _, w in weights])[0]
        questions.append(ask(chart, kind, rng, choices=choices))
    return tuple(questions)
