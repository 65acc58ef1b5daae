"""Generate tests/data/reference_solar_terms.csv: the 24 solar-term instants, 1900-2100, computed
independently of engine/solar_terms/ so the test suite can check that table against it.

Dev-only tool (the test reads the committed CSV and needs none of this):

    pip install -e ".[gen]"                    # astropy (with pyerfa, numpy)
    python tools/gen_reference_terms.py        # rewrites tests/data/reference_solar_terms.csv

Why it is independent of the engine's table (tools/gen_solar_terms.py: skyfield, the JPL
numerical ephemeris DE423 read from Chebyshev coefficients, skyfield's ΔT and leap seconds):

- Sun: ERFA ``epv00`` (the IAU SOFA library's analytic series for the Earth, a simplified
  VSOP2000 fitted to DE405; good to about 4 km in the Sun-Earth vector over 1900-2100), through
  ``astropy.coordinates.get_sun``, which applies annual aberration with ERFA ``ab``.
- Apparent longitude: astropy's GCRS → ``GeocentricTrueEcliptic(equinox=t)``, the true ecliptic
  and equinox of date (ERFA: IAU 2006 precession, IAU 2000A nutation).
- Time scales, written out here rather than taken from either library: civil UTC from 1972 with
  the leap-second list of IERS Bulletin C (TAI-UTC held at 37 s after 2017-01-01, as the engine's
  table does: leap seconds are to stop by 2035, CGPM 2022 Resolution 4, so future UTC is
  TT - 69.184 s); before 1972, UT1 = TT - ΔT with ΔT from the polynomials of Espenak & Meeus
  (NASA, "Polynomial expressions for Delta T", 2006), which is what GMT/UT of the era tracked.
- Solver: Newton's method on TT from a mean-motion first guess, to 1e-9° (~0.02 ms).

The output holds POSIX seconds (civil time as above) to 0.1 s, one row per year, the 24 terms in
time order: 小寒 (285°) … 冬至 (270°).
"""

from __future__ import annotations

import argparse
import calendar
import sys
import warnings
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

FIRST_YEAR = 1900
LAST_YEAR = 2100
NAMES = (
    "小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "清明", "穀雨", "立夏", "小満", "芒種", "夏至",
    "小暑", "大暑", "立秋", "処暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
)  # fmt: skip
LONGITUDES = tuple((285 + 15 * i) % 360 for i in range(24))
OUTPUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "reference_solar_terms.csv"

UNIX_EPOCH_JD = 2440587.5
TT_MINUS_TAI = 32.184
# IERS Bulletin C: (first UTC day in force, TAI - UTC in seconds), from 1972 on.
LEAP_SECONDS = (
    ((1972, 1), 10), ((1972, 7), 11), ((1973, 1), 12), ((1974, 1), 13), ((1975, 1), 14), ((1976, 1), 15),
    ((1977, 1), 16), ((1978, 1), 17), ((1979, 1), 18), ((1980, 1), 19), ((1981, 7), 20), ((1982, 7), 21),
    ((1983, 7), 22), ((1985, 7), 23), ((1988, 1), 24), ((1990, 1), 25), ((1991, 1), 26), ((1992, 7), 27),
    ((1993, 7), 28), ((1994, 7), 29), ((1996, 1), 30), ((1997, 7), 31), ((1999, 1), 32), ((2006, 1), 33),
    ((2009, 1), 34), ((2012, 7), 35), ((2015, 7), 36), ((2017, 1), 37),
)  # fmt: skip
_LEAPS = tuple((calendar.timegm((y, m, 1, 0, 0, 0)), n) for (y, m), n in LEAP_SECONDS)


def delta_t(year: float) -> float:
    """ΔT = TT - UT1 in seconds for a decimal year 1900-1972 (Espenak & Meeus 2006)."""
    if year < 1900 or year >= 1986:
        raise ValueError(f"ΔT polynomial not set up for {year}")
    if year < 1920:
        t = year - 1900
        return -2.79 + 1.494119 * t - 0.0598939 * t**2 + 0.0061966 * t**3 - 0.000197 * t**4
    if year < 1941:
        t = year - 1920
        return 21.20 + 0.84493 * t - 0.076100 * t**2 + 0.0020936 * t**3
    if year < 1961:
        t = year - 1950
        return 29.07 + 0.407 * t - t**2 / 233 + t**3 / 2547
    t = year - 1975
    return 45.45 + 1.067 * t - t**2 / 260 - t**3 / 718


