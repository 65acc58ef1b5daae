"""Study questions drawn from the classical charts, and their text in the reader's language (issue 13).

A :class:`Question` is a value: the chart, what is asked (a :class:`Prompt`), the engine's answer,
plausible wrong choices, the presented order of all choices, and an :class:`Explanation` (the
engine's own reasons — ``chart.transmissions.trace`` and a 課体's reasons — plus the seed units to
read). Nothing here prints, reads or talks to Discord; the terminal loop is texts/quiz_cli.py.

Levels draw charts by *topic*: the plate's frame (伏吟 反吟 八専) when it has one, else the method
that took the 初伝. ``easy`` is 元首/重審, ``medium`` 比用 (知一), 渉害 (見機 察微 綴瑕, and 渉害
itself under the depth-count school option) and 遙剋 (蒿矢 弾射), ``hard`` 昴星 別責 八専 伏吟 反吟
and the 課体 questions. A round goes round-robin over its level's topics and picks a random chart
within each, never the same chart twice.

    >>> from engine import cast_classical
    >>> import random
    >>> q = ask(cast_classical("甲子", "亥", "午"), Kind.INITIAL, random.Random(1))
    >>> q.answer, q.answer in q.wrong, len(q.choices)
    (Branch.子, False, 4)
    >>> render_prompt(q, "en")
    'Which branch is the initial transmission (初傳)?'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from engine.chart import Chart
from engine.classical import classical_charts
from engine.generals import place_generals
from engine.patterns import classify
from engine.reasons import Rule, Value, Why
from engine.school import DEFAULT_SCHOOL, School
from engine.symbols import BRANCHES, Branch
from engine.terms import GENERALS, PATTERN_NAMES, General, Method, PatternName
from texts.corpus import Unit, corpus
from texts.corpus.normalize import normalize
from texts.corpus.shown import original, translation_lines  # issue 25
from texts.matters.recognise import MATTERS, Matter  # issue 18
from texts.matters.table import RULES  # issue 18
from texts.memo import remember
from texts.render import lessons, ring
from texts.words import Lang, text
from texts.words.explain import cite, explain, show

# A question's answer and choices: one kind of value per question.
Answer = Branch | Method | PatternName | General


class Level(StrEnum):
    """How hard a round is; each level draws charts of its own topics."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Kind(StrEnum):
    """What a question asks for."""

    INITIAL = "initial"  # the 初伝, one of the twelve branches
    MIDDLE = "middle"  # the 中伝, given the 初伝
    FINAL = "final"  # the 末伝, given the 初伝 and 中伝
    METHOD = "method"  # the Method that took the 初伝
    PATTERN = "pattern"  # one 課体 (PatternName) the chart carries
    GENERAL = "general"  # the 天将 riding a given 天盤 branch
    SPIRIT = "spirit"  # issue 18: the 地盤 branch the 類神 of a matter stands over (asked on its own)


class Topic(StrEnum):
    """What a chart drills: its frame (伏吟 反吟 八専) if it has one, else its method.

    Its own enum (not ``Method | Frame``): ``Frame.八専 == Method.知一`` as integers, so the two could
    not share a dict.
    """

    元首 = "元首"
    重審 = "重審"
    知一 = "知一"
    見機 = "見機"
    察微 = "察微"
    綴瑕 = "綴瑕"
    渉害 = "渉害"
    蒿矢 = "蒿矢"
    弾射 = "弾射"
    昴星 = "昴星"
    別責 = "別責"
    八専 = "八専"
    伏吟 = "伏吟"
    反吟 = "反吟"


LEVEL_TOPICS: Mapping[Level, tuple[Topic, ...]] = MappingProxyType({
    Level.EASY: (Topic.元首, Topic.重審),
    Level.MEDIUM: (Topic.知一, Topic.見機, Topic.察微, Topic.綴瑕, Topic.渉害, Topic.蒿矢, Topic.弾射),
    Level.HARD: (Topic.昴星, Topic.別責, Topic.八専, Topic.伏吟, Topic.反吟),
})
assert sorted(t for ts in LEVEL_TOPICS.values() for t in ts) == sorted(Topic)

