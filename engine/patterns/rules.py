"""The rule of each named pattern (課体): whether it holds for a chart, and why (docs/rules.md §7).

Each rule answers with the reasons it holds, a :class:`Needs` when an input the caller did not
give would decide it, or ``None``. The readings chosen where §7 leaves room are listed in
:mod:`engine.patterns`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..chart import Chart
from ..facts import Facts
from ..reasons import Rule, Value, Why
from ..symbols import BRANCHES, Branch, Rank, Stem
from ..terms import PATTERN_NAMES, Frame, General, Input, Method, PatternName, Relation, Seat, Vigour

__all__ = ["FRAME_NEEDED", "METHOD_NEEDED", "RULES", "RULES_FOR", "Answer", "Needs", "PatternRule"]


@dataclass(frozen=True, slots=True)
class Needs:
    """A rule's answer when the given facts cannot decide it: what is missing, and the state as a reason."""

    needs: tuple[Input, ...]
    why: Why


# A rule's answer: the reasons it holds, an undecided note, or None (it does not hold).
Answer = tuple[Why, ...] | Needs | None
PatternRule = Callable[[Chart, Facts], Answer]


def _because(rule: Rule, **values: Value) -> tuple[Why, ...]:
    return (Why(rule, tuple(values.items())),)


# 孟仲季 of each branch, looked up: Branch.season_rank is a property, asked of the three 伝 four times a chart.
_SEASON_RANK: tuple[Rank, ...] = tuple(b.season_rank for b in BRANCHES)


def _rank_all(chart: Chart, rank: Rank) -> bool:
    t = chart.transmissions
    return _SEASON_RANK[t.initial] is rank and _SEASON_RANK[t.middle] is rank and _SEASON_RANK[t.final] is rank


# --- from the method and frame (¶139–¶147) ---------------------------------------------------


def _method(name: Method, rule: Rule) -> PatternRule:
    def holds(chart: Chart, _: Facts) -> Answer:
        t = chart.transmissions
        if t.method is not name:
            return None
        return _because(rule, initial=t.initial, stem=chart.day.stem)

    return holds


def _eight_specials(chart: Chart, _: Facts) -> Answer:
    if chart.transmissions.frame is not Frame.八専:
        return None
    return _because(Rule.P_八専, stem=chart.day.stem, lodging=chart.day.stem.lodging, branch=chart.day.branch)


def _frame_of(frame: Frame, rule: Rule) -> PatternRule:
    def holds(chart: Chart, _: Facts) -> Answer:
        return _because(rule) if chart.transmissions.frame is frame else None

    return holds


def _pleiades_with(general: General, by_day_yang: bool) -> PatternRule:
    """冬蛇掩目 (騰蛇, 柔日) and 虎視転蓬 (白虎, 剛日): by the general on 初 (¶147, the default), or by
    the day under the school option ``maoxing_by_day``."""

    def holds(chart: Chart, _: Facts) -> Answer:
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


def _curtain(chart: Chart, _: Facts) -> Answer:
    if chart.transmissions.frame is not Frame.八専:
        return None
    return _because(Rule.P_帷簿, stem=chart.day.stem, branch=chart.day.branch)


def _dragon_head(chart: Chart, facts: Facts) -> Answer:
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
    if facts.year is not None and facts.month is not None:
        return None
    needs = tuple(name for name, known in ((Input.太歳, facts.year), (Input.月建, facts.month)) if known is None)
    if needs:
        return Needs(needs, Why(Rule.P_龍首_UNKNOWN, (("initial", initial), ("needs", needs))))
    return None


_GATES = (Branch.卯, Branch.酉)


def _dragon_battle(chart: Chart, facts: Facts) -> Answer:
    initial = chart.transmissions.initial
    if initial not in _GATES:
        return None
    if chart.day.branch in _GATES:
        return _because(Rule.P_龍戦_DAY, branch=chart.day.branch, initial=initial)
    if facts.walking_year is None:
        return Needs((Input.行年,), Why(Rule.P_龍戦_UNKNOWN, (("initial", initial), ("branch", chart.day.branch))))
    if facts.walking_year in _GATES:
        return _because(Rule.P_龍戦_WALKING, walking=facts.walking_year, initial=initial)
    return None


def _office(chart: Chart, facts: Facts) -> Answer:
    initial = chart.transmissions.initial
    if initial != facts.travel_horse:
        return None
    return _because(Rule.P_官爵, initial=initial, branch=chart.day.branch)


