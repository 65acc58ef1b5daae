"""Generate engine/solar_terms/: the instants of the 24 solar terms, 1899-2101.

Dev-only tool (not a runtime dependency of the engine):

    pip install skyfield de423
    python tools/gen_solar_terms.py            # rewrites engine/solar_terms/
    python tools/gen_solar_terms.py --check    # compares with DE421 (pip install skyfield-data)

What is computed: the instant at which the Sun's apparent geocentric ecliptic longitude of date
(skyfield ``earth.at(t).observe(sun).apparent().frame_latlon(ecliptic_frame)``: light time,
deflection, annual aberration, precession and IAU 2000A nutation) equals 285°, 300°, … 270°, for
every Gregorian year 1899-2101, solved to about a millisecond and rounded to the second.

Ephemeris: JPL DE423 from the PyPI package ``de423`` (Folkner 2010, covers 1799-12-16 to
2200-02-02). DE421 (the one in ``skyfield-data``) stops at 2053-10-09, so it cannot reach 2100;
DE422/DE406 would, but are ten times larger. ``de423`` ships the old jplephem 1.x layout (one
``.npy`` array of Chebyshev coefficients per body, not a ``.bsp``), so this script wraps it in a
small skyfield ``VectorFunction``; ``--check`` recomputes with the independent DE421 ``.bsp``
that skyfield reads natively, which validates both the wrapper and the table for 1900-2053.

Time scale of the table (POSIX seconds, i.e. civil UTC without leap seconds):
- from 1972 on, UTC proper: TT - 32.184 s - (TAI-UTC) from skyfield's built-in leap-second
  table. After the last leap second the offset is held (leap seconds are to stop by 2035, CGPM
  2022 Resolution 4), so future rows need no ΔT prediction;
- before 1972 there was no UTC as we know it (skyfield would apply a flat TAI-UTC = 10 s, off
  by up to 44 s in 1900), so civil time there is UT1 = TT - ΔT with skyfield's built-in ΔT
  (IERS and Morrison-Stephenson-Hohenkerk 2020), which is what GMT/UT of the era tracked.
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from skyfield.api import Timescale, load  # type: ignore[import-untyped]
from skyfield.framelib import ecliptic_frame  # type: ignore[import-untyped]
from skyfield.vectorlib import VectorFunction  # type: ignore[import-untyped]

FIRST_YEAR = 1899
LAST_YEAR = 2101
# Terms in a Gregorian year, in time order: 小寒 285° first, 冬至 270° last.
LONGITUDES = tuple((285 + 15 * i) % 360 for i in range(24))
AU_KM = 149597870.700
UNIX_EPOCH_JD = 2440587.5
UTC_FROM = datetime(1972, 1, 1, tzinfo=UTC).timestamp()
# The table, one module a century (a module of all 203 years would run past 400 lines), joined by
# the package's __init__.py.
CENTURIES = ((1899, 1999), (2000, 2101))
OUTPUT = Path(__file__).resolve().parent.parent / "engine" / "solar_terms"


class _OldJplSeries(VectorFunction):  # type: ignore[misc]
    """One body of a jplephem-1.x ephemeris package as a skyfield vector (km → au)."""

    def __init__(
        self, coefficients: Any, start_jd: float, end_jd: float, center: int, target: int, scale: float
    ) -> None:
        self.coefficients = coefficients  # (records, 3, n) Chebyshev coefficients in km
        self.start_jd = start_jd
        self.days = (end_jd - start_jd) / coefficients.shape[0]
        self.center = center
        self.target = target
        self.scale = scale / AU_KM

    def _at(self, t: Any) -> tuple[Any, Any, None, None]:
        whole = np.atleast_1d(t.whole) - self.start_jd
        offset = whole + np.atleast_1d(t.tdb_fraction)
        index = np.floor(offset / self.days).astype(int)
        index = np.clip(index, 0, self.coefficients.shape[0] - 1)
        x = 2.0 * (offset - index * self.days) / self.days - 1.0
        coefficients = self.coefficients[index]  # (m, 3, n)
        n = coefficients.shape[2]
        cheb = np.empty((n, x.size))
        dcheb = np.empty((n, x.size))
        cheb[0], cheb[1] = 1.0, x
        dcheb[0], dcheb[1] = 0.0, 1.0
        for k in range(2, n):
            cheb[k] = 2.0 * x * cheb[k - 1] - cheb[k - 2]
            dcheb[k] = 2.0 * x * dcheb[k - 1] - dcheb[k - 2] + 2.0 * cheb[k - 1]
        position = np.einsum("mak,km->am", coefficients, cheb) * self.scale
        velocity = np.einsum("mak,km->am", coefficients, dcheb) * (2.0 / self.days) * self.scale
        if np.ndim(t.whole) == 0:
            position, velocity = position[:, 0], velocity[:, 0]
        return position, velocity, None, None


class OldJplEphemeris:
    """Just enough of skyfield's ``SpiceKernel`` (``[code]``, ``in``) for Sun, Earth, Jupiter, Saturn."""

    def __init__(self, module: Any) -> None:
        folder = Path(module.__file__).parent
        constants = {k.decode("ascii"): float(v) for k, v in np.load(folder / "constants.npy")}
        start, end = constants["jalpha"], constants["jomega"]
        emrat = constants["EMRAT"]
        self.name = module.__name__.upper()

        def series(body: str, center: int, target: int, scale: float = 1.0) -> _OldJplSeries:
            vf = _OldJplSeries(np.load(folder / f"jpl-{body}.npy"), start, end, center, target, scale)
            vf.ephemeris = self
            return vf

        # DE "earthmoon" is the Earth-Moon barycentre, "moon" is geocentric.
        earth = series("earthmoon", 0, 3) + series("moon", 3, 399, -1.0 / (1.0 + emrat))
        earth.ephemeris = self
        self.bodies: dict[int, Any] = {
            10: series("sun", 0, 10),
            399: earth,
            5: series("jupiter", 0, 5),
            6: series("saturn", 0, 6),
        }

    def __getitem__(self, code: int) -> Any:
        return self.bodies[code]

    def __contains__(self, code: object) -> bool:
        return code in self.bodies


