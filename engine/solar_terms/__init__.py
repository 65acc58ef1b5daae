"""Instants of the 24 solar terms (二十四節気), 1899-2101. GENERATED — do not edit.

Made by tools/gen_solar_terms.py with skyfield and the JPL ephemeris DE423: the moment the
Sun's apparent geocentric ecliptic longitude of date (with aberration and nutation) reaches
each multiple of 15°. Values are POSIX seconds (UTC from 1972, UT1 before), rounded to the
second. ``INSTANTS`` holds 24 per year, in time order; within each year the terms are
小寒 大寒 立春 雨水 驚蟄 春分 清明 穀雨 立夏 小満 芒種 夏至
小暑 大暑 立秋 処暑 白露 秋分 寒露 霜降 立冬 小雪 大雪 冬至
(longitudes 285°, 300°, … 270°), so even positions are 節 and odd ones are 中気.
The rows are kept one module a century and joined here.
"""

from .years_1899_1999 import INSTANTS as _years_1899_1999
from .years_2000_2101 import INSTANTS as _years_2000_2101

__all__ = ["FIRST_YEAR", "INSTANTS", "LAST_YEAR"]

FIRST_YEAR = 1899
LAST_YEAR = 2101
INSTANTS: tuple[int, ...] = _years_1899_1999 + _years_2000_2101