def _wealth(chart: Chart, _: Facts) -> Answer:
    initial = chart.transmissions.initial
    if chart.generals.on(initial) is not General.貴人:
        return None
    return _because(Rule.P_富貴, initial=initial)


def _hewing(chart: Chart, _: Facts) -> Answer:
    initial = chart.transmissions.initial
    if initial != Branch.卯 or chart.plate.down(initial) != Branch.申:
        return None
    return _because(Rule.P_斫輪, initial=initial, ground=Branch.申)


_SEAL = (Branch.巳, Branch.戌, Branch.卯)  # 鋳印, docs/rules.md §7 as amended: 戌 over 巳 as the 中伝


def _seal(chart: Chart, _: Facts) -> Answer:
    t = chart.transmissions
    if t.branches != _SEAL:
        return None
    return _because(Rule.P_鋳印, initial=t.initial, middle=t.middle, final=t.final, ground=chart.plate.down(t.middle))


_HIGH_CANOPY = (Branch.午, Branch.卯, Branch.子)


def _high_canopy(chart: Chart, _: Facts) -> Answer:
    if chart.transmissions.branches != _HIGH_CANOPY:
        return None
    return _because(Rule.P_高蓋乗軒)


# --- ¶159 ---------------------------------------------------------------------------------------


def _weeds(chart: Chart, _: Facts) -> Answer:
    day, u1, u3 = chart.day, chart.stem_upper, chart.branch_upper
    if u1.element.overcomes(day.branch.element) and u3.element.overcomes(day.stem.element):
        return _because(Rule.P_蕪淫, stem_upper=u1, branch=day.branch, branch_upper=u3, stem=day.stem)
    return None


def _wanton(chart: Chart, _: Facts) -> Answer:
    t = chart.transmissions
    on = chart.generals.on
    if on(t.initial) is not General.天后 or on(t.final) is not General.六合:
        return None
    gates = [b for b in t.branches if b in _GATES]
    if not gates:
        return None
    return _because(Rule.P_淫女, initial=t.initial, final=t.final, gate=gates[0])


def _three_crossings(chart: Chart, _: Facts) -> Answer:
    if not _rank_all(chart, Rank.仲):
        return None
    return _because(Rule.P_三交, branches=chart.transmissions.branches)


_NINE_UGLY_STEMS = (Stem.乙, Stem.戊, Stem.己, Stem.辛, Stem.壬)


def _nine_ugly(chart: Chart, _: Facts) -> Answer:
    day = chart.day
    if day.stem not in _NINE_UGLY_STEMS or _SEASON_RANK[day.branch] is not Rank.仲:
        return None
    ground = chart.plate.down(Branch.丑)
    if _SEASON_RANK[ground] is not Rank.仲:
        return None
    return _because(Rule.P_九醜, stem=day.stem, branch=day.branch, ground=ground)


# --- ¶163–¶175 ----------------------------------------------------------------------------------

_BARRIERS = (Branch.辰, Branch.戌)
_BARRIER_GENERALS = (General.六合, General.青龍)


def _break_barrier(chart: Chart, _: Facts) -> Answer:
    if chart.stem_upper not in _BARRIERS and chart.branch_upper not in _BARRIERS:
        return None
    why = tuple(
        Why(Rule.P_斬関, (("seat", seat), ("upper", upper), ("general", chart.generals.on(upper))))
        for seat, upper in ((Seat.干上神, chart.stem_upper), (Seat.支上神, chart.branch_upper))
        if upper in _BARRIERS and chart.generals.on(upper) in _BARRIER_GENERALS
    )
    return why or None


def _wanderer(chart: Chart, facts: Facts) -> Answer:
    if not _rank_all(chart, Rank.季):
        return None
    branches = chart.transmissions.branches
    if facts.ding in branches:
        return _because(Rule.P_遊子_DING, branches=branches, ding=facts.ding)
    if facts.heavenly_horse is None:
        return Needs((Input.天馬,), Why(Rule.P_遊子_UNKNOWN, (("branches", branches), ("ding", facts.ding))))
    if facts.heavenly_horse in branches:
        return _because(Rule.P_遊子_HORSE, branches=branches, horse=facts.heavenly_horse)
    return None