# How often each kind is asked at a level (weights for the random choice of a question's kind).
LEVEL_KINDS: Mapping[Level, tuple[tuple[Kind, int], ...]] = MappingProxyType({
    Level.EASY: ((Kind.INITIAL, 3), (Kind.METHOD, 2), (Kind.MIDDLE, 1), (Kind.FINAL, 1), (Kind.GENERAL, 1)),
    Level.MEDIUM: ((Kind.INITIAL, 3), (Kind.METHOD, 2), (Kind.MIDDLE, 1), (Kind.FINAL, 1), (Kind.GENERAL, 1)),
    Level.HARD: ((Kind.INITIAL, 2), (Kind.METHOD, 2), (Kind.MIDDLE, 1), (Kind.FINAL, 1), (Kind.PATTERN, 3),
                 (Kind.GENERAL, 1)),
})

# A method's neighbours: the methods a student confuses it with, most plausible first.
NEIGHBOURS: Mapping[Method, tuple[Method, ...]] = MappingProxyType({
    Method.元首: (Method.重審, Method.知一, Method.見機, Method.蒿矢),
    Method.重審: (Method.元首, Method.知一, Method.察微, Method.弾射),
    Method.知一: (Method.見機, Method.察微, Method.綴瑕, Method.元首, Method.重審),
    Method.見機: (Method.察微, Method.綴瑕, Method.知一, Method.重審),
    Method.察微: (Method.見機, Method.綴瑕, Method.知一, Method.元首),
    Method.綴瑕: (Method.見機, Method.察微, Method.知一, Method.重審),
    Method.渉害: (Method.見機, Method.察微, Method.綴瑕, Method.知一),
    Method.蒿矢: (Method.弾射, Method.元首, Method.昴星, Method.重審),
    Method.弾射: (Method.蒿矢, Method.重審, Method.昴星, Method.別責),
    Method.昴星: (Method.別責, Method.蒿矢, Method.弾射, Method.八専),
    Method.別責: (Method.昴星, Method.八専, Method.弾射, Method.蒿矢),
    Method.八専: (Method.別責, Method.昴星, Method.自任, Method.元首),
    Method.自任: (Method.自信, Method.八専, Method.無依, Method.元首),
    Method.自信: (Method.自任, Method.無依, Method.別責, Method.重審),
    Method.無依: (Method.自信, Method.別責, Method.八専, Method.昴星),
})
assert set(NEIGHBOURS) == set(Method)

# 課体 students mix up with one another (each group shares a test: the 三伝's 孟仲季 or 三合, the 初's
# standing, the lessons' 剋 …); a wrong choice for a 課体 comes from its groups first.
_PATTERN_GROUPS: tuple[tuple[PatternName, ...], ...] = tuple(
    tuple(PatternName[n] for n in group.split()) for group in (
        "元首 重審 知一 見機 察微", "蒿矢 弾射 昴星 別責", "伏吟 自任 自信 反吟 無依 八専 帷簿",
        "冬蛇掩目 虎視転蓬 昴星", "龍首 富貴 官爵 龍戦", "斫輪 鋳印 高蓋乗軒", "蕪淫 淫女 乱首 贅婿",
        "三交 玄胎 稼穡 遊子", "曲直 従革 炎上 潤下 稼穡", "斬関 天獄 天網 九醜", "無禄 絶嗣 励徳",
    )
)
# The 課体 named straight from the method or frame (docs/rules.md §7's first line).
METHOD_PATTERNS: frozenset[PatternName] = frozenset(PATTERN_NAMES[: PatternName.無依 + 1])


@dataclass(frozen=True, slots=True)
class Word:
    """A word of the quiz's own (``quiz.<key>``), as a value in a prompt or a note."""

    key: str


NoteValue = Value | Word | tuple[General, ...] | Matter  # Matter: issue 18


@dataclass(frozen=True, slots=True)
class Prompt:
    """What is asked: the template ``quiz.prompt.<key>`` and the values it is filled with."""

    key: str
    values: tuple[tuple[str, NoteValue], ...] = ()