def civil_seconds(tt_jd: float) -> float:
    """POSIX seconds of a TT Julian date: UTC from 1972 (leap seconds above), UT1 before."""
    tt = (tt_jd - UNIX_EPOCH_JD) * 86400.0
    tai = tt - TT_MINUS_TAI
    if tai - _LEAPS[0][1] < _LEAPS[0][0]:
        return tt - delta_t(2000.0 + (tt_jd - 2451545.0) / 365.25)
    offset = _LEAPS[0][1]
    for start, count in _LEAPS:
        if tai - count >= start:
            offset = count
    return tai - offset


def apparent_longitude(tt_jd: Any) -> Any:
    """Apparent geocentric ecliptic longitude of date of the Sun (degrees) at TT Julian dates."""
    from astropy.coordinates import GeocentricTrueEcliptic, get_sun  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from astropy.time import Time  # type: ignore[import-untyped, import-not-found, unused-ignore]

    whole = np.floor(tt_jd)
    t = Time(whole, tt_jd - whole, format="jd", scale="tt")
    return get_sun(t).transform_to(GeocentricTrueEcliptic(equinox=t)).lon.deg


def term_instants_tt(years: Sequence[int]) -> Any:
    """TT Julian dates of the 24 terms of each year, shape (len(years), 24)."""
    targets = np.tile(np.array(LONGITUDES, dtype=float), len(years))
    # First guess by mean motion from the March equinox of 2000 (JD 2451623.816 TT), within ~2 days;
    # 小寒 and 大寒 (285°, 300°) fall in January, before that year's equinox.
    year = np.repeat(np.array(years, dtype=float), 24)
    past_equinox = np.where(targets >= 285.0, targets - 360.0, targets)
    jd = 2451623.816 + (year - 2000.0) * 365.2421897 + past_equinox / 360.0 * 365.2421897
    rate = 360.0 / 365.2421897  # degrees a day; the true rate differs by < 4 %, so each step gains ~30×
    for _ in range(12):
        error = (apparent_longitude(jd) - targets + 180.0) % 360.0 - 180.0
        jd = jd - error / rate
        if np.max(np.abs(error)) < 1e-9:
            break
    else:
        raise RuntimeError("solar-term solver did not converge")
    return jd.reshape(len(years), 24)


def render(years: Sequence[int], seconds: Sequence[Sequence[float]], versions: str) -> str:
    lines = [
        f"# The 24 solar terms (二十四節気), {years[0]}-{years[-1]}, for tests/test_reference_solar_terms.py.",
        "# GENERATED by tools/gen_reference_terms.py - do not edit.",
        f"# Method: {versions}. Sun from ERFA epv00 (SOFA's analytic VSOP2000-type series), annual",
        "# aberration (ERFA ab), apparent longitude in the true ecliptic and equinox of date (IAU 2006",
        "# precession, IAU 2000A nutation); Newton's method to 1e-9 deg. Independent of engine/solar_terms/",
        "# (skyfield + JPL DE423 numerical ephemeris).",
        "# Time: POSIX seconds, to 0.1 s. Civil UTC from 1972 (IERS Bulletin C leap seconds, TAI-UTC held at",
        "# 37 s after 2017); before 1972 UT1 = TT - dT, dT from Espenak & Meeus (2006) polynomials.",
        "# Columns: year, then the year's 24 terms in time order (longitudes 285, 300, ... 270 deg).",
        "year," + ",".join(NAMES),
    ]
    for year, row in zip(years, seconds, strict=True):
        lines.append(f"{year}," + ",".join(f"{v:.1f}" for v in row))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)

    import astropy  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import erfa  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from astropy.utils import iers  # type: ignore[import-untyped, import-not-found, unused-ignore]

    iers.conf.auto_download = False  # nothing here needs Earth-rotation data; never go online

    years = list(range(FIRST_YEAR, LAST_YEAR + 1))
    with warnings.catch_warnings():
        # ERFA warns when a first guess strays outside 1900-2100 (epv00) and about years past its
        # leap-second list (taiutc, astropy's own UTC bookkeeping); the solution is in TT, unaffected.
        warnings.simplefilter("ignore", erfa.ErfaWarning)
        tt = term_instants_tt(years)
    seconds = [[civil_seconds(float(jd)) for jd in row] for row in tt]
    for year, row in zip(years, seconds, strict=True):
        if not all(a < b for a, b in pairwise(row)):
            raise RuntimeError(f"{year}: terms out of order")
        first, last = (calendar.timegm((year, 1, 1, 0, 0, 0)), calendar.timegm((year + 1, 1, 1, 0, 0, 0)))
        if not (first <= row[0] and row[-1] < last):
            raise RuntimeError(f"{year}: terms are not all inside the year")
    versions = f"astropy {astropy.__version__}, pyerfa {erfa.__version__} (ERFA {erfa.version.erfa_version})"
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(render(years, seconds, versions), encoding="utf-8")
    print(f"wrote {args.output} ({len(years) * 24} instants)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
