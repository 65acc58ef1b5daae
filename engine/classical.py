"""The classical charts: each of the 60 days with its 12 plates, at 午 (a 晝 hour) and 子 (a 夜 hour).

The hour's branch fixes the 晝/夜 貴人; the plate turns by setting 月将 k steps past the hour, so
these 1,440 charts are every arrangement the classical tables list (¶87).

    >>> charts = list(classical_charts())
    >>> len(charts), str(charts[0].day), str(charts[0].yuejiang), str(charts[0].hour)
    (1440, '甲子', '午', '午')
    >>> [str(c.yuejiang) for c in classical_charts(days=(PILLARS[0],), hours=(Branch.子,))][:3]
    ['子', '丑', '寅']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .chart import Chart, cast_classical
from .school import DEFAULT_SCHOOL, School
from .symbols import PILLARS, Branch, Pillar

__all__ = ["DAY_HOUR", "HOURS", "NIGHT_HOUR", "PLATES", "classical_charts", "classical_of", "plate"]

DAY_HOUR = Branch.午  # the hour a 晝 chart is cast at (¶87: 卯–申 are 晝)
NIGHT_HOUR = Branch.子  # the hour a 夜 chart is cast at
HOURS: tuple[Branch, ...] = (DAY_HOUR, NIGHT_HOUR)
PLATES = 12  # 月将 k = 0 … 11 steps past the hour


def classical_charts(
    school: School = DEFAULT_SCHOOL, *, days: Iterable[Pillar] = PILLARS, hours: Iterable[Branch] = HOURS
) -> Iterator[Chart]:
    """The classical charts of ``days`` (all 60 by default) at ``hours``: hour by hour, then day by
    day, each day's 12 plates with 月将 0 … 11 steps past the hour."""
    days = tuple(days)
    for hour in hours:
        for day in days:
            for k in range(PLATES):
                yield cast_classical(day, hour + k, hour, school=school)


def plate(chart: Chart) -> int:
    """How many places the 月将 stands on from the hour (0 = 伏吟, 6 = 反吟)."""
    return (int(chart.yuejiang) - int(chart.hour)) % 12


def classical_of(chart: Chart) -> Chart:
    """The classical chart that shows ``chart``: same day, plate and 晝/夜, at 午 or 子 (its school's
    default: the classical tables are listed under it)."""
    hour = DAY_HOUR if chart.generals.daytime else NIGHT_HOUR
    return cast_classical(chart.day, hour + plate(chart), hour)
