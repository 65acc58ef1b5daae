"""Engine benchmark: charts per second, cached and from scratch, beside the PyPI package kinliuren.

    python bench/engine_bench.py [--rounds 5] [--seconds 0.5]
    python bench/engine_bench.py --quick      # one short round, fewer instants: a smoke run, not figures

Workloads, each on one core:

- classical inputs, the 720 charts (60 days × 12 plates, one hour each), given as text, as a
  user or the bot gives them:
  * cached: ``cast_classical`` when the chart is already built — a dictionary look-up, which is
    what the engine does for any chart it has cast before (there are only 8,640 per school);
  * from scratch: the same calls with the engine's chart cache emptied before every pass, so each
    chart is built: plate, four lessons, three transmissions with their trace, generals, steps;
  * kinliuren (optional, ``pip install kinliuren``): ``Liuren(...).result(0)`` on the same 720
    charts; it keeps no cache, so every call is a full computation;
- instants spread over 1900–2100 in several zones (calendar + chart), cached and from scratch.

Measurements alternate: every round runs each contender for ``--seconds``, in an order that
rotates from round to round, so drift in clock speed or cache warmth falls on all of them alike.
Each figure is the median over the rounds (min–max beside it); a ratio is the median of the
per-round ratios. The headline ratio is from scratch against kinliuren: a full computation
against a full computation. The cached ratio is printed too, labelled for what it is.
Not a test: timings depend on the machine, so they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import platform
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from engine import calendar as engine_calendar  # noqa: E402
from engine import chart as engine_chart  # noqa: E402
from engine.chart import cast, cast_classical  # noqa: E402
from engine.symbols import BRANCHES, PILLARS, Branch, Pillar  # noqa: E402

QUICK_TRACED = 120  # charts built under tracemalloc with --quick (a full run traces all 8,640)
ZONES = ("Asia/Tokyo", "Asia/Shanghai", "America/New_York", "Europe/London", "UTC")
STEMS_TEXT = "甲乙丙丁戊己庚辛壬癸"
BRANCHES_TEXT = "子丑寅卯辰巳午未申酉戌亥"
# kinliuren takes a 節気 and derives the 月将 from it: the 中気 that sets each 月将 (docs/rules.md §2),
# in the traditional forms kinliuren spells them with.
KINLIUREN_TERM = dict(
    zip(
        "亥戌酉申未午巳辰卯寅丑子",
        ("雨水", "春分", "穀雨", "小滿", "夏至", "大暑", "處暑", "秋分", "霜降", "小雪", "冬至", "大寒"),
        strict=True,
    )
)

Work = Callable[[], int]  # does some charts, returns how many


def forget_charts() -> None:
    """Empty the engine's caches of built charts and calendar spans, so the next casts start cold."""
    engine_chart.clear_cache()  # the charts and the parts they share
    engine_calendar.clear_cache()  # the pillars and 月将 worked out per solar term


def classical_texts() -> list[tuple[str, str, str]]:
    """The 720 plates as text: (day, 月将, hour), hour 子 … 亥 cycling so every hour is used."""
    inputs = []
    for i, day in enumerate(PILLARS):
        for k in range(12):
            hour = BRANCHES[(i + k) % 12]
            inputs.append((str(day), str(hour + k), str(hour)))
    return inputs


def instants(count: int, seed: int = 7) -> list[tuple[datetime, str]]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 2, tzinfo=UTC)
    span = (datetime(2100, 12, 30, tzinfo=UTC) - start).total_seconds()
    return [(start + timedelta(seconds=rng.random() * span), rng.choice(ZONES)) for _ in range(count)]


def ours_cached(inputs: list[tuple[str, str, str]] | list[tuple[Pillar, Branch, Branch]]) -> Work:
    for day, yj, hour in inputs:  # fill the cache once
        cast_classical(day, yj, hour)

    def work() -> int:
        for day, yj, hour in inputs:
            cast_classical(day, yj, hour)
        return len(inputs)

    return work


def ours_from_scratch(inputs: list[tuple[str, str, str]]) -> Work:
    def work() -> int:
        forget_charts()
        for day, yj, hour in inputs:
            cast_classical(day, yj, hour)
        return len(inputs)

    return work


def instants_work(moments: list[tuple[datetime, str]], cold: bool) -> Work:
    for at, zone in moments:
        cast(at, zone)

    def work() -> int:
        if cold:
            forget_charts()
        for at, zone in moments:
            cast(at, zone)
        return len(moments)

    return work


def kinliuren_work(inputs: list[tuple[str, str, str]]) -> tuple[Work, str] | None:
    """kinliuren on the same charts, a few at a time (it is slow), cycling through all of them."""
    try:
        from kinliuren.kinliuren import Liuren  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return None
    jobs = []
    for day, yj, hour in inputs:
        # kinliuren wants the hour as a 干支: give it the 五鼠遁 stem.
        n = STEMS_TEXT.index(day[0]) % 5 * 2 + BRANCHES_TEXT.index(hour)
        jobs.append((KINLIUREN_TERM[yj], day, STEMS_TEXT[n % 10] + hour))
    position = 0
    chunk = 8

    def work() -> int:
        nonlocal position
        for _ in range(chunk):
            jieqi, day, hour = jobs[position]
            Liuren(jieqi, "正", day, hour).result(0)
            position = (position + 1) % len(jobs)
        return chunk

    return work, metadata.version("kinliuren")


