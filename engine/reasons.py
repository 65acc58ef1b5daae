"""Why a chart came out as it did, as values: the rule applied, its seed ¶, and what it involved.

The engine never writes prose. Each step of the 三伝 trace and each 課体 reason is a :class:`Why`:
a :class:`Rule` (which the presentation layer, texts/explain.py, renders in the reader's language
from texts/locales/<lang>/why.toml), the seed paragraphs that state the rule, and the named values
(branches, stems, generals, methods …) the rule was applied to.

    >>> from engine.symbols import Branch
    >>> why = Why(Rule.LINKED, (("initial", Branch.子), ("middle", Branch.丑), ("final", Branch.寅)))
    >>> why.seed, why["middle"]
    ((51,), Branch.丑)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .symbols import Branch, Element, Pillar, Rank, Stem
from .terms import General, Input, Kin, Method, Polarity, Position, Relation, Seat, Vigour

# How one 渉害 candidate's depth was counted (school option, docs/rules.md §4.4): the candidate, the
# 地盤 branch it stands on, the branches walked (from there up to its own home, exclusive), what
# among them 剋 the candidate (a branch, or a stem lodged at a branch walked), and the count.
Depth = tuple[Branch, Branch, tuple[Branch, ...], tuple[Branch | Stem, ...], int]

Value = (
    Branch | Stem | Element | Rank | General | Method | Polarity | Position | Relation | Seat | Kin | Vigour
    | Input | Pillar | int | str | tuple[Branch, ...] | tuple[Input, ...] | tuple[Depth, ...]
    | tuple[tuple[int, Branch, Stem | Branch, Relation | None], ...]
)


class Rule(StrEnum):
    """Every rule a reason can cite; the value is the key of its template in why.toml."""

    def __repr__(self) -> str:
        return f"Rule.{self.name}"

    # -- 三伝 (docs/rules.md §4) ---------------------------------------------------------------------------
    LESSONS = "lessons"
    RETURN_CHANT_OVERCOMING = "return_chant_overcoming"
    EIGHT_SPECIALS_OVERCOMING = "eight_specials_overcoming"
    SINGLE_REBEL = "single_rebel"
    SINGLE_OVERCOMING = "single_overcoming"
    SEVERAL = "several"
    COMPARE_ONE = "compare_one"
    COMPARE_SEVERAL = "compare_several"
    COMPARE_NONE = "compare_none"
    DEPTHS = "depths"
    DEEPEST = "deepest"
    RANK_ONE = "rank_one"
    RANK_SEVERAL = "rank_several"
    RANK_NONE = "rank_none"
    MEND_TAKE = "mend_take"
    MEND_FIRST = "mend_first"
    LINKED = "linked"
    REMOTE_OVERCOMES = "remote_overcomes"
    REMOTE_OVERCOME = "remote_overcome"
    REMOTE_SEVERAL = "remote_several"
    HIDDEN_CHANT = "hidden_chant"
    HIDDEN_CHANT_OVERCOMING = "hidden_chant_overcoming"
    HIDDEN_CHANT_YANG = "hidden_chant_yang"
    HIDDEN_CHANT_YIN = "hidden_chant_yin"
    SELF_PUNISHED_INITIAL = "self_punished_initial"
    PUNISH_MIDDLE = "punish_middle"
    SELF_PUNISHED_MIDDLE = "self_punished_middle"
    REPEAT_CLASH = "repeat_clash"
    PUNISH_FINAL = "punish_final"
    NO_RELIANCE = "no_reliance"
    EIGHT_SPECIALS_YANG = "eight_specials_yang"
    EIGHT_SPECIALS_YIN = "eight_specials_yin"
    PLEIADES_YANG = "pleiades_yang"
    PLEIADES_YIN = "pleiades_yin"
    SEPARATE_YANG = "separate_yang"
    SEPARATE_YIN = "separate_yin"
    # -- the hour and 晝夜 by the sun at a place (docs/rules.md §10) ------------------------------------------
    HOUR_BY_MEAN = "hour_by_mean"
    HOUR_BY_APPARENT = "hour_by_apparent"
    DAY_BY_SUN = "day_by_sun"
    SUN_UP = "sun_up"
    SUN_DOWN = "sun_down"
    POLAR_DAY = "polar_day"
    POLAR_NIGHT = "polar_night"
    # -- 課体 (docs/rules.md §7) ---------------------------------------------------------------------------
    P_元首 = "p_元首"
    P_重審 = "p_重審"
    P_知一 = "p_知一"
    P_見機 = "p_見機"
    P_察微 = "p_察微"
    P_蒿矢 = "p_蒿矢"
    P_弾射 = "p_弾射"
    P_昴星 = "p_昴星"
    P_別責 = "p_別責"
    P_八専 = "p_八専"
    P_伏吟 = "p_伏吟"
    P_自任 = "p_自任"
    P_自信 = "p_自信"
    P_反吟 = "p_反吟"
    P_無依 = "p_無依"
    P_昴星_GENERAL = "p_昴星_general"
    P_昴星_BY_DAY = "p_昴星_by_day"
    P_帷簿 = "p_帷簿"
    P_龍首_YEAR = "p_龍首_year"
    P_龍首_MONTH = "p_龍首_month"
    P_龍首_YUEJIANG = "p_龍首_yuejiang"
    P_龍首_NOBLE = "p_龍首_noble"
    P_龍首_UNKNOWN = "p_龍首_unknown"
    P_龍戦_DAY = "p_龍戦_day"
    P_龍戦_WALKING = "p_龍戦_walking"
    P_龍戦_UNKNOWN = "p_龍戦_unknown"
    P_官爵 = "p_官爵"
    P_富貴 = "p_富貴"
    P_斫輪 = "p_斫輪"
    P_鋳印 = "p_鋳印"
    P_高蓋乗軒 = "p_高蓋乗軒"
    P_蕪淫 = "p_蕪淫"
    P_淫女 = "p_淫女"
    P_三交 = "p_三交"
    P_九醜 = "p_九醜"
    P_斬関 = "p_斬関"
    P_遊子_DING = "p_遊子_ding"
    P_遊子_HORSE = "p_遊子_horse"
    P_遊子_UNKNOWN = "p_遊子_unknown"
    P_天獄 = "p_天獄"
    P_天獄_UNKNOWN = "p_天獄_unknown"
    P_天網 = "p_天網"
    P_玄胎 = "p_玄胎"
    P_贅婿 = "p_贅婿"
    P_無禄 = "p_無禄"
    P_絶嗣 = "p_絶嗣"
    P_励徳 = "p_励徳"
    P_乱首 = "p_乱首"
    P_稼穡 = "p_稼穡"
    P_三合 = "p_三合"


# The seed paragraphs that state each rule (the presentation cites them; tests/test_reading_trust.py
# checks each cited ¶ holds the rule's own words). () where the seed is silent: docs/rules.md decides,
# and the presentation says so (texts/locales/*/why.toml [why.outside]).
_SEED: dict[Rule, tuple[int, ...]] = {
    Rule.LESSONS: (47,),
    Rule.RETURN_CHANT_OVERCOMING: (79,),
    Rule.EIGHT_SPECIALS_OVERCOMING: (83,),
    Rule.SINGLE_REBEL: (51, 55),
    Rule.SINGLE_OVERCOMING: (51, 55),
    Rule.SEVERAL: (55,),
    Rule.COMPARE_ONE: (55, 59),
    Rule.COMPARE_SEVERAL: (55, 59),
    Rule.COMPARE_NONE: (55,),
    Rule.DEPTHS: (),  # the depth count is not the seed's: ¶59 ranks only 孟 over 仲
    Rule.DEEPEST: (),
    Rule.RANK_ONE: (59,),
    Rule.RANK_SEVERAL: (59,),
    Rule.RANK_NONE: (59,),
    Rule.MEND_TAKE: (),
    Rule.MEND_FIRST: (),
    Rule.LINKED: (51,),
    Rule.REMOTE_OVERCOMES: (63,),
    Rule.REMOTE_OVERCOME: (63,),
    Rule.REMOTE_SEVERAL: (63,),
    Rule.HIDDEN_CHANT: (75,),
    Rule.HIDDEN_CHANT_OVERCOMING: (75,),
    Rule.HIDDEN_CHANT_YANG: (75,),
    Rule.HIDDEN_CHANT_YIN: (75,),
    Rule.SELF_PUNISHED_INITIAL: (75,),
    Rule.PUNISH_MIDDLE: (75,),
    Rule.SELF_PUNISHED_MIDDLE: (75,),
    Rule.REPEAT_CLASH: (),
    Rule.PUNISH_FINAL: (75,),
    Rule.NO_RELIANCE: (79,),
    Rule.EIGHT_SPECIALS_YANG: (83,),
    Rule.EIGHT_SPECIALS_YIN: (83,),
    Rule.PLEIADES_YANG: (67,),
    Rule.PLEIADES_YIN: (67,),
    Rule.SEPARATE_YANG: (71,),
    Rule.SEPARATE_YIN: (71,),
    # the seed gives no hour boundaries at all: solar time and sunrise are school options (§10)
    Rule.HOUR_BY_MEAN: (), Rule.HOUR_BY_APPARENT: (), Rule.DAY_BY_SUN: (), Rule.SUN_UP: (), Rule.SUN_DOWN: (),
    Rule.POLAR_DAY: (), Rule.POLAR_NIGHT: (),
    Rule.P_元首: (139,), Rule.P_重審: (139,), Rule.P_知一: (143,), Rule.P_見機: (143,),
    Rule.P_察微: (59,), Rule.P_蒿矢: (143,), Rule.P_弾射: (143,), Rule.P_昴星: (67,),
    Rule.P_別責: (143,), Rule.P_八専: (151,), Rule.P_伏吟: (147,), Rule.P_自任: (147,),
    Rule.P_自信: (147,), Rule.P_反吟: (147,), Rule.P_無依: (79, 147),
    # 昴星 by the day is the 《六十四課經》's 「陰伏掩目陽轉蓬」 (docs/rules.md §7), not the seed's ¶147.
    Rule.P_昴星_GENERAL: (147,), Rule.P_昴星_BY_DAY: (),
    Rule.P_帷簿: (151,),
    Rule.P_龍首_YEAR: (151,), Rule.P_龍首_MONTH: (151,), Rule.P_龍首_YUEJIANG: (151,),
    Rule.P_龍首_NOBLE: (151,), Rule.P_龍首_UNKNOWN: (151,),
    Rule.P_龍戦_DAY: (151,), Rule.P_龍戦_WALKING: (151,), Rule.P_龍戦_UNKNOWN: (151,),
    Rule.P_官爵: (155,), Rule.P_富貴: (155,), Rule.P_斫輪: (155,), Rule.P_鋳印: (155,),
    Rule.P_高蓋乗軒: (155,),
    Rule.P_蕪淫: (159,), Rule.P_淫女: (159,), Rule.P_三交: (159,), Rule.P_九醜: (159,),
    Rule.P_斬関: (163,), Rule.P_遊子_DING: (163,), Rule.P_遊子_HORSE: (163,), Rule.P_遊子_UNKNOWN: (163,),
    Rule.P_天獄: (163,), Rule.P_天獄_UNKNOWN: (163,), Rule.P_天網: (163,),
    Rule.P_玄胎: (167,), Rule.P_贅婿: (167,), Rule.P_無禄: (167,), Rule.P_絶嗣: (167,),
    Rule.P_励徳: (171,), Rule.P_乱首: (171,), Rule.P_稼穡: (171,), Rule.P_三合: (171, 175),
}
assert set(_SEED) == set(Rule), set(Rule) - set(_SEED)
# ¶171 names only 曲直 (亥卯未); ¶175 names 従革, 炎上 and 潤下. A 三合 reason cites its own ¶, the
# rule without values (a list of rules) both.
_WOOD = (Branch.亥, Branch.卯, Branch.未)
_TRIAD_SEED: dict[bool, tuple[int, ...]] = {True: (171,), False: (175,)}


@dataclass(frozen=True, slots=True)
class Why:
    """One reason: ``rule`` applied to the named ``values``; ``seed`` gives the ¶ that states it."""

    rule: Rule
    values: tuple[tuple[str, Value], ...] = ()

    @property
    def seed(self) -> tuple[int, ...]:
        """The seed paragraphs (¶) that state the rule; empty where the seed is silent (docs/rules.md decides)."""
        if self.rule is Rule.P_三合 and self.values:
            return _TRIAD_SEED[self["triad"] == _WOOD]
        return _SEED[self.rule]

    @property
    def outside(self) -> bool:
        """True when the rule is not the seed's (a decision of docs/rules.md or a school option)."""
        return not _SEED[self.rule]

    def __getitem__(self, name: str) -> Value:
        for key, value in self.values:
            if key == name:
                return value
        raise KeyError(name)

    def get(self, name: str) -> Value | None:
        """The value named ``name``, or ``None`` when the reason has none of that name."""
        for key, value in self.values:
            if key == name:
                return value
        return None


def why(rule: Rule, **values: Value) -> Why:
    """A :class:`Why` from keyword values, in the order given."""
    return Why(rule, tuple(values.items()))
