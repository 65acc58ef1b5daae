"""The domain's words as typed values, declared once; every layer imports them from here.

Each is an ``IntEnum`` named by the characters a reader reads, like :class:`~engine.symbols.Branch`:
``str(General.貴人) == "貴人"``, ``repr(General.貴人) == "General.貴人"`` (which evaluates back to
the member), and ``General["貴人"]`` reads one. Parallel tuples give the one-character forms and the
other names the books use; glosses and translations are the presentation layer's (texts/locales).

    >>> from engine.symbols import Branch
    >>> General.貴人 + 1 == General.騰蛇
    True
    >>> str(Method.知一), repr(Position.初伝)
    ('知一', 'Position.初伝')
    >>> GENERAL_SHORT[General.青龍], MONTH_GENERAL_NAMES[Branch.亥], PRINCIPAL_TERM_OF[Branch.亥]
    ('龍', '登明', '雨水')
    >>> HOUR_CLOCK[Branch.子]
    ('23:00', '00:59')
"""

from __future__ import annotations

from enum import IntEnum

from .symbols import BRANCHES


class _Term(IntEnum):
    """An enum whose ``str`` is its CJK name and whose ``repr`` evaluates back to the member."""

    def __str__(self) -> str:
        return self._name_

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    @classmethod
    def parse(cls, text: str) -> _Term:
        """Read a member by its name; ``ValueError`` naming every accepted name otherwise."""
        try:
            return cls[text.strip()]
        except KeyError:
            accepted = " ".join(m.name for m in cls)
            raise ValueError(f"unknown {cls.__name__} {text!r}: give one of {accepted}") from None


class General(_Term):
    """The twelve 天将 in their order from 貴人 (¶87)."""

    貴人 = 0
    騰蛇 = 1
    朱雀 = 2
    六合 = 3
    勾陳 = 4
    青龍 = 5
    天空 = 6
    白虎 = 7
    太常 = 8
    玄武 = 9
    太陰 = 10
    天后 = 11

    @property
    def short(self) -> str:
        """The one-character form printed on a 天地盤 (貴 蛇 雀 …)."""
        return GENERAL_SHORT[self]


GENERALS: tuple[General, ...] = tuple(General)
# One-character forms, as a 天地盤 prints them, in General order.
GENERAL_SHORT: tuple[str, ...] = tuple("貴蛇雀合勾龍空虎常玄陰后")
# Other names the texts use for a general (the seed's ¶87 calls 貴人 天乙).
GENERAL_ALIASES: dict[str, General] = {"天乙": General.貴人, "天乙貴人": General.貴人}


class Position(_Term):
    """The three transmissions (三伝)."""

    初伝 = 0
    中伝 = 1
    末伝 = 2


POSITIONS: tuple[Position, ...] = tuple(Position)


class Method(_Term):
    """The rule that chose the 初伝 (docs/rules.md §4); the first group decides by 剋."""

    重審 = 0
    元首 = 1
    知一 = 2
    見機 = 3
    察微 = 4
    綴瑕 = 5
    渉害 = 6  # the depth-count school option decided it
    蒿矢 = 7
    弾射 = 8
    昴星 = 9
    別責 = 10
    八専 = 11
    自任 = 12
    自信 = 13
    無依 = 14


class Frame(_Term):
    """A plate of a special kind, tried before 賊剋 (docs/rules.md §4.1–4.3)."""

    伏吟 = 0
    反吟 = 1
    八専 = 2


class Relation(_Term):
    """How a lesson's upper and lower stand: 剋 (upper overcomes lower) or 賊 (lower overcomes upper).

    A lesson with neither has ``relation is None``.
    """

    剋 = 1
    賊 = 2


class Polarity(_Term):
    """陰陽 of a stem or branch; a 陽日 is a 剛日, a 陰日 a 柔日."""

    陽 = 0
    陰 = 1


class Seat(_Term):
    """The two uppers read off the day: lesson 1's (over the stem) and lesson 3's (over the branch)."""

    干上神 = 0
    支上神 = 1


