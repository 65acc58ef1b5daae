"""Stems, branches, elements and the fixed relations between them (docs/rules.md §1).

Stems and branches are ``IntEnum`` members named by their CJK character, so
``Branch.子 == 0`` and ``str(Branch.子) == "子"``: arithmetic stays integer
arithmetic while everything a user reads is the character itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Element(IntEnum):
    """The five phases in 生 order: each one generates the next."""

    木 = 0
    火 = 1
    土 = 2
    金 = 3
    水 = 4

    def __str__(self) -> str:
        return self._name_

    def __repr__(self) -> str:
        return f"Element.{self.name}"

    def generates(self, other: Element) -> bool:
        """True when ``self`` 生 ``other`` (木生火 …)."""
        return (self + 1) % 5 == other

    def overcomes(self, other: Element) -> bool:
        """True when ``self`` 剋 ``other`` (木剋土, 土剋水, 水剋火, 火剋金, 金剋木)."""
        return (self + 2) % 5 == other


class Rank(IntEnum):
    """孟 仲 季: the first, middle and last month of a season, and their branches (docs/rules.md §1)."""

    孟 = 0
    仲 = 1
    季 = 2

    def __str__(self) -> str:
        return self._name_

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


class Stem(IntEnum):
    """The ten heavenly stems, 甲 = 0 … 癸 = 9."""

    甲 = 0
    乙 = 1
    丙 = 2
    丁 = 3
    戊 = 4
    己 = 5
    庚 = 6
    辛 = 7
    壬 = 8
    癸 = 9

    def __str__(self) -> str:
        return self._name_

    def __repr__(self) -> str:
        return f"Stem.{self.name}"

    @property
    def element(self) -> Element:
        return ELEMENTS[self // 2]

    @property
    def is_yang(self) -> bool:
        """甲丙戊庚壬 are yang: their day is a 陽日 (剛日)."""
        return self % 2 == 0

    @property
    def lodging(self) -> Branch:
        """寄宮, the branch a stem lodges in (¶39)."""
        return LODGING[self]


class Branch(IntEnum):
    """The twelve earthly branches, 子 = 0 … 亥 = 11."""

    子 = 0
    丑 = 1
    寅 = 2
    卯 = 3
    辰 = 4
    巳 = 5
    午 = 6
    未 = 7
    申 = 8
    酉 = 9
    戌 = 10
    亥 = 11

    def __str__(self) -> str:
        return self._name_

    def __repr__(self) -> str:
        return f"Branch.{self.name}"

    def __add__(self, steps: int) -> Branch:
        return BRANCHES[(int(self) + steps) % 12]

    def __sub__(self, steps: int) -> Branch:
        return BRANCHES[(int(self) - steps) % 12]

    @property
    def element(self) -> Element:
        return BRANCH_ELEMENTS[self]

    @property
    def is_yang(self) -> bool:
        return self % 2 == 0

    @property
    def clash(self) -> Branch:
        """沖: the opposite branch."""
        return BRANCHES[(self + 6) % 12]

    @property
    def punishment(self) -> Branch:
        """刑 (¶75); 自刑 branches return themselves."""
        return PUNISHMENT[self]

    @property
    def season_rank(self) -> Rank:
        """孟 寅申巳亥, 仲 子午卯酉, 季 辰戌丑未."""
        return SEASON_RANK[self % 3]


STEMS: tuple[Stem, ...] = tuple(Stem)
BRANCHES: tuple[Branch, ...] = tuple(Branch)
ELEMENTS: tuple[Element, ...] = tuple(Element)

# 子丑寅卯辰巳午未申酉戌亥 → 水土木木土火火土金金土水
BRANCH_ELEMENTS: tuple[Element, ...] = tuple(Element[c] for c in "水土木木土火火土金金土水")

# 寄宮 (¶39): 甲寅 乙辰 丙巳 丁未 戊巳 己未 庚申 辛戌 壬亥 癸丑
LODGING: tuple[Branch, ...] = tuple(Branch[c] for c in "寅辰巳未巳未申戌亥丑")

# 刑 (¶75): 子卯 互刑; 寅巳申, 丑戌未 run in a circle; 辰午酉亥 自刑.
PUNISHMENT: tuple[Branch, ...] = tuple(Branch[c] for c in "卯戌巳子辰申午丑寅酉未亥")

# index by branch % 3: 子(0) 仲, 丑(1) 季, 寅(2) 孟 — the pattern repeats every three.
SEASON_RANK: tuple[Rank, ...] = (Rank.仲, Rank.季, Rank.孟)

# 三合 frames in cyclic order (docs/rules.md §1): 申子辰, 亥卯未, 寅午戌, 巳酉丑.
TRIADS: tuple[tuple[Branch, Branch, Branch], ...] = tuple(
    (Branch[a], Branch[b], Branch[c]) for a, b, c in ("申子辰", "亥卯未", "寅午戌", "巳酉丑")
)


def triad_of(branch: Branch) -> tuple[Branch, Branch, Branch]:
    """The 三合 frame a branch belongs to."""
    return TRIADS[_TRIAD_INDEX[branch]]


# 子辰申→0, 卯未亥→1, 寅午戌→2, 丑巳酉→3
_TRIAD_INDEX: tuple[int, ...] = (0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1)


def travel_horse(branch: Branch) -> Branch:
    """驛馬 of a branch: 申子辰 寅, 寅午戌 申, 巳酉丑 亥, 亥卯未 巳 (docs/rules.md §6)."""
    return BRANCHES[(int(TRIADS[_TRIAD_INDEX[branch]][0]) + 6) % 12]  # int: not Branch's own + (a call)


@dataclass(frozen=True, slots=True)
class Pillar:
    """A sexagenary pillar (干支) such as 甲子; ``index`` is 0 for 甲子 … 59 for 癸亥."""

    stem: Stem
    branch: Branch

    def __post_init__(self) -> None:
        if self.stem % 2 != self.branch % 2:
            raise ValueError(
                f"{self.stem.name}{self.branch.name} is not one of the 60 干支 (a yang stem takes a yang branch): "
                "give e.g. 甲子, 乙丑, 丙寅"
            )

    def __str__(self) -> str:
        return f"{self.stem._name_}{self.branch._name_}"  # _name_: .name is a Python-level property

    def __repr__(self) -> str:
        return f"Pillar.parse({str(self)!r})"

    @property
    def index(self) -> int:
        return PILLAR_INDEX[self.stem * 12 + self.branch]

    @property
    def xun_start(self) -> Pillar:
        """The 甲 day that opens this pillar's 旬."""
        return PILLARS[self.index - self.stem]

    @property
    def void(self) -> tuple[Branch, Branch]:
        """旬空 (空亡): the two branches the 旬 leaves without a stem."""
        first = BRANCHES[(self.branch - self.stem + 10) % 12]
        return first, first + 1

    @classmethod
    def parse(cls, text: str) -> Pillar:
        """Read a pillar like ``"甲子"``; raises ``ValueError`` naming what is accepted."""
        text = text.strip()
        if len(text) != 2 or text[0] not in Stem.__members__ or text[1] not in Branch.__members__:
            raise ValueError(
                f"unknown pillar {text!r}: give a stem 甲乙丙丁戊己庚辛壬癸 then a branch "
                "子丑寅卯辰巳午未申酉戌亥, e.g. 甲子"
            )
        return cls(Stem[text[0]], Branch[text[1]])


def _index_table() -> tuple[int, ...]:
    table = [-1] * 120
    for i in range(60):
        table[(i % 10) * 12 + i % 12] = i
    return tuple(table)


PILLAR_INDEX: tuple[int, ...] = _index_table()
PILLARS: tuple[Pillar, ...] = tuple(Pillar(STEMS[i % 10], BRANCHES[i % 12]) for i in range(60))


def parse_branch(text: str) -> Branch:
    """Read one branch character; raises ``ValueError`` naming the accepted ones."""
    text = text.strip()
    if text not in Branch.__members__:
        raise ValueError(f"unknown branch {text!r}: give one of 子丑寅卯辰巳午未申酉戌亥")
    return Branch[text]