def apparent_longitude(eph: Any, t: Any) -> Any:
    """Apparent geocentric ecliptic longitude of date of the Sun, degrees in [0, 360)."""
    _, lon, _ = eph[399].at(t).observe(eph[10]).apparent().frame_latlon(ecliptic_frame)
    return lon.degrees


def term_instants_tt(eph: Any, ts: Timescale, years: Sequence[int]) -> Any:
    """TT Julian dates of all 24 terms of each year, shape (len(years), 24)."""
    targets = np.tile(np.array(LONGITUDES, dtype=float), len(years))
    # Mean-motion first guess (within ~2 days), then Newton with the mean rate: converges
    # by a factor of ~30 each step, so 8 steps reach far below a millisecond.
    equinox = np.repeat([ts.utc(y, 3, 20, 12).tt for y in years], 24)
    # Degrees past the March equinox; 小寒 and 大寒 (285°, 300°) come before it, in January.
    past_equinox = np.where(targets >= 285.0, targets - 360.0, targets)
    jd = equinox + past_equinox / 360.0 * 365.2422
    rate = 360.0 / 365.2422
    for _ in range(12):
        lon = apparent_longitude(eph, ts.tt_jd(jd))
        error = (lon - targets + 180.0) % 360.0 - 180.0
        jd = jd - error / rate
        if np.max(np.abs(error)) < 1e-9:
            break
    else:
        raise RuntimeError("solar-term solver did not converge")
    return jd.reshape(len(years), 24)


def civil_seconds(ts: Timescale, tt_jd: Any) -> Any:
    """POSIX seconds of TT instants: UTC from 1972, UT1 (via ΔT) before."""
    shape = np.shape(tt_jd)
    t = ts.tt_jd(np.ravel(tt_jd))
    ut1 = (t.ut1 - UNIX_EPOCH_JD) * 86400.0
    utc = np.array([d.timestamp() for d in t.utc_datetime()])
    return np.where(ut1 < UTC_FROM, ut1, utc).reshape(shape)


def compute(eph: Any, years: Sequence[int]) -> Any:
    ts = load.timescale(builtin=True)
    return civil_seconds(ts, term_instants_tt(eph, ts, years))


def century_module(first: int, last: int) -> str:
    """The name of the module holding the years ``first``-``last``."""
    return f"years_{first}_{last}"