class Kin(_Term):
    """六親: how a branch's element stands to the day stem's (docs/rules.md §6)."""

    父母 = 0  # 生我
    子孫 = 1  # 我生
    官鬼 = 2  # 剋我
    妻財 = 3  # 我剋
    兄弟 = 4  # 比和


class Vigour(_Term):
    """旺相休囚死: an element's strength in the month (docs/rules.md §6)."""

    旺 = 0
    相 = 1
    休 = 2
    囚 = 3
    死 = 4


VIGOURS: tuple[Vigour, ...] = tuple(Vigour)


class Sex(_Term):
    """The querent's sex, which sets the direction of 行年 (docs/rules.md §6)."""

    男 = 0
    女 = 1


class Role(_Term):
    """What a matched classical line speaks of in a reading (with a ``Position`` where it is a 伝's)."""

    課体 = 0  # the 課名 and the named patterns (¶139–¶175)
    天将 = 1  # a general's opening line (¶87–¶135), for the 伝 it rides
    所臨 = 2  # a general's name line for the 地盤 branch it stands on
    干支 = 3  # 干上神 and 支上神 with the day stem and branch (¶39)
    課格 = 4  # the plate's frame (伏吟 反吟 八専)
    課法 = 5  # how the 初伝 was taken (¶51–¶83)


class PatternName(_Term):
    """The named 課体 of docs/rules.md §7, in its order."""

    元首 = 0
    重審 = 1
    知一 = 2
    見機 = 3
    察微 = 4
    蒿矢 = 5
    弾射 = 6
    昴星 = 7
    別責 = 8
    八専 = 9
    伏吟 = 10
    自任 = 11
    自信 = 12
    反吟 = 13
    無依 = 14
    冬蛇掩目 = 15
    虎視転蓬 = 16
    帷簿 = 17
    龍首 = 18
    龍戦 = 19
    官爵 = 20
    富貴 = 21
    斫輪 = 22
    鋳印 = 23
    高蓋乗軒 = 24
    蕪淫 = 25
    淫女 = 26
    三交 = 27
    九醜 = 28
    斬関 = 29
    遊子 = 30
    天獄 = 31
    天網 = 32
    玄胎 = 33
    贅婿 = 34
    無禄 = 35
    絶嗣 = 36
    励徳 = 37
    乱首 = 38
    稼穡 = 39
    曲直 = 40
    従革 = 41
    炎上 = 42
    潤下 = 43


PATTERN_NAMES: tuple[PatternName, ...] = tuple(PatternName)


class Input(_Term):
    """A derived fact a chart may lack for want of an input (docs/rules.md §6)."""

    太歳 = 0
    月建 = 1
    天馬 = 2
    旺相休囚死 = 3
    本命 = 4
    行年 = 5
    数え = 6


# 月将 names, as the books call the twelve generals of the month, indexed 子 … 亥.
MONTH_GENERAL_NAMES: tuple[str, ...] = (
    "神后", "大吉", "功曹", "太衝", "天罡", "太乙", "勝光", "小吉", "傳送", "從魁", "河魁", "登明",
)  # fmt: skip
# The 中気 that brings each 月将 (docs/rules.md §2, ¶43: 雨水 亥, 春分 戌 … 大寒 子), indexed 子 … 亥.
PRINCIPAL_TERM_OF: tuple[str, ...] = (
    "大寒", "冬至", "小雪", "霜降", "秋分", "処暑", "大暑", "夏至", "小満", "穀雨", "春分", "雨水",
)  # fmt: skip
# 時支 clock hours (docs/rules.md §2: 子 23:00–00:59, 丑 01:00–02:59 …), indexed 子 … 亥.
HOUR_CLOCK: tuple[tuple[str, str], ...] = tuple(
    (f"{(2 * b - 1) % 24:02d}:00", f"{(2 * b) % 24:02d}:59") for b in BRANCHES
)

# The inclusive range of years the calendar serves (the solar-term table reaches a year beyond each end,
# so that the terms around 1 January 1900 and 31 December 2100 are known).
FIRST_YEAR = 1900
LAST_YEAR = 2100

assert len(MONTH_GENERAL_NAMES) == len(PRINCIPAL_TERM_OF) == len(BRANCHES) == 12
