"""The twelve 天将, led by 貴人 (¶87, docs/rules.md §5)."""

from __future__ import annotations

from dataclasses import dataclass

from .plate import Plate
from .school import NobleTable
from .symbols import BRANCHES, Branch, Stem
from .terms import GENERALS, General

# 貴人 by day stem, as (晝, 夜) branches indexed 甲 … 癸.
# 甲牛 (default): 甲戊庚 丑/未, 乙己 子/申, 丙丁 亥/酉, 辛 午/寅, 壬癸 巳/卯.
# 甲羊: 甲 未/丑, 乙 申/子, 丙 酉/亥, 丁 亥/酉, 戊庚 丑/未, 己 子/申, 辛 寅/午, 壬 卯/巳, 癸 巳/卯.
NOBLE_TABLES: dict[NobleTable, tuple[tuple[Branch, Branch], ...]] = {
    "甲牛": tuple((Branch[d], Branch[n]) for d, n in (
        "丑未", "子申", "亥酉", "亥酉", "丑未", "子申", "丑未", "午寅", "巳卯", "巳卯")),
    "甲羊": tuple((Branch[d], Branch[n]) for d, n in (
        "未丑", "申子", "酉亥", "亥酉", "丑未", "子申", "丑未", "寅午", "卯巳", "巳卯")),
}

# 貴人 standing on 亥子丑寅卯辰 goes 順 (clockwise); on 巳午未申酉戌, 逆.
_CLOCKWISE_GROUND = frozenset(Branch[c] for c in "亥子丑寅卯辰")


def is_daytime(hour: Branch) -> bool:
    """晝 is the hours 卯 through 申; 夜 the hours 酉 through 寅."""
    return Branch.卯 <= hour <= Branch.申


@dataclass(frozen=True, slots=True)
class Generals:
    """Where each 天将 stands. ``noble`` is the 天盤 branch 貴人 rides; ``noble_ground`` the 地盤
    branch under it, which sets the direction."""

    noble: Branch
    noble_ground: Branch
    daytime: bool
    clockwise: bool
    by_ground: tuple[General, ...]  # general standing over each 地盤 branch 子 … 亥
    offset: int

    def on(self, heaven: Branch) -> General:
        """The general riding the 天盤 branch ``heaven``."""
        return self.by_ground[(int(heaven) - self.offset) % 12]  # int: not Branch's own - (a call)

    def over(self, ground: Branch) -> General:
        """The general standing over (臨) the 地盤 branch ``ground``."""
        return self.by_ground[ground]

    def ground_of(self, general: General) -> Branch:
        """The 地盤 branch a general stands over."""
        return BRANCHES[self.by_ground.index(general)]


def place_generals(
    stem: Stem, hour: Branch, plate: Plate, table: NobleTable = "甲牛", daytime: bool | None = None
) -> Generals:
    """Seat 貴人 on its 天盤 branch and lay the other eleven around the plate from there; 晝夜 by the
    hour unless ``daytime`` is given (by the sun, docs/rules.md §10.3)."""
    daytime = is_daytime(hour) if daytime is None else daytime
    noble = NOBLE_TABLES[table][stem][0 if daytime else 1]
    ground = plate.down(noble)
    clockwise = ground in _CLOCKWISE_GROUND
    step = 1 if clockwise else -1
    by_ground = [General.貴人] * 12
    at = int(ground)  # int: not Branch's own + (a call per general)
    for i, general in enumerate(GENERALS):
        by_ground[(at + step * i) % 12] = general
    return Generals(noble, ground, daytime, clockwise, tuple(by_ground), plate.offset)
