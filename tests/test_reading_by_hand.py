"""Readings of two charts worked out by hand from docs/rules.md and the seed, step by step.

Each expectation below was derived on paper, not copied from the program's output; the comments
give the reasoning so a reader can check it against the books.
"""

from __future__ import annotations

import pytest

from engine import cast_classical
from engine.patterns import detect
from engine.symbols import Branch
from engine.terms import Frame, General, Method, PatternName, Position, Role
from texts.corpus import corpus
from texts.reading import Entry, Section, read


def _on(entries: tuple[Entry, ...], role: Role, position: Position | None = None) -> Entry:
    return next(e for e in entries if e.role is role and e.position is position and e.unit is not None)


def test_seed_example_甲子_亥将_午時() -> None:
    chart = cast_classical("甲子", "亥", "午")
    # Plate: k = 亥(11) − 午(6) = 5, so 亥 over 午, 子 over 未 (¶45).
    # 四課: 甲 lodges at 寅 → 未/甲 (甲木剋未土: 賊); 子/未 (未土剋子水: 賊);
    #        子 → 巳/子 (子水剋巳火: 賊); 戌/巳 (火生土: none).
    # 賊 uppers 未 子 巳; 甲 is yang and only 子 is a yang branch → 比用 = 知一, 初伝 子.
    # 相因: over 子 stands 巳 (中伝), over 巳 stands 戌 (末伝).
    assert chart.transmissions.method is Method.知一
    assert [str(b) for b in chart.transmissions.branches] == ["子", "巳", "戌"]
    # Generals: 甲 by day (午 is 晝) → 貴人 丑 (甲牛); 天盤 丑 stands on 地盤 申, in 巳…戌 → 逆.
    # Counting back from 申: 騰蛇 未, 朱雀 午, 六合 巳, 勾陳 辰, 青龍 卯, 天空 寅, 白虎 丑, 太常 子.
    # 子 stands on 未 → 騰蛇; 巳 stands on 子 → 太常; 戌 stands on 巳 → 六合.
    assert [(s.general, s.ground) for s in chart.steps] == [
        (General.騰蛇, Branch.未),
        (General.太常, Branch.子),
        (General.六合, Branch.巳),
    ]

    entries = read(chart).entries
    c = corpus()
    # The method's rule: the verse of ¶55 「克多比用、涉害」, then 比用 (¶55) and 知一 (¶59).
    method_units = [e.unit.id for e in entries if e.section is Section.取法 and e.unit is not None]
    assert method_units[:3] == ["method.比用渉害", "method.比用", "method.知一"]
    # The 課名 first: ¶139's framing, then 知一's verse (¶143).
    assert [e.unit.id for e in entries[:2] if e.unit] == ["pattern.卦名", c.pattern("知一").id]  # type: ignore[union-attr]
    # Each general on the 地盤 branch under it: 騰蛇 臨 未 入林, 太常 臨 子 遭枷, 六合 臨 巳 不協.
    assert _on(entries, Role.天将, Position.初伝).unit is c.general("騰蛇")
    assert "入林（未）" in _on(entries, Role.所臨, Position.初伝).unit.original  # type: ignore[union-attr]
    assert "遭枷（子）" in _on(entries, Role.所臨, Position.中伝).unit.original  # type: ignore[union-attr]
    assert "不協（巳）" in _on(entries, Role.所臨, Position.末伝).unit.original  # type: ignore[union-attr]
    # 末伝 戌 is void (甲子旬 空 戌亥): the reading says so.
    assert any(e.position is Position.末伝 and any(getattr(n, "key", "") == "void" for n in e.notes) for e in entries)
    # None of these is excluded by its general's opening (騰蛇 不加戌亥, 六合 不加申酉戌亥子).
    assert not any(e.excluded for e in entries)


def test_伏吟_丁卯_with_天空_and_玄武() -> None:
    chart = cast_classical("丁卯", "子", "子")
    # k = 0: 伏吟. 丁 is yin and lesson 1 (未/丁, 火生土) has no 剋 → 自信, 初伝 = 支上神 卯.
    # 刑: 卯 → 子 (中伝), 子 → 卯 (末伝; the default school keeps the repeat).
    assert (chart.transmissions.frame, chart.transmissions.method) == (Frame.伏吟, Method.自信)
    assert [str(b) for b in chart.transmissions.branches] == ["卯", "子", "卯"]
    # 子 hour is 夜: 丁 → 貴人 酉 (甲牛); at 伏吟 天盤 酉 is on 地盤 酉, in 巳…戌 → 逆.
    # Back from 酉: 騰蛇 申, 朱雀 未, 六合 午, 勾陳 巳, 青龍 辰, 天空 卯, 白虎 寅, 太常 丑, 玄武 子.
    assert [s.general for s in chart.steps] == [General.天空, General.玄武, General.天空]

    found = {p.name for p in detect(chart)}
    # 三交: 卯 子 卯 are all 仲. 龍戦: day branch 卯 and 初伝 卯. 励徳: 貴人 on 地盤 酉.
    assert {PatternName.伏吟, PatternName.自信, PatternName.三交, PatternName.龍戦, PatternName.励徳} <= found
    entries = read(chart).entries
    c = corpus()
    # How the 初伝 was taken: the verse of ¶75 「伏反以刑、沖為定」 and 伏吟's own lines.
    assert [e.unit.id for e in entries if e.section is Section.取法 and e.unit][:2] == [
        "method.伏吟反吟",
        "method.伏吟",
    ]
    # 天空 has an opening (¶135) but no line per branch; 玄武 臨 子 is 散髮 (¶123).
    assert _on(entries, Role.天将, Position.初伝).unit is c.general("天空")
    assert not any(e.role is Role.所臨 and e.position is Position.初伝 and e.unit for e in entries)
    assert "散發（子）" in _on(entries, Role.所臨, Position.中伝).unit.original  # type: ignore[union-attr]
    # 末伝 卯 repeats the 初伝: "same as above", the passage is not quoted again.
    assert [e.same_as for e in entries if e.position is Position.末伝] == [Position.初伝]


@pytest.mark.slow  # a sweep over every classical chart's reading (the full suite runs it)
def test_every_unit_a_reading_returns_is_in_the_corpus() -> None:
    """Over all 720 plates by day and by night, every unit shown is the corpus's own, by id."""
    from engine.symbols import BRANCHES, PILLARS

    c = corpus()
    seen = set()
    for day in PILLARS:
        for k in range(12):
            for hour in (BRANCHES[0], BRANCHES[6]):  # 子 (夜) and 午 (晝)
                chart = cast_classical(day, hour + k, hour)
                for entry in read(chart).entries:
                    if entry.unit is not None:
                        assert c.get(entry.unit.id) is entry.unit
                        seen.add(entry.unit.id)
    # The readings reach every general's opening line but 貴人's: ¶87 天乙居中 only places the
    # generals and names no meaning, so it is never quoted as the meaning of a 伝.
    openings = {
        f"general.{g}"
        for g in ("貴人", "騰蛇", "朱雀", "六合", "勾陳", "青龍", "天空", "白虎", "太常", "玄武", "太陰", "天后")
    }
    assert openings & seen == openings - {"general.貴人"}
