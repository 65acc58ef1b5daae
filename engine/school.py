"""The points where schools differ (docs/rules.md "(school option)"), as one immutable value."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

NobleTable = Literal["甲牛", "甲羊"]
DayNight = Literal["hours", "sun"]
HourBy = Literal["clock", "mean", "apparent"]


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
    - ``daynight``: 晝夜 for the 貴人 by the hours 卯–申 (``hours``, default) or by sunrise and sunset at
      the place (``sun``, docs/rules.md §10.3); ``sun`` needs a moment and a place.
    - ``hour_by``: the 時支 and the day change read on the zone's clock (default), on local mean solar
      time or on apparent solar time (真太陽時, docs/rules.md §10.4); the last two need a moment and a place.
    """

    day_changes_at_23: bool = True
    noble_table: NobleTable = "甲牛"
    fuyin_repeat_clash: bool = False
    shehai_depth_first: bool = False
    maoxing_by_day: bool = False
    # Read only by the matter reading (texts/matter_reading.py); the engine's own rules ignore it.
    tengshe_whenever_seen: bool = False
    daynight: DayNight = "hours"
    hour_by: HourBy = "clock"

    def __post_init__(self) -> None:
        if self.noble_table not in ("甲牛", "甲羊"):
            raise ValueError(f"unknown 貴人 table {self.noble_table!r}: give 甲牛 or 甲羊")
        if self.daynight not in ("hours", "sun"):
            raise ValueError(f"unknown 晝夜 rule {self.daynight!r}: give hours or sun")
        if self.hour_by not in ("clock", "mean", "apparent"):
            raise ValueError(f"unknown hour rule {self.hour_by!r}: give clock, mean or apparent")

    @property
    def needs_place(self) -> bool:
        """True when an option reads the sun, so a chart needs a moment and a place (docs/rules.md §10)."""
        return self.daynight != "hours" or self.hour_by != "clock"

    def by_the_clock(self) -> School:
        """This school with the sun's options at their defaults: what a chart cast from the classical
        inputs (no moment, no place) can honour."""
        if not self.needs_place:
            return self
        return replace(self, daynight="hours", hour_by="clock")


DEFAULT_SCHOOL = School()