def _heaven_prison(chart: Chart, facts: Facts) -> Answer:
    if chart.stem_upper != Branch.辰:
        return None
    initial = facts.initial
    if initial.vigour is None:
        return Needs((Input.旺相休囚死,), Why(Rule.P_天獄_UNKNOWN, (("initial", initial.branch),)))
    if initial.vigour not in (Vigour.囚, Vigour.死):
        return None
    return _because(Rule.P_天獄, initial=initial.branch, vigour=initial.vigour)


def _heaven_net(chart: Chart, _: Facts) -> Answer:
    stem, hour, initial = chart.day.stem, chart.hour, chart.transmissions.initial
    if hour.element.overcomes(stem.element) and initial.element.overcomes(stem.element):
        return _because(Rule.P_天網, hour=hour, initial=initial, stem=stem)
    return None


def _dark_womb(chart: Chart, _: Facts) -> Answer:
    if not _rank_all(chart, Rank.孟):
        return None
    return _because(Rule.P_玄胎, branches=chart.transmissions.branches)


def _son_in_law(chart: Chart, _: Facts) -> Answer:
    day, u1 = chart.day, chart.stem_upper
    if u1 != day.branch or not day.stem.element.overcomes(u1.element) or chart.transmissions.initial != u1:
        return None
    return _because(Rule.P_贅婿, branch=u1, stem=day.stem)


def _all_lessons(relation: Relation, rule: Rule) -> PatternRule:
    def holds(chart: Chart, _: Facts) -> Answer:
        for lesson in chart.lessons:
            if lesson.relation is not relation:
                return None
        return _because(rule)

    return holds


def _virtue(chart: Chart, _: Facts) -> Answer:
    ground = chart.generals.noble_ground
    if ground not in _GATES:
        return None
    return _because(Rule.P_励徳, ground=ground)


def _rebel_head(chart: Chart, _: Facts) -> Answer:
    day, u3 = chart.day, chart.branch_upper
    if u3 != day.stem.lodging or not day.branch.element.overcomes(day.stem.element):
        return None
    return _because(Rule.P_乱首, branch_upper=u3, stem=day.stem, branch=day.branch)


def _harvest(chart: Chart, _: Facts) -> Answer:
    if not _rank_all(chart, Rank.季):
        return None
    return _because(Rule.P_稼穡, branches=chart.transmissions.branches)


def _triad(members: str) -> PatternRule:
    wanted = tuple(Branch[c] for c in members)
    members_set = frozenset(wanted)

    def holds(chart: Chart, _: Facts) -> Answer:
        t = chart.transmissions
        if t.initial not in members_set or frozenset(t.branches) != members_set:
            return None
        return _because(Rule.P_三合, triad=wanted, element=wanted[1].element)

    return holds


P = PatternName
# Every §7 pattern with its rule, in §7 order (the order classify reports them in).
RULES: tuple[tuple[PatternName, PatternRule], ...] = (
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
assert tuple(name for name, _ in RULES) == PATTERN_NAMES

# The method or the frame without which a pattern never holds (its rule asks for it first).
METHOD_NEEDED: dict[PatternName, Method] = {
    **{name: Method[name.name] for name in (P.元首, P.重審, P.知一, P.見機, P.察微, P.蒿矢, P.弾射, P.昴星, P.別責,
                                            P.自任, P.自信, P.無依)},
    P.冬蛇掩目: Method.昴星, P.虎視転蓬: Method.昴星,
}
FRAME_NEEDED: dict[PatternName, Frame] = {
    P.八専: Frame.八専, P.伏吟: Frame.伏吟, P.反吟: Frame.反吟, P.帷簿: Frame.八専}


# Each rule with the method and the frame it needs (None: any).
_NEEDED = tuple((name, rule, METHOD_NEEDED.get(name), FRAME_NEEDED.get(name)) for name, rule in RULES)
# The rules a chart of each method and frame can satisfy, in RULES' order: RULES_FOR[method][frame],
# indexed by the frame's value + 1 (0 for no frame). A chart asks only these.
RULES_FOR: tuple[tuple[tuple[tuple[PatternName, PatternRule], ...], ...], ...] = tuple(
    tuple(tuple((name, rule) for name, rule, needs_method, needs_frame in _NEEDED
                if (needs_method is None or needs_method is method) and (needs_frame is None or needs_frame is frame))
          for frame in (None, *Frame))
    for method in Method)
assert all(method == at for at, method in enumerate(Method)) and all(frame == at for at, frame in enumerate(Frame))
