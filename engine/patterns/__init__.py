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

from dataclasses import dataclass

from ..chart import Chart
from ..facts import Facts
from ..facts import facts as derive_facts
from ..reasons import Why
from ..recent import Recent
from ..terms import PATTERN_NAMES, Input, Method, PatternName
from .rules import RULES_FOR, Needs

__all__ = [
    "GENERALS_READ", "NEEDS_INPUT", "PATTERN_NAMES", "SCHOOL_READ", "Pattern", "Patterns", "Unknown", "classify",
    "detect",
]

# Patterns that may need a moment (or birth data) to decide.
NEEDS_INPUT: dict[PatternName, tuple[Input, ...]] = {
    PatternName.龍首: (Input.太歳, Input.月建),
    PatternName.龍戦: (Input.行年,),
    PatternName.遊子: (Input.天馬,),
    PatternName.天獄: (Input.旺相休囚死,),
}

# The school options a rule reads itself, each for the charts of one method only; every other option
# reaches the patterns only through the chart's parts (its 三伝, 天将, day…), so two charts alike
# but for those have the same patterns.
SCHOOL_READ: dict[str, Method] = {"maoxing_by_day": Method.昴星}

# The patterns whose rules read the 天将 (a general on a branch, or where 貴人 stands): two charts
# alike but for their generals (and their steps' generals) differ in these patterns alone.
GENERALS_READ = frozenset({
    PatternName.冬蛇掩目, PatternName.虎視転蓬, PatternName.龍首, PatternName.富貴, PatternName.淫女,
    PatternName.斬関, PatternName.励徳,
})


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


def classify(chart: Chart, facts: Facts | None = None) -> Patterns:
    """Every docs/rules.md §7 pattern of ``chart``: those that hold, and those the inputs leave undecided.

    ``facts`` defaults to ``facts(chart)`` (the chart's own moment, no birth data); pass one built
    with ``birth_year``/``sex``/``month``/``year`` to decide 龍首, 龍戦, 遊子 and 天獄 for a
    classically cast chart. Raises ``ValueError`` if ``facts`` was derived from another chart.
    """
    if facts is None:
        facts = derive_facts(chart)
    elif facts.day != chart.day or (facts.steps[0].branch, facts.steps[1].branch,
                                    facts.steps[2].branch) != chart.transmissions.branches:
        raise ValueError(f"facts for {facts.day} do not belong to this {chart.day} chart: derive them from it")
    kept = _CLASSIFIED.get(chart)
    if kept is not None and (kept[0] is facts or kept[0] == facts):
        return kept[1]
    held: list[Pattern] = []
    undecided: list[Unknown] = []
    t = chart.transmissions
    for name, rule in RULES_FOR[t.method][0 if t.frame is None else t.frame + 1]:
        result = rule(chart, facts)
        if result is None:
            continue
        if isinstance(result, Needs):
            undecided.append(Unknown(name, result.needs, result.why))
        else:
            held.append(Pattern(name, result))
    return _CLASSIFIED.put(chart, (facts, Patterns(tuple(held), tuple(undecided))))[1]


# A chart shown several ways at once is classified once; facts equal in value decide the same patterns.
_CLASSIFIED: Recent[Chart, tuple[Facts, Patterns]] = Recent(64)


def detect(chart: Chart, facts: Facts | None = None) -> tuple[Pattern, ...]:
    """The docs/rules.md §7 patterns that hold for ``chart``, in §7 order, each with its reasons."""
    return classify(chart, facts).held
