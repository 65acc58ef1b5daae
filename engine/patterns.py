"""Named patterns (課体) of a chart, each with the reason it holds (docs/rules.md §7, ¶139–¶175).

Design: :func:`classify` returns a :class:`Patterns` with two tuples, ``held`` (patterns that
hold, as :class:`Pattern`, each with its reasons as :class:`~engine.reasons.Why` values) and
``undecided`` (as :class:`Unknown`: patterns that depend on an input the caller did not give,
such as 太歳 or 行年, and that the known inputs do not already settle). :func:`detect` is
``classify(...).held``. Both are in the order of docs/rules.md §7
(``PATTERN_NAMES``); a pattern that does not hold and is not undecided is simply absent.

Readings chosen where docs/rules.md §7 leaves room (the literal one each time):

- The method patterns come from ``chart.transmissions``: 元首 重審 知一 見機 察微 蒿矢 弾射 昴星
  別責 from ``method``; 八専 from ``frame`` (干支同位, with or without 剋, as ¶151 defines it);
  伏吟 and 反吟 from ``frame``, with 自任/自信 (the 伏吟 methods) and 無依 (反吟 without 剋)
  as separate entries. 綴瑕 and 渉害 (the depth-count school option) are methods but not §7
  patterns, so they are not reported.
  Because docs/rules.md §4 tries 伏吟 and 反吟 first, a 干支同位 day (甲寅 丁未 己未 庚申 癸丑) on a
  伏吟 or 反吟 plate has that frame and is not reported as 八専.
- 帷簿 holds exactly when 八専 does (¶151 gives it as another name of the same 課).
- 高蓋乗軒: 初 中 末 are 午 卯 子 in that order (§7 says "as sets" only for the 三合 patterns).
- 鋳印: 初 中 末 are 巳 戌 卯 in that order (docs/rules.md §7 as amended: 戌 on 地盤 巳 as the 中伝, after
  《六壬大全》「戌加巳中傳」). The seed's literal 「戌加巳發用」 (初 戌 on 巳) never occurs: 戌 over 巳 is
  no 剋 and no other method takes it; the reason says so.
- 冬蛇掩目 / 虎視転蓬: 昴星 with 騰蛇 / 白虎 on 初 (¶147, the default); with the school option
  ``maoxing_by_day``, 昴星 on a 柔日 is 冬蛇掩目 and on a 剛日 虎視転蓬 (《六十四課經》). Under the
  default placement 虎視転蓬 never occurs (no 昴星 chart has 白虎 on 初).
- 龍首: 初 is 太歳, 月建 or 月将, or 初 carries 貴人; each that holds is named in the reason.
- 龍戦: the day branch or 行年 is 卯/酉, and 初 is 卯/酉.
- 九醜: the day stem is one of 乙戊己辛壬, the day branch is 仲, and 天盤 丑 stands over a 仲.
- 斬関: 干上神 is 辰/戌 and carries 六合/青龍, or 支上神 is 辰/戌 and carries 六合/青龍.
- 遊子: the three 伝 are all 季 and one of them is the 丁神 or the 天馬.
- 天獄: 初 is 囚 or 死 in the month, and 干上神 is 辰.
- 天網, 蕪淫, 贅婿, 乱首: "剋" between a branch and a stem compares their elements.
- 励徳: 貴人 stands over (臨) 地盤 卯 or 酉 (``chart.generals.noble_ground``).
- 三合 patterns (曲直 従革 炎上 潤下): the set of the three 伝 equals the frame's set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .chart import Chart
from .facts import Facts
from .facts import facts as derive_facts
from .reasons import Rule, Value, Why
from .recent import Recent
from .symbols import Branch, Rank, Stem
from .terms import PATTERN_NAMES, Frame, General, Input, Method, PatternName, Relation, Seat, Vigour

__all__ = ["NEEDS_INPUT", "PATTERN_NAMES", "Pattern", "Patterns", "Unknown", "classify", "detect"]

# Patterns that may need a moment (or birth data) to decide.
NEEDS_INPUT: dict[PatternName, tuple[Input, ...]] = {
    PatternName.龍首: (Input.太歳, Input.月建),
    PatternName.龍戦: (Input.行年,),
    PatternName.遊子: (Input.天馬,),
    PatternName.天獄: (Input.旺相休囚死,),
}


@dataclass(frozen=True, slots=True)
class Pattern:
    """A pattern that holds, with the reasons it holds (several where several facts each suffice)."""

    name: PatternName
    reasons: tuple[Why, ...]


@dataclass(frozen=True, slots=True)
class Unknown:
    """A pattern the given inputs cannot decide; ``needs`` names the missing facts, ``why`` the state."""

    name: PatternName
    needs: tuple[Input, ...]
    why: Why


@dataclass(frozen=True, slots=True)
class Patterns:
    """All §7 patterns of a chart: those that hold, and those left undecided for want of input."""

    held: tuple[Pattern, ...]
    undecided: tuple[Unknown, ...]

    @property
    def names(self) -> tuple[PatternName, ...]:
        return tuple(p.name for p in self.held)


@dataclass(frozen=True, slots=True)
class _Needs:
    needs: tuple[Input, ...]
    why: Why


# A rule's answer: the reasons it holds, an undecided note, or None (it does not hold).
_Result = tuple[Why, ...] | _Needs | None
_Rule = Callable[[Chart, Facts], _Result]


def _because(rule: Rule, **values: Value) -> tuple[Why, ...]:
    return (Why(rule, tuple(values.items())),)


def _rank_all(chart: Chart, rank: Rank) -> bool:
    return all(b.season_rank is rank for b in chart.transmissions.branches)


# --- from the method and frame (¶139–¶147) ---------------------------------------------------

def _method(name: Method, rule: Rule) -> _Rule:
    def holds(chart: Chart, _: Facts) -> _Result:
        t = chart.transmissions
        if t.method is not name:
            return None
        return _because(rule, initial=t.initial, stem=chart.day.stem)

    return holds


def _eight_specials(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.frame is not Frame.八専:
        return None
    return _because(Rule.P_八専, stem=chart.day.stem, lodging=chart.day.stem.lodging, branch=chart.day.branch)


def _frame_of(frame: Frame, rule: Rule) -> _Rule:
    def holds(chart: Chart, _: Facts) -> _Result:
        return _because(rule) if chart.transmissions.frame is frame else None

    return holds


def _pleiades_with(general: General, by_day_yang: bool) -> _Rule:
    """冬蛇掩目 (騰蛇, 柔日) and 虎視転蓬 (白虎, 剛日): by the general on 初 (¶147, the default), or by
    the day under the school option ``maoxing_by_day``."""

    def holds(chart: Chart, _: Facts) -> _Result:
        t = chart.transmissions
        if t.method is not Method.昴星:
            return None
        if chart.school.maoxing_by_day:
            if chart.day.stem.is_yang != by_day_yang:
                return None
            return _because(Rule.P_昴星_BY_DAY, stem=chart.day.stem, initial=t.initial)
        if chart.generals.on(t.initial) is not general:
            return None
        return _because(Rule.P_昴星_GENERAL, initial=t.initial, general=general)

    return holds


# --- ¶151–¶159 ---------------------------------------------------------------------------------


def _curtain(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.frame is not Frame.八専:
        return None
    return _because(Rule.P_帷簿, stem=chart.day.stem, branch=chart.day.branch)


def _dragon_head(chart: Chart, facts: Facts) -> _Result:
    initial = chart.transmissions.initial
    why: list[Why] = []
    if facts.year is not None and initial == facts.year:
        why += _because(Rule.P_龍首_YEAR, initial=initial)
    if facts.month is not None and initial == facts.month:
        why += _because(Rule.P_龍首_MONTH, initial=initial)
    if initial == chart.yuejiang:
        why += _because(Rule.P_龍首_YUEJIANG, initial=initial)
    if chart.generals.on(initial) is General.貴人:
        why += _because(Rule.P_龍首_NOBLE, initial=initial)
    if why:
        return tuple(why)
    needs = tuple(name for name, known in ((Input.太歳, facts.year), (Input.月建, facts.month)) if known is None)
    if needs:
        return _Needs(needs, Why(Rule.P_龍首_UNKNOWN, (("initial", initial), ("needs", needs))))
    return None


_GATES = (Branch.卯, Branch.酉)


def _dragon_battle(chart: Chart, facts: Facts) -> _Result:
    initial = chart.transmissions.initial
    if initial not in _GATES:
        return None
    if chart.day.branch in _GATES:
        return _because(Rule.P_龍戦_DAY, branch=chart.day.branch, initial=initial)
    if facts.walking_year is None:
        return _Needs((Input.行年,), Why(Rule.P_龍戦_UNKNOWN, (("initial", initial), ("branch", chart.day.branch))))
    if facts.walking_year in _GATES:
        return _because(Rule.P_龍戦_WALKING, walking=facts.walking_year, initial=initial)
    return None


def _office(chart: Chart, facts: Facts) -> _Result:
    initial = chart.transmissions.initial
    if initial != facts.travel_horse:
        return None
    return _because(Rule.P_官爵, initial=initial, branch=chart.day.branch)


def _wealth(chart: Chart, _: Facts) -> _Result:
    initial = chart.transmissions.initial
    if chart.generals.on(initial) is not General.貴人:
        return None
    return _because(Rule.P_富貴, initial=initial)


def _hewing(chart: Chart, _: Facts) -> _Result:
    initial = chart.transmissions.initial
    if initial != Branch.卯 or chart.plate.down(initial) != Branch.申:
        return None
    return _because(Rule.P_斫輪, initial=initial, ground=Branch.申)


_SEAL = (Branch.巳, Branch.戌, Branch.卯)  # 鋳印, docs/rules.md §7 as amended: 戌 over 巳 as the 中伝


def _seal(chart: Chart, _: Facts) -> _Result:
    t = chart.transmissions
    if t.branches != _SEAL:
        return None
    return _because(Rule.P_鋳印, initial=t.initial, middle=t.middle, final=t.final, ground=chart.plate.down(t.middle))


_HIGH_CANOPY = (Branch.午, Branch.卯, Branch.子)


def _high_canopy(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.branches != _HIGH_CANOPY:
        return None
    return _because(Rule.P_高蓋乗軒)


# --- ¶159 ---------------------------------------------------------------------------------------


def _weeds(chart: Chart, _: Facts) -> _Result:
    day, u1, u3 = chart.day, chart.stem_upper, chart.branch_upper
    if u1.element.overcomes(day.branch.element) and u3.element.overcomes(day.stem.element):
        return _because(Rule.P_蕪淫, stem_upper=u1, branch=day.branch, branch_upper=u3, stem=day.stem)
    return None


def _wanton(chart: Chart, _: Facts) -> _Result:
    t = chart.transmissions
    on = chart.generals.on
    gates = [b for b in t.branches if b in _GATES]
    if on(t.initial) is not General.天后 or on(t.final) is not General.六合 or not gates:
        return None
    return _because(Rule.P_淫女, initial=t.initial, final=t.final, gate=gates[0])


def _three_crossings(chart: Chart, _: Facts) -> _Result:
    if not _rank_all(chart, Rank.仲):
        return None
    return _because(Rule.P_三交, branches=chart.transmissions.branches)


_NINE_UGLY_STEMS = (Stem.乙, Stem.戊, Stem.己, Stem.辛, Stem.壬)


def _nine_ugly(chart: Chart, _: Facts) -> _Result:
    day = chart.day
    ground = chart.plate.down(Branch.丑)
    if day.stem not in _NINE_UGLY_STEMS or day.branch.season_rank is not Rank.仲 or ground.season_rank is not Rank.仲:
        return None
    return _because(Rule.P_九醜, stem=day.stem, branch=day.branch, ground=ground)


# --- ¶163–¶175 ----------------------------------------------------------------------------------

_BARRIERS = (Branch.辰, Branch.戌)
_BARRIER_GENERALS = (General.六合, General.青龍)


def _break_barrier(chart: Chart, _: Facts) -> _Result:
    why = tuple(
        Why(Rule.P_斬関, (("seat", seat), ("upper", upper), ("general", chart.generals.on(upper))))
        for seat, upper in ((Seat.干上神, chart.stem_upper), (Seat.支上神, chart.branch_upper))
        if upper in _BARRIERS and chart.generals.on(upper) in _BARRIER_GENERALS
    )
    return why or None


def _wanderer(chart: Chart, facts: Facts) -> _Result:
    branches = chart.transmissions.branches
    if not _rank_all(chart, Rank.季):
        return None
    if facts.ding in branches:
        return _because(Rule.P_遊子_DING, branches=branches, ding=facts.ding)
    if facts.heavenly_horse is None:
        return _Needs((Input.天馬,), Why(Rule.P_遊子_UNKNOWN, (("branches", branches), ("ding", facts.ding))))
    if facts.heavenly_horse in branches:
        return _because(Rule.P_遊子_HORSE, branches=branches, horse=facts.heavenly_horse)
    return None


def _heaven_prison(chart: Chart, facts: Facts) -> _Result:
    initial = facts.initial
    if chart.stem_upper != Branch.辰:
        return None
    if initial.vigour is None:
        return _Needs((Input.旺相休囚死,), Why(Rule.P_天獄_UNKNOWN, (("initial", initial.branch),)))
    if initial.vigour not in (Vigour.囚, Vigour.死):
        return None
    return _because(Rule.P_天獄, initial=initial.branch, vigour=initial.vigour)


def _heaven_net(chart: Chart, _: Facts) -> _Result:
    stem, hour, initial = chart.day.stem, chart.hour, chart.transmissions.initial
    if hour.element.overcomes(stem.element) and initial.element.overcomes(stem.element):
        return _because(Rule.P_天網, hour=hour, initial=initial, stem=stem)
    return None


def _dark_womb(chart: Chart, _: Facts) -> _Result:
    if not _rank_all(chart, Rank.孟):
        return None
    return _because(Rule.P_玄胎, branches=chart.transmissions.branches)


def _son_in_law(chart: Chart, _: Facts) -> _Result:
    day, u1 = chart.day, chart.stem_upper
    if u1 != day.branch or not day.stem.element.overcomes(u1.element) or chart.transmissions.initial != u1:
        return None
    return _because(Rule.P_贅婿, branch=u1, stem=day.stem)


def _all_lessons(relation: Relation, rule: Rule) -> _Rule:
    def holds(chart: Chart, _: Facts) -> _Result:
        if any(lesson.relation is not relation for lesson in chart.lessons):
            return None
        return _because(rule)

    return holds


def _virtue(chart: Chart, _: Facts) -> _Result:
    ground = chart.generals.noble_ground
    if ground not in _GATES:
        return None
    return _because(Rule.P_励徳, ground=ground)


def _rebel_head(chart: Chart, _: Facts) -> _Result:
    day, u3 = chart.day, chart.branch_upper
    if u3 != day.stem.lodging or not day.branch.element.overcomes(day.stem.element):
        return None
    return _because(Rule.P_乱首, branch_upper=u3, stem=day.stem, branch=day.branch)


def _harvest(chart: Chart, _: Facts) -> _Result:
    if not _rank_all(chart, Rank.季):
        return None
    return _because(Rule.P_稼穡, branches=chart.transmissions.branches)


def _triad(members: str) -> _Rule:
    wanted = tuple(Branch[c] for c in members)

    def holds(chart: Chart, _: Facts) -> _Result:
        if frozenset(chart.transmissions.branches) != frozenset(wanted):
            return None
        return _because(Rule.P_三合, triad=wanted, element=wanted[1].element)

    return holds


P = PatternName
_RULES: tuple[tuple[PatternName, _Rule], ...] = (
    (P.元首, _method(Method.元首, Rule.P_元首)),
    (P.重審, _method(Method.重審, Rule.P_重審)),
    (P.知一, _method(Method.知一, Rule.P_知一)),
    (P.見機, _method(Method.見機, Rule.P_見機)),
    (P.察微, _method(Method.察微, Rule.P_察微)),
    (P.蒿矢, _method(Method.蒿矢, Rule.P_蒿矢)),
    (P.弾射, _method(Method.弾射, Rule.P_弾射)),
    (P.昴星, _method(Method.昴星, Rule.P_昴星)),
    (P.別責, _method(Method.別責, Rule.P_別責)),
    (P.八専, _eight_specials),
    (P.伏吟, _frame_of(Frame.伏吟, Rule.P_伏吟)),
    (P.自任, _method(Method.自任, Rule.P_自任)),
    (P.自信, _method(Method.自信, Rule.P_自信)),
    (P.反吟, _frame_of(Frame.反吟, Rule.P_反吟)),
    (P.無依, _method(Method.無依, Rule.P_無依)),
    (P.冬蛇掩目, _pleiades_with(General.騰蛇, by_day_yang=False)),  # ¶147
    (P.虎視転蓬, _pleiades_with(General.白虎, by_day_yang=True)),  # ¶147
    (P.帷簿, _curtain),  # ¶151
    (P.龍首, _dragon_head),  # ¶151
    (P.龍戦, _dragon_battle),  # ¶151
    (P.官爵, _office),  # ¶155
    (P.富貴, _wealth),  # ¶155
    (P.斫輪, _hewing),  # ¶155
    (P.鋳印, _seal),  # ¶155, as amended
    (P.高蓋乗軒, _high_canopy),  # ¶155
    (P.蕪淫, _weeds),  # ¶159
    (P.淫女, _wanton),  # ¶159
    (P.三交, _three_crossings),  # ¶159
    (P.九醜, _nine_ugly),  # ¶159
    (P.斬関, _break_barrier),  # ¶163
    (P.遊子, _wanderer),  # ¶163
    (P.天獄, _heaven_prison),  # ¶163
    (P.天網, _heaven_net),  # ¶163
    (P.玄胎, _dark_womb),  # ¶167
    (P.贅婿, _son_in_law),  # ¶167
    (P.無禄, _all_lessons(Relation.剋, Rule.P_無禄)),  # ¶167
    (P.絶嗣, _all_lessons(Relation.賊, Rule.P_絶嗣)),  # ¶167
    (P.励徳, _virtue),  # ¶171
    (P.乱首, _rebel_head),  # ¶171
    (P.稼穡, _harvest),  # ¶171
    (P.曲直, _triad("亥卯未")),  # ¶171
    (P.従革, _triad("巳酉丑")),  # ¶175
    (P.炎上, _triad("寅午戌")),  # ¶175
    (P.潤下, _triad("申子辰")),  # ¶175
)
assert tuple(name for name, _ in _RULES) == PATTERN_NAMES


def classify(chart: Chart, facts: Facts | None = None) -> Patterns:
    """Every docs/rules.md §7 pattern of ``chart``: those that hold, and those the inputs leave undecided.

    ``facts`` defaults to ``facts(chart)`` (the chart's own moment, no birth data); pass one built
    with ``birth_year``/``sex``/``month``/``year`` to decide 龍首, 龍戦, 遊子 and 天獄 for a
    classically cast chart. Raises ``ValueError`` if ``facts`` was derived from another chart.
    """
    if facts is None:
        facts = derive_facts(chart)
    elif facts.day != chart.day or tuple(s.branch for s in facts.steps) != chart.transmissions.branches:
        raise ValueError(f"facts for {facts.day} do not belong to this {chart.day} chart: derive them from it")
    kept = _CLASSIFIED.get(chart)
    if kept is not None and (kept[0] is facts or kept[0] == facts):
        return kept[1]
    held: list[Pattern] = []
    undecided: list[Unknown] = []
    for name, rule in _RULES:
        result = rule(chart, facts)
        if result is None:
            continue
        if isinstance(result, _Needs):
            undecided.append(Unknown(name, result.needs, result.why))
        else:
            held.append(Pattern(name, result))
    return _CLASSIFIED.put(chart, (facts, Patterns(tuple(held), tuple(undecided))))[1]


# The patterns of the last charts classified, with the facts they were classified on: one reply
# classifies its chart several times (the chart text, the JSON, the reading, the picture and its alt
# text), and facts equal in value decide the same patterns. Patterns are frozen.
_CLASSIFIED: Recent[Chart, tuple[Facts, Patterns]] = Recent(64)


def detect(chart: Chart, facts: Facts | None = None) -> tuple[Pattern, ...]:
    """The docs/rules.md §7 patterns that hold for ``chart``, in §7 order, each with its reasons."""
    return classify(chart, facts).held