@dataclass(frozen=True, slots=True)
class Note:
    """A step of an explanation the engine does not record as a Why (where the 天将 stand):
    the template ``quiz.note.<key>``, its values, and the seed ¶ that states the rule."""

    key: str
    values: tuple[tuple[str, NoteValue], ...]
    seed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why the answer is right: the engine's ``trace`` (the 三伝's steps), a 課体's ``reasons``,
    the quiz's ``notes`` (the 天将), and ``units``: ids of the seed's units to read (texts/corpus)."""

    trace: tuple[Why, ...] = ()
    reasons: tuple[Why, ...] = ()
    notes: tuple[Note, ...] = ()
    units: tuple[str, ...] = ()

    @property
    def seed(self) -> tuple[int, ...]:
        """Every seed ¶ the explanation cites or points to, in order, once each."""
        found: set[int] = set()
        for why in (*self.trace, *self.reasons):
            found.update(why.seed)
        for note in self.notes:
            found.update(note.seed)
        for unit_id in self.units:
            found.update(corpus().get(unit_id).lines[:1])
        return tuple(sorted(found))


@dataclass(frozen=True, slots=True)
class Question:
    """One question about one chart.

    ``answer`` is the engine's; ``wrong`` are distinct plausible choices, none equal to ``answer``;
    ``choices`` is the order to present them in (``answer`` and every wrong choice, once each).
    """

    kind: Kind
    topic: Topic
    chart: Chart
    prompt: Prompt
    answer: Answer
    wrong: tuple[Answer, ...]
    choices: tuple[Answer, ...]
    explanation: Explanation

    def __post_init__(self) -> None:
        kinds = {type(self.answer)} | {type(c) for c in self.choices}
        if len(kinds) != 1:
            raise ValueError(f"mixed kinds of choice: {kinds}")
        if self.answer in self.wrong or len(set(self.wrong)) != len(self.wrong):
            raise ValueError(f"wrong choices {self.wrong} repeat or include the answer {self.answer!r}")
        if len(self.choices) != len(self.wrong) + 1 or set(self.choices) != {self.answer, *self.wrong}:
            raise ValueError(f"choices {self.choices} are not the answer and the wrong choices")

    @property
    def number(self) -> int:
        """The answer's number among the choices, counting from 1."""
        return self.choices.index(self.answer) + 1

    def is_right(self, choice: Answer) -> bool:
        """True when ``choice`` is the answer (a choice of another kind never is)."""
        return type(choice) is type(self.answer) and choice == self.answer


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
    near = [p for group in _PATTERN_GROUPS if answer in group for p in group if p not in ruled_out]
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


# -- issue 18: which 天将 is the 類神 of a matter, and where does it stand? ----------------------------


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


# -- end of issue 18


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
    elif kind is Kind.SPIRIT:  # issue 18
        (prompt, answer, wrong), notes, units = _ask_spirit(chart, n, rng)
        why = Explanation(notes=notes, units=units)
    else:
        (prompt, answer, wrong), notes = _ask_general(chart, n, rng)
        units = ("general.貴人", f"general.{answer}")
        why = Explanation(notes=notes, units=tuple(dict.fromkeys(units)))
    order = [answer, *wrong]
    rng.shuffle(order)
    return Question(kind, topic_of(chart), chart, prompt, answer, wrong, tuple(order), why)


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


# --- text ---------------------------------------------------------------------------------------


def _value(value: NoteValue, lang: Lang) -> str:
    return text(f"quiz.{value.key}", lang) if isinstance(value, Word) else show(value, lang)


def render_answer(value: Answer, lang: Lang) -> str:
    """A choice as ``lang`` writes it: a branch by its character, a term by its word."""
    return show(value, lang)


def render_prompt(q: Question, lang: Lang) -> str:
    """The question's sentence in ``lang``."""
    values = {name: _value(v, lang) for name, v in q.prompt.values}
    return text(f"quiz.prompt.{q.prompt.key}", lang, **values)


def render_choices(q: Question, lang: Lang) -> tuple[str, ...]:
    """The numbered choices, one line each, in presentation order."""
    return tuple(text("quiz.choice", lang, number=i, choice=render_answer(c, lang))
                 for i, c in enumerate(q.choices, 1))


def parse_answer(q: Question, reply: str, lang: Lang) -> Answer | None:
    """The choice a reply names — its number, or its text in ``lang`` or in the engine's own
    characters (variants folded: 弹射 = 彈射 = 弾射) — or ``None`` when it names none."""
    said = reply.strip()
    if said.isdecimal():
        number = int(said)
        return q.choices[number - 1] if 1 <= number <= len(q.choices) else None
    folded = normalize(said)
    if not folded:
        return None
    for choice in q.choices:
        if folded in (normalize(render_answer(choice, lang)), normalize(choice.name)):
            return choice
    return None


def render_note(note: Note, lang: Lang) -> str:
    """One of the quiz's own explanation steps, citing its seed ¶."""
    values = {name: _value(v, lang) for name, v in note.values}
    return text(f"quiz.note.{note.key}", lang, **values) + cite(note.seed, lang)


