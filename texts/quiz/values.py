"""A question as a value: what is asked of a chart, its answer, the wrong choices and the order
shown, and the explanation (the engine's reasons and the seed units to read). No text here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from engine.chart import Chart
from engine.reasons import Value, Why
from engine.symbols import Branch
from engine.terms import PATTERN_NAMES, General, Method, PatternName
from texts.corpus import corpus
from texts.matters.recognise import Matter
from texts.quiz.levels import Level

# A question's answer and choices: one kind of value per question.
Answer = Branch | Method | PatternName | General


class Kind(StrEnum):
    """What a question asks for."""

    INITIAL = "initial"  # the 初伝, one of the twelve branches
    MIDDLE = "middle"  # the 中伝, given the 初伝
    FINAL = "final"  # the 末伝, given the 初伝 and 中伝
    METHOD = "method"  # the Method that took the 初伝
    PATTERN = "pattern"  # one 課体 (PatternName) the chart carries
    GENERAL = "general"  # the 天将 riding a given 天盤 branch
    SPIRIT = "spirit"  # the 地盤 branch the 類神 of a matter stands over (asked on its own)


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
PATTERN_GROUPS: tuple[tuple[PatternName, ...], ...] = tuple(
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


NoteValue = Value | Word | tuple[General, ...] | Matter  # Matter: the 類神 questions


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
class Split:
    """Where the schools disagree (docs/rules.md §10.1): under ``option`` = ``value`` the answer is
    ``answer``, one of the question's wrong choices; choosing it is half right."""

    option: str
    value: bool | str
    answer: Answer


@dataclass(frozen=True, slots=True)
class Question:
    """One question about one chart.

    ``answer`` is the engine's; ``wrong`` are distinct plausible choices, none equal to ``answer``;
    ``choices`` is the order to present them in (``answer`` and every wrong choice, once each);
    ``splits`` the wrong choices another school option gives as the answer (half right).
    """

    kind: Kind
    topic: Topic
    chart: Chart
    prompt: Prompt
    answer: Answer
    wrong: tuple[Answer, ...]
    choices: tuple[Answer, ...]
    explanation: Explanation
    splits: tuple[Split, ...] = ()

    def __post_init__(self) -> None:
        kinds = {type(self.answer)} | {type(c) for c in self.choices}
        if len(kinds) != 1:
            raise ValueError(f"mixed kinds of choice: {kinds}")
        if self.answer in self.wrong or len(set(self.wrong)) != len(self.wrong):
            raise ValueError(f"wrong choices {self.wrong} repeat or include the answer {self.answer!r}")
        if len(self.choices) != len(self.wrong) + 1 or set(self.choices) != {self.answer, *self.wrong}:
            raise ValueError(f"choices {self.choices} are not the answer and the wrong choices")
        if any(s.answer not in self.wrong for s in self.splits):
            raise ValueError(f"a school's answer {self.splits} is not among the wrong choices {self.wrong}")

    @property
    def number(self) -> int:
        """The answer's number among the choices, counting from 1."""
        return self.choices.index(self.answer) + 1

    def is_right(self, choice: Answer) -> bool:
        """True when ``choice`` is the answer (a choice of another kind never is)."""
        return type(choice) is type(self.answer) and choice == self.answer

    def split_of(self, choice: Answer) -> Split | None:
        """The school option under which ``choice`` is the answer, when another option gives it."""
        return next((s for s in self.splits if type(choice) is type(s.answer) and choice == s.answer), None)

    def credit(self, choice: Answer) -> float:
        """1 for the answer, 0.5 for another school option's answer, else 0."""
        return 1.0 if self.is_right(choice) else 0.5 if self.split_of(choice) is not None else 0.0
