"""How often each docs/rules.md §7 pattern occurs over the 720 classical charts, by day and by night.

    python bench/pattern_counts.py            # the counts, and the cost of detect()
    python bench/pattern_counts.py --quick    # the same over one year of instants, one timing round (a smoke run)

Each of the 60 days × 12 plate offsets is cast twice with the same offset: at hour 午 (晝) and at
hour 子 (夜), so only the 貴人 (and the generals after it) differ. Classical charts carry no
moment, so patterns needing 太歳/月建/天馬/旺相 or 行年 may be undecided; those are counted in the
"?" columns. A last column counts over charts cast from instants (every 7 h 13 min over
2020–2025, Asia/Tokyo), where the moment decides them. Also prints the cost of ``detect()``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from datetime import datetime, timedelta

from engine import Chart, cast, classical
from engine.facts import facts
from engine.patterns import PATTERN_NAMES, classify, detect
from engine.symbols import Branch
from engine.terms import PatternName


def classical_charts(hour: Branch) -> list[Chart]:
    """All 720 charts with the plates set on ``hour``: offset k puts 月将 hour+k over it."""
    return list(classical.classical_charts(hours=(hour,)))


def instant_charts(years: int = 6) -> list[Chart]:
    """A chart every 7 h 13 min from 2020 on, over ``years`` years, in Asia/Tokyo."""
    start, step = datetime(2020, 1, 1), timedelta(hours=7, minutes=13)
    return [cast(start + i * step, "Asia/Tokyo") for i in range(int(years * 365.25 * 24 / 7.2))]


def count(charts: list[Chart]) -> tuple[Counter[PatternName], Counter[PatternName]]:
    held: Counter[PatternName] = Counter()
    undecided: Counter[PatternName] = Counter()
    for chart in charts:
        result = classify(chart)
        held.update(p.name for p in result.held)
        undecided.update(u.name for u in result.undecided)
    return held, undecided


def cost_us(charts: list[Chart], rounds: int = 5) -> tuple[float, float]:
    """µs per detect() call: with facts derived inside, and with facts given."""
    best_all = best_given = float("inf")
    derived = [facts(c) for c in charts]
    for _ in range(rounds):
        t0 = time.perf_counter()
        for chart in charts:
            detect(chart)
        t1 = time.perf_counter()
        for chart, f in zip(charts, derived, strict=True):
            detect(chart, f)
        t2 = time.perf_counter()
        best_all = min(best_all, (t1 - t0) / len(charts) * 1e6)
        best_given = min(best_given, (t2 - t1) / len(charts) * 1e6)
    return best_all, best_given


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/pattern_counts.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one year of instants and one timing round")
    args = parser.parse_args(argv)
    day, night = classical_charts(Branch.午), classical_charts(Branch.子)
    moments = instant_charts(1 if args.quick else 6)
    (day_held, day_unknown), (night_held, night_unknown) = count(day), count(night)
    moment_held, moment_unknown = count(moments)
    print(f"課体        晝/720    ?  夜/720    ?  instants/{len(moments)} (? undecided)")
    for name in PATTERN_NAMES:
        pad = " " * (10 - 2 * len(str(name)))  # CJK characters take two columns
        print(
            f"{name}{pad}{day_held[name]:7d} {day_unknown[name]:4d} {night_held[name]:7d} {night_unknown[name]:4d}"
            f"  {moment_held[name]:7d}" + (f" ?{moment_unknown[name]}" if moment_unknown[name] else "")
        )
    never = [n for n in PATTERN_NAMES if not (day_held[n] or night_held[n] or moment_held[n])]
    print("never held:", "、".join(map(str, never)) if never else "none")
    with_facts, given = cost_us(day + night, rounds=1 if args.quick else 5)
    print(f"detect(): {with_facts:.1f} µs per chart (facts derived inside), {given:.1f} µs with facts given")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