def rate(work: Work, seconds: float) -> float:
    """Run ``work`` until ``seconds`` pass (at least once); charts per second."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


@dataclass(frozen=True, slots=True)
class Figures:
    """Charts per second of each contender, one value per round."""

    rounds: dict[str, list[float]]

    def median(self, name: str) -> float:
        return statistics.median(self.rounds[name])

    def spread(self, name: str) -> str:
        values = self.rounds[name]
        return f"{self.median(name):>10,.0f} charts/s  ({min(values):,.0f}–{max(values):,.0f})"

    def ratio(self, name: str, peer: str) -> float:
        return statistics.median(a / b for a, b in zip(self.rounds[name], self.rounds[peer], strict=True))


def alternate(contenders: dict[str, Work], rounds: int, seconds: float) -> Figures:
    """``rounds`` rounds; each runs every contender once, the order rotating by one each round."""
    names = list(contenders)
    figures: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            figures[name].append(rate(contenders[name], seconds))
    return Figures(figures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/engine_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (the median is reported)")
    parser.add_argument("--seconds", type=float, default=0.5, help="time for each contender in each round")
    parser.add_argument("--quick", action="store_true",
                        help="one round of 0.02 s and 500 instants: checks the script runs (tests/test_bench.py)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.seconds = 1, 0.02
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds more than 0")

    print(
        f"engine benchmark: Python {platform.python_version()} on {platform.machine()}, one core; "
        f"{args.rounds} alternating rounds × {args.seconds:g} s each, medians (min–max over rounds)"
    )

    # The cold build of everything the cache can hold, then once more under tracemalloc (slower) for its size.
    every = [(day, yj, hour) for day in PILLARS for yj in BRANCHES for hour in BRANCHES]
    forget_charts()
    t0 = time.perf_counter()
    for day, yj, hour in every:
        cast_classical(day, yj, hour)
    build = time.perf_counter() - t0
    # The traced build takes three times as long: --quick traces a few charts, so the path still runs.
    sample = every[:QUICK_TRACED] if args.quick else every
    forget_charts()
    tracemalloc.start()
    for day, yj, hour in sample:
        cast_classical(day, yj, hour)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    traced = f"traced peak {peak / 2**20:.2f} MiB" + (f" (of the first {len(sample)}: --quick)" if args.quick else "")
    print(
        f"cold build of all {len(every):,} distinct charts (60 days × 12 月将 × 12 hours): "
        f"{build * 1000:.0f} ms ({build / len(every) * 1e6:.1f} µs each), {traced}"
    )

    inputs = classical_texts()
    values = [(Pillar.parse(d), Branch[y], Branch[h]) for d, y, h in inputs]
    contenders: dict[str, Work] = {
        "cached": ours_cached(inputs),
        "cached, parsed": ours_cached(values),
        "from scratch": ours_from_scratch(inputs),
    }
    peer = kinliuren_work(inputs)
    if peer is not None:
        contenders["kinliuren"] = peer[0]
    figures = alternate(contenders, args.rounds, args.seconds)
    print(f"\nclassical inputs, the same {len(inputs)} charts (60 days × 12 plates) for every contender:")
    print(f"  {'ours, cached (a look-up)':<40}{figures.spread('cached')}   (target ≥ 200,000)")
    print(f"  {'ours, cached, inputs already parsed':<40}{figures.spread('cached, parsed')}")
    print(f"  {'ours, from scratch (every chart built)':<40}{figures.spread('from scratch')}")
    if peer is None:
        print("  kinliuren is not installed (pip install kinliuren): no peer comparison")
    else:
        print(f"  {f'kinliuren {peer[1]} (full computation)':<40}{figures.spread('kinliuren')}")
        print(
            f"  ratio from scratch / kinliuren: {figures.ratio('from scratch', 'kinliuren'):,.0f}×"
            "   (like for like: both compute every chart; target ≥ 100×)"
        )
        print(
            f"  ratio cached / kinliuren:       {figures.ratio('cached', 'kinliuren'):,.0f}×"
            "   (a cache hit against a full computation: not like for like)"
        )

    moments = instants(500 if args.quick else 5_000)
    timed = alternate(
        {"cached": instants_work(moments, cold=False), "from scratch": instants_work(moments, cold=True)},
        args.rounds,
        args.seconds,
    )
    print(f"\ninstants 1900–2100 in {len(ZONES)} zones (calendar + chart), {len(moments):,} per pass:")
    print(f"  {'charts cached':<40}{timed.spread('cached')}   (target ≥ 50,000)")
    print(f"  {'chart cache emptied each pass':<40}{timed.spread('from scratch')}")
    print(f"\npeak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
