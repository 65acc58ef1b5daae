"""Named patterns (課体) of a chart, each with the reason it holds (RULES §7, ¶139–¶175).

Design: :func:`classify` returns a :class:`Patterns` with two tuples, ``held`` (patterns that
hold, as :class:`Pattern`) and ``undecided`` (as :class:`Unknown`: patterns that depend on an
input the caller did not give, such as 太歳 or 行年, and that the known inputs do not already
settle). :func:`detect` is ``classify(...).held``. Both are in the order of RULES §7
(``PATTERN_NAMES``); a pattern that does not hold and is not undecided is simply absent.

Readings chosen where RULES §7 leaves room (the literal one each time):

- The method patterns come from ``chart.transmissions``: 元首 重審 知一 見機 察微 蒿矢 弾射 昴星
  別責 from ``method``; 八専 from ``frame`` (干支同位, with or without 剋, as ¶151 defines it);
  伏吟 and 反吟 from ``frame``, with 自任/自信 (the 伏吟 methods) and 無依 (反吟 without 剋)
  as separate entries. 綴瑕 and 渉害 (the depth-count school option) are methods but not §7
  patterns, so they are not reported.
  Because RULES §4 tries 伏吟 and 反吟 first, a 干支同位 day (甲寅 丁未 己未 庚申 癸丑) on a
  伏吟 or 反吟 plate has that frame and is not reported as 八専.
- 帷簿 holds exactly when 八専 does (¶151 gives it as another name of the same 課).
- 高蓋乗軒: 初 中 末 are 午 卯 子 in that order (§7 says "as sets" only for the 三合 patterns).
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
from .symbols import Branch, Stem

# RULES §7 order.
PATTERN_NAMES: tuple[str, ...] = (
    "元首", "重審", "知一", "見機", "察微", "蒿矢", "弾射", "昴星", "別責", "八専",
    "伏吟", "自任", "自信", "反吟", "無依",
    "冬蛇掩目", "虎視転蓬",
    "帷簿", "龍首", "龍戦", "官爵", "富貴", "斫輪", "鋳印", "高蓋乗軒",
    "蕪淫", "淫女", "三交", "九醜",
    "斬関", "遊子", "天獄", "天網", "玄胎", "贅婿", "無禄", "絶嗣", "励徳", "乱首",
    "稼穡", "曲直", "従革", "炎上", "潤下",
)  # fmt: skip

# Patterns that may need a moment (or birth data) to decide.
NEEDS_INPUT: dict[str, tuple[str, ...]] = {
    "龍首": ("太歳", "月建"),
    "龍戦": ("行年",),
    "遊子": ("天馬",),
    "天獄": ("旺相休囚死",),
}


@dataclass(frozen=True, slots=True)
class Pattern:
    """A pattern that holds; ``reason`` reads like ``"斬関: 干上神戌に青龍が乗る"``."""

    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class Unknown:
    """A pattern the given inputs cannot decide; ``needs`` names the missing facts."""

    name: str
    needs: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Patterns:
    """All §7 patterns of a chart: those that hold, and those left undecided for want of input."""

    held: tuple[Pattern, ...]
    undecided: tuple[Unknown, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.held)


@dataclass(frozen=True, slots=True)
class _Needs:
    needs: tuple[str, ...]
    why: str


_Result = str | _Needs | None  # the reason (without the name), an undecided note, or no
_Rule = Callable[[Chart, Facts], _Result]


def _j(branches: tuple[Branch, ...]) -> str:
    return "・".join(map(str, branches))


def _rank_all(chart: Chart, rank: str) -> bool:
    return all(b.season_rank == rank for b in chart.transmissions.branches)


# --- from the method and frame (¶139–¶147) ---------------------------------------------------

_METHOD_WORDS: dict[str, str] = {
    "元首": "上が下を剋す課が一つ（象天）、その上神{0}を初伝とする",
    "重審": "下が上を賊す課が一つ（法地）、その上神{0}を初伝とする",
    "知一": "比用: 日干と陰陽を同じくする{0}ただ一つを初伝とする",
    "見機": "渉害: 孟の上に臨む{0}を初伝とする",
    "察微": "渉害: 仲の上に臨む{0}を初伝とする",
    "蒿矢": "四課に剋なく、上神{0}が遙かに日干{1}を剋す",
    "弾射": "四課に剋なく、日干{1}が遙かに上神{0}を剋す",
    "昴星": "剋も遙剋もなく四課が備わり、酉によって初伝{0}を取る",
    "別責": "剋も遙剋もなく四課不備、初伝{0}",
    "自任": "伏吟で剛日（{1}）",
    "自信": "伏吟で柔日（{1}）",
    "無依": "反吟で剋がなく、驛馬{0}を初伝とする",
}


def _method(name: str) -> _Rule:
    def rule(chart: Chart, _: Facts) -> _Result:
        if chart.transmissions.method != name:
            return None
        return _METHOD_WORDS[name].format(chart.transmissions.initial, chart.day.stem)

    return rule


def _eight_specials(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.frame != "八専":
        return None
    return f"日干{chart.day.stem}の寄宮{chart.day.stem.lodging}が日支{chart.day.branch}と同位（干支同位）"


def _hidden_chant(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.frame != "伏吟":
        return None
    return "天盤の十二神が各々地盤の本位に伏す"


def _return_chant(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.frame != "反吟":
        return None
    return "天盤の十二神が各々沖の位に臨む"


def _pleiades_with(general: str) -> _Rule:
    def rule(chart: Chart, _: Facts) -> _Result:
        initial = chart.transmissions.initial
        if chart.transmissions.method != "昴星" or chart.generals.on(initial) != general:
            return None
        return f"昴星で初伝{initial}に{general}が乗る"

    return rule


# --- ¶151–¶159 ---------------------------------------------------------------------------------


def _curtain(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.frame != "八専":
        return None
    return f"八専（日干{chart.day.stem}と日支{chart.day.branch}が同位）は帷簿不修の課"


def _dragon_head(chart: Chart, facts: Facts) -> _Result:
    initial = chart.transmissions.initial
    why: list[str] = []
    if facts.year is not None and initial == facts.year:
        why.append(f"初伝{initial}が太歳")
    if facts.month is not None and initial == facts.month:
        why.append(f"初伝{initial}が月建")
    if initial == chart.yuejiang:
        why.append(f"初伝{initial}が月将")
    if chart.generals.on(initial) == "貴人":
        why.append(f"初伝{initial}に貴人が乗る")
    if why:
        return "、".join(why)
    needs = tuple(name for name, known in (("太歳", facts.year), ("月建", facts.month)) if known is None)
    if needs:
        return _Needs(needs, f"初伝{initial}は月将でも貴人でもなく、{'・'.join(needs)}が分からない")
    return None


def _dragon_battle(chart: Chart, facts: Facts) -> _Result:
    initial = chart.transmissions.initial
    gates = (Branch.卯, Branch.酉)
    if initial not in gates:
        return None
    if chart.day.branch in gates:
        return f"日支{chart.day.branch}が卯酉で、初伝{initial}も卯酉"
    if facts.walking_year is None:
        return _Needs(("行年",), f"初伝{initial}は卯酉、日支{chart.day.branch}は卯酉でなく、行年が分からない")
    if facts.walking_year in gates:
        return f"行年{facts.walking_year}が卯酉で、初伝{initial}も卯酉"
    return None


def _office(chart: Chart, facts: Facts) -> _Result:
    initial = chart.transmissions.initial
    if initial != facts.travel_horse:
        return None
    return f"初伝{initial}が日支{chart.day.branch}の驛馬"


def _wealth(chart: Chart, _: Facts) -> _Result:
    initial = chart.transmissions.initial
    if chart.generals.on(initial) != "貴人":
        return None
    return f"初伝{initial}に貴人が乗る"


def _on_ground(upper: Branch, ground: Branch) -> _Rule:
    def rule(chart: Chart, _: Facts) -> _Result:
        initial = chart.transmissions.initial
        if initial != upper or chart.plate.down(initial) != ground:
            return None
        return f"初伝{upper}が地盤{ground}に加わる"

    return rule


_HIGH_CANOPY = (Branch.午, Branch.卯, Branch.子)


def _high_canopy(chart: Chart, _: Facts) -> _Result:
    if chart.transmissions.branches != _HIGH_CANOPY:
        return None
    return "三伝が午・卯・子（天馬・天車・華蓋）"


# --- ¶163 ---------------------------------------------------------------------------------------


def _weeds(chart: Chart, _: Facts) -> _Result:
    day, u1, u3 = chart.day, chart.stem_upper, chart.branch_upper
    if u1.element.overcomes(day.branch.element) and u3.element.overcomes(day.stem.element):
        return f"干上神{u1}が日支{day.branch}を剋し、支上神{u3}が日干{day.stem}を剋す"
    return None


def _wanton(chart: Chart, _: Facts) -> _Result:
    t = chart.transmissions
    on = chart.generals.on
    gates = [b for b in t.branches if b in (Branch.卯, Branch.酉)]
    if on(t.initial) != "天后" or on(t.final) != "六合" or not gates:
        return None
    return f"初伝{t.initial}に天后、末伝{t.final}に六合が乗り、三伝に{gates[0]}がある"


def _three_crossings(chart: Chart, _: Facts) -> _Result:
    if not _rank_all(chart, "仲"):
        return None
    return f"三伝{_j(chart.transmissions.branches)}がすべて仲"


_NINE_UGLY_STEMS = (Stem.乙, Stem.戊, Stem.己, Stem.辛, Stem.壬)


def _nine_ugly(chart: Chart, _: Facts) -> _Result:
    day = chart.day
    ground = chart.plate.down(Branch.丑)
    if day.stem not in _NINE_UGLY_STEMS or day.branch.season_rank != "仲" or ground.season_rank != "仲":
        return None
    return f"日干{day.stem}、日支{day.branch}が仲で、天盤丑（大吉）が仲の{ground}に加わる"


# --- ¶167–¶175 ----------------------------------------------------------------------------------

_BARRIERS = (Branch.辰, Branch.戌)
_BARRIER_GENERALS = ("六合", "青龍")


def _break_barrier(chart: Chart, _: Facts) -> _Result:
    why = [
        f"{label}{upper}に{chart.generals.on(upper)}が乗る"
        for label, upper in (("干上神", chart.stem_upper), ("支上神", chart.branch_upper))
        if upper in _BARRIERS and chart.generals.on(upper) in _BARRIER_GENERALS
    ]
    return "、".join(why) if why else None


def _wanderer(chart: Chart, facts: Facts) -> _Result:
    branches = chart.transmissions.branches
    if not _rank_all(chart, "季"):
        return None
    listed = _j(branches)
    if facts.ding in branches:
        return f"三伝{listed}がすべて季で、丁神{facts.ding}が入る"
    if facts.heavenly_horse is None:
        return _Needs(("天馬",), f"三伝{listed}がすべて季で丁神{facts.ding}はなく、天馬が分からない")
    if facts.heavenly_horse in branches:
        return f"三伝{listed}がすべて季で、天馬{facts.heavenly_horse}が入る"
    return None


def _heaven_prison(chart: Chart, facts: Facts) -> _Result:
    initial = facts.initial
    if chart.stem_upper != Branch.辰:
        return None
    if initial.vigour is None:
        return _Needs(("旺相休囚死",), f"干上神が辰、初伝{initial.branch}の旺相休囚死が分からない（月建がない）")
    if initial.vigour not in ("囚", "死"):
        return None
    return f"初伝{initial.branch}が{initial.vigour}気で、干上神が辰（天罡）"


def _heaven_net(chart: Chart, _: Facts) -> _Result:
    stem, hour, initial = chart.day.stem, chart.hour, chart.transmissions.initial
    if hour.element.overcomes(stem.element) and initial.element.overcomes(stem.element):
        return f"占時{hour}と初伝{initial}がともに日干{stem}を剋す"
    return None


def _dark_womb(chart: Chart, _: Facts) -> _Result:
    if not _rank_all(chart, "孟"):
        return None
    return f"三伝{_j(chart.transmissions.branches)}がすべて孟"


def _son_in_law(chart: Chart, _: Facts) -> _Result:
    day, u1 = chart.day, chart.stem_upper
    if u1 != day.branch or not day.stem.element.overcomes(u1.element) or chart.transmissions.initial != u1:
        return None
    return f"日支{u1}が干上神となり、日干{day.stem}に剋されて初伝となる"


def _all_lessons(relation: str, words: str) -> _Rule:
    def rule(chart: Chart, _: Facts) -> _Result:
        if any(lesson.relation != relation for lesson in chart.lessons):
            return None
        return words

    return rule


def _virtue(chart: Chart, _: Facts) -> _Result:
    ground = chart.generals.noble_ground
    if ground not in (Branch.卯, Branch.酉):
        return None
    return f"貴人が地盤{ground}に臨む"


def _rebel_head(chart: Chart, _: Facts) -> _Result:
    day, u3 = chart.day, chart.branch_upper
    if u3 != day.stem.lodging or not day.branch.element.overcomes(day.stem.element):
        return None
    return f"支上神{u3}が日干{day.stem}の寄宮で、日支{day.branch}が日干を剋す"


def _harvest(chart: Chart, _: Facts) -> _Result:
    if not _rank_all(chart, "季"):
        return None
    return f"三伝{_j(chart.transmissions.branches)}がすべて季"


def _frame(members: str, element: str) -> _Rule:
    wanted = frozenset(Branch[c] for c in members)

    def rule(chart: Chart, _: Facts) -> _Result:
        if frozenset(chart.transmissions.branches) != wanted:
            return None
        return f"三伝が{members}の三合{element}局"

    return rule


_RULES: tuple[tuple[str, _Rule], ...] = (
    *((name, _method(name)) for name in ("元首", "重審", "知一", "見機", "察微", "蒿矢", "弾射", "昴星", "別責")),
    ("八専", _eight_specials),
    ("伏吟", _hidden_chant),
    ("自任", _method("自任")),
    ("自信", _method("自信")),
    ("反吟", _return_chant),
    ("無依", _method("無依")),
    ("冬蛇掩目", _pleiades_with("騰蛇")),  # ¶147
    ("虎視転蓬", _pleiades_with("白虎")),  # ¶147
    ("帷簿", _curtain),  # ¶151
    ("龍首", _dragon_head),  # ¶151
    ("龍戦", _dragon_battle),  # ¶151
    ("官爵", _office),  # ¶155
    ("富貴", _wealth),  # ¶155
    ("斫輪", _on_ground(Branch.卯, Branch.申)),  # ¶155
    ("鋳印", _on_ground(Branch.戌, Branch.巳)),  # ¶155
    ("高蓋乗軒", _high_canopy),  # ¶155
    ("蕪淫", _weeds),  # ¶159
    ("淫女", _wanton),  # ¶159
    ("三交", _three_crossings),  # ¶159
    ("九醜", _nine_ugly),  # ¶159
    ("斬関", _break_barrier),  # ¶163
    ("遊子", _wanderer),  # ¶163
    ("天獄", _heaven_prison),  # ¶163
    ("天網", _heaven_net),  # ¶163
    ("玄胎", _dark_womb),  # ¶167
    ("贅婿", _son_in_law),  # ¶167
    ("無禄", _all_lessons("剋", "四課すべて上が下を剋す")),  # ¶167
    ("絶嗣", _all_lessons("賊", "四課すべて下が上を賊す")),  # ¶167
    ("励徳", _virtue),  # ¶171
    ("乱首", _rebel_head),  # ¶171
    ("稼穡", _harvest),  # ¶171
    ("曲直", _frame("亥卯未", "木")),  # ¶171
    ("従革", _frame("巳酉丑", "金")),  # ¶175
    ("炎上", _frame("寅午戌", "火")),  # ¶175
    ("潤下", _frame("申子辰", "水")),  # ¶175
)
assert tuple(name for name, _ in _RULES) == PATTERN_NAMES


def classify(chart: Chart, facts: Facts | None = None) -> Patterns:
    """Every RULES §7 pattern of ``chart``: those that hold, and those the inputs leave undecided.

    ``facts`` defaults to ``facts(chart)`` (the chart's own moment, no birth data); pass one built
    with ``birth_year``/``sex``/``month``/``year`` to decide 龍首, 龍戦, 遊子 and 天獄 for a
    classically cast chart. Raises ``ValueError`` if ``facts`` was derived from another chart.
    """
    if facts is None:
        facts = derive_facts(chart)
    elif facts.day != chart.day or tuple(s.branch for s in facts.steps) != chart.transmissions.branches:
        raise ValueError(f"facts for {facts.day} do not belong to this {chart.day} chart: derive them from it")
    held: list[Pattern] = []
    undecided: list[Unknown] = []
    for name, rule in _RULES:
        result = rule(chart, facts)
        if result is None:
            continue
        if isinstance(result, _Needs):
            undecided.append(Unknown(name, result.needs, f"{name}: {result.why}"))
        else:
            held.append(Pattern(name, f"{name}: {result}"))
    return Patterns(tuple(held), tuple(undecided))


def detect(chart: Chart, facts: Facts | None = None) -> tuple[Pattern, ...]:
    """The RULES §7 patterns that hold for ``chart``, in §7 order, each with its reason."""
    return classify(chart, facts).held