def render(seconds: Any) -> dict[str, str]:
    """The package's files by name: ``__init__.py`` and one module a century of ``seconds`` rows."""
    parts = [century_module(first, last) for first, last in CENTURIES]
    files = {
        "__init__.py": "\n".join([
            '"""Instants of the 24 solar terms (二十四節気), 1899-2101. GENERATED — do not edit.',
            "",
            "Made by tools/gen_solar_terms.py with skyfield and the JPL ephemeris DE423: the moment the",
            "Sun's apparent geocentric ecliptic longitude of date (with aberration and nutation) reaches",
            "each multiple of 15°. Values are POSIX seconds (UTC from 1972, UT1 before), rounded to the",
            "second. ``INSTANTS`` holds 24 per year, in time order; within each year the terms are",
            "小寒 大寒 立春 雨水 驚蟄 春分 清明 穀雨 立夏 小満 芒種 夏至",
            "小暑 大暑 立秋 処暑 白露 秋分 寒露 霜降 立冬 小雪 大雪 冬至",
            "(longitudes 285°, 300°, … 270°), so even positions are 節 and odd ones are 中気.",
            "The rows are kept one module a century and joined here.",
            '"""',
            "",
            *(f"from .{part} import INSTANTS as _{part}" for part in parts),
            "",
            '__all__ = ["FIRST_YEAR", "INSTANTS", "LAST_YEAR"]',
            "",
            f"FIRST_YEAR = {FIRST_YEAR}",
            f"LAST_YEAR = {LAST_YEAR}",
            "INSTANTS: tuple[int, ...] = " + " + ".join(f"_{part}" for part in parts),
        ]) + "\n",
    }
    rows = dict(zip(range(FIRST_YEAR, LAST_YEAR + 1), seconds, strict=True))
    for (first, last), part in zip(CENTURIES, parts, strict=True):
        lines = [
            f'"""Solar-term instants of {first}-{last}, 24 a year (see engine.solar_terms). '
            'GENERATED — do not edit."""',
            "",
            "# fmt: off",
            "INSTANTS: tuple[int, ...] = (",
        ]
        for year in range(first, last + 1):
            values = [math.floor(v + 0.5) for v in rows[year]]
            for i in range(0, 24, 8):
                line = "    " + " ".join(f"{v}," for v in values[i : i + 8])
                lines.append(line + f"  # {year}" if i == 0 else line)
        lines += [")", "# fmt: on"]
        files[f"{part}.py"] = "\n".join(lines) + "\n"
    return files


def check_against_de421(table: Sequence[int]) -> None:
    """Recompute 1900-2052 with DE421 as skyfield loads it natively; print the largest gap."""
    from skyfield.api import Loader
    from skyfield_data import get_skyfield_data_path  # type: ignore[import-untyped]

    with warnings.catch_warnings():  # skyfield-data warns that its bundled IERS file aged
        warnings.simplefilter("ignore", RuntimeWarning)
        planets = Loader(get_skyfield_data_path())("de421.bsp")
    years = list(range(1900, 2053))
    seconds = compute(planets, years)
    worst = 0.0
    for y, row in zip(years, seconds, strict=True):
        base = (y - FIRST_YEAR) * 24
        for j, value in enumerate(row):
            worst = max(worst, abs(value - table[base + j]))
    print(f"DE421 vs table (DE423, rounded), 1900-2052: max |diff| = {worst:.3f} s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare the written table with DE421")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="the package folder to write")
    args = parser.parse_args(argv)
    if args.check:
        from engine.solar_terms import INSTANTS

        check_against_de421(INSTANTS)
        return 0

    import de423  # type: ignore[import-untyped, import-not-found, unused-ignore]

    years = list(range(FIRST_YEAR, LAST_YEAR + 1))
    seconds = compute(OldJplEphemeris(de423), years)
    for year, row in zip(years, seconds, strict=True):
        first = datetime.fromtimestamp(float(row[0]), UTC)
        last = datetime.fromtimestamp(float(row[-1]), UTC)
        if first.year != year or last.year != year or not np.all(np.diff(row) > 0):
            raise RuntimeError(f"{year}: terms are not all inside the year in order")
    args.output.mkdir(exist_ok=True)
    for name, text in render(seconds).items():
        (args.output / name).write_text(text, encoding="utf-8")
    print(f"wrote {args.output}/ ({len(years) * 24} instants)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