def explanation_lines(q: Question, lang: Lang) -> tuple[str, ...]:
    """Why, in ``lang``: the 課体's reasons, the trace (each Why rendered by texts.words.explain.explain),
    the 天将 notes, then the seed units to read (the classical original; beneath it, as
    texts.corpus.shown.translation_lines gives them, the seed's translation in Japanese and the project's
    English translation, then the seed's, in English)."""
    e = q.explanation
    lines = [text("quiz.why", lang)]
    lines += [f"  {explain(w, lang)}" for w in e.reasons]
    if e.trace:
        if e.reasons:
            lines.append(text("quiz.trace", lang))
        lines += [f"  {explain(w, lang)}" for w in e.trace]
    lines += [f"  {render_note(n, lang)}" for n in e.notes]
    if e.units:
        lines.append(text("quiz.read", lang, paragraphs=text("cite.sep", lang).join(
            text("cite.item", lang, n=n) for n in e.seed)))
    for unit_id in e.units:
        unit = corpus().get(unit_id)
        # issue 25: the original with its marks in the reader's words; under it, in Japanese the
        # seed's translation, in English the project's translation (labelled) and then the seed's
        if unit.original:
            lines.append("  " + text("quiz.unit", lang, n=unit.lines[0], original=original(unit, lang)))
        lines += ["    " + s for s in translation_lines(unit, lang)]
        # -- end of issue 25
    return tuple(lines)


def render_verdict(q: Question, given: Answer, lang: Lang) -> str:
    """Right or wrong, naming the answer (and its number)."""
    answer = render_answer(q.answer, lang)
    if q.is_right(given):
        return text("quiz.right", lang, answer=answer, number=q.number)
    return text("quiz.wrong", lang, given=render_answer(given, lang), answer=answer, number=q.number)


def render_reveal(q: Question, lang: Lang, given: Answer | None = None) -> str:
    """The answer and why: the verdict on ``given`` (or just the answer), then the explanation."""
    head = (render_verdict(q, given, lang) if given is not None
            else text("quiz.answer", lang, answer=render_answer(q.answer, lang), number=q.number))
    return "\n".join((head, *explanation_lines(q, lang)))


_RING_ROWS = ("巳午未申", "辰  酉", "卯  戌", "寅丑子亥")
_SPACE = "\u3000"


def bare_ring(chart: Chart) -> str:
    """The 天地盤 without the 天将: each cell is the 天盤 branch over its 地盤 place (the layout of
    texts/render.ring), for questions that ask where a 天将 stands."""
    lines = []
    for row in _RING_ROWS:
        cells = [_SPACE * 2 if ch == " " else _SPACE + str(chart.plate.up(Branch[ch])) for ch in row]
        lines.append("│" + "│".join(cells) + "│")
    return "\n".join(lines)


def render_board(q: Question, lang: Lang) -> str:
    """What the student is shown: the day, hour and 月将; then the 四課 and the ring
    (texts/render.py), never the 三伝 or the 課名. For a 天将 question the ring and lessons would
    give the answer away, so only the bare plate is shown."""
    c = q.chart
    head = text("quiz.board", lang, day=c.day, hour=c.hour, yuejiang=c.yuejiang,
                time=text("quiz.day" if c.generals.daytime else "quiz.night", lang))
    if q.kind in (Kind.GENERAL, Kind.SPIRIT):  # a 天将 question: the bare plate (SPIRIT: issue 18)
        return "\n".join((head, text("quiz.plate_bare", lang), bare_ring(c)))
    return "\n".join((head, _board_lessons(q, lang), text("quiz.plate", lang), ring(c, lang)))  # the reader's script


def _board_lessons(q: Question, lang: Lang) -> str:
    """The 四課 as texts/render.lessons writes them; for a question on the method (or on a 課体 named
    by the method) without the 剋賊 row, which would give 元首/重審 away (issue 19)."""
    shown = lessons(q.chart, lang)
    if q.kind is Kind.METHOD or (q.kind is Kind.PATTERN and q.answer in METHOD_PATTERNS):
        label = text("render.relation_row", lang)
        shown = "\n".join(line for line in shown.split("\n") if not line.startswith(label))
    return shown


def render_question(q: Question, lang: Lang, number: int | None = None, count: int | None = None) -> str:
    """The board, the question (numbered when ``number`` and ``count`` are given) and the choices."""
    parts = []
    if number is not None and count is not None:
        parts.append(text("quiz.number", lang, number=number, count=count))
    parts += [render_board(q, lang), render_prompt(q, lang), *render_choices(q, lang)]
    return "\n".join(parts)


def render_score(right: int, asked: int, lang: Lang) -> str:
    """The score line: right answers out of questions answered."""
    return text("quiz.score", lang, right=right, asked=asked)
