"""The points where schools differ (docs/rules.md "(school option)"), as one immutable value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

NobleTable = Literal["甲牛", "甲羊"]


@dataclass(frozen=True, slots=True)
class School:
    """Every switch a caller may flip; the defaults are the ones docs/rules.md fixes.

    - ``day_changes_at_23``: 子初換日 — the day pillar changes at 23:00 (default) or at midnight.
    - ``noble_table``: the 貴人 table, 甲牛 (default) or 甲羊 (§5).
    - ``fuyin_repeat_clash``: in 伏吟, take 末 = 沖(中) when 刑(中) would repeat 初 (§4.1).
    - ``shehai_depth_first``: in 渉害, count the classical depth before the 孟仲 rule (§4.4).
    - ``maoxing_by_day``: name 昴星's sub-forms by the day (剛日 虎視転蓬, 柔日 冬蛇掩目) instead of
      by the general on 初伝 (§7).
    - ``tengshe_whenever_seen``: read 騰蛇's opening (¶95 「但見騰蛇」) as bearing whenever it rides any
      of the 三伝, instead of only as 發用 (default, ¶97 「発用するのを見れば」; docs/rules.md §9.3 R3).
    """

    day_changes_at_23: bool = True
    noble_table: NobleTable = "甲牛"
    fuyin_repeat_clash: bool = False
    shehai_depth_first: bool = False
    maoxing_by_day: bool = False
    # Read only by the matter reading (texts/matter_reading.py); the engine's own rules ignore it.
    tengshe_whenever_seen: bool = False

    def __post_init__(self) -> None:
        if self.noble_table not in ("甲牛", "甲羊"):
            raise ValueError(f"unknown 貴人 table {self.noble_table!r}: give 甲牛 or 甲羊")


DEFAULT_SCHOOL = School()
