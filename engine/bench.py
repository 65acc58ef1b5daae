"""``python -m engine.bench``: charts per second and peak memory, printed as figures.

(a) from the classical inputs, over all 720 (day × plate) charts and the 12 hours;
(b) from instants spread over 1900–2100 in several zones (calendar + chart);
and, when the PyPI package ``kinliuren`` is installed, the same classical work done by it in the
same run, with the ratio. Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from .chart import _CACHE, cast, cast_classical
from .symbols import BRANCHES, PILLARS, Branch, Pillar

ZONES = ("Asia/Tokyo", "Asia/Shanghai", "America/New_York", "Europe/London", "UTC")


def rate(work: Callable[[], int], seconds: float) -> tuple[float, int]:
    """Run ``work`` (returns how many charts it cast) until ``seconds`` pass; charts per second."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done


def classical_inputs() -> list[tuple[Pillar, Branch, Branch]]:
    return [(day, BRANCHES[(h + k) % 12], BRANCHES[h]) for day in PILLARS for k in range(12) for h in range(12)]


def instants(count: int, seed: int = 7) -> list[tuple[datetime, str]]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 2, tzinfo=UTC)
    span = (datetime(2100, 12, 30, tzinfo=UTC) - start).total_seconds()
    return [(start + timedelta(seconds=rng.random() * span), rng.choice(ZONES)) for _ in range(count)]


def kinliuren_work(inputs: list[tuple[str, str, str]]) -> Callable[[], int] | None:
    try:
        from kinliuren.kinliuren import Liuren  # type: ignore[import-untyped]
    except ImportError:
        return None
    # kinliuren takes a 節気 and derives the 月将 from it; pick the 中気 giving each 月将.
    term = dict(zip("亥戌酉申未午巳辰卯寅丑子",
                    ("雨水", "春分", "穀雨", "小滿", "夏至", "大暑", "處暑", "秋分", "霜降", "小雪", "冬至", "大寒"),
                    strict=True))
    # kinliuren wants the hour as a 干支: give it the 五鼠遁 stem.
    jobs = []
    for day, yj, hour in inputs:
        n = "甲乙丙丁戊己庚辛壬癸".index(day[0]) % 5 * 2 + "子丑寅卯辰巳午未申酉戌亥".index(hour)
        jobs.append((term[yj], day, "甲乙丙丁戊己庚辛壬癸"[n % 10] + hour))

    def work() -> int:
        for jieqi, day, hour in jobs:
            Liuren(jieqi, "正", day, hour).result(0)
        return len(jobs)

    return work


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench")
    parser.add_argument("--seconds", type=float, default=2.0, help="time for each measurement")
    args = parser.parse_args(argv)

    inputs = classical_inputs()
    t0 = time.perf_counter()
    for day, yj, hour in inputs:
        cast_classical(day, yj, hour)
    build = time.perf_counter() - t0
    _CACHE.clear()  # build again under tracemalloc, which slows it, to see what the cache holds
    tracemalloc.start()
    for day, yj, hour in inputs:
        cast_classical(day, yj, hour)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"cold build of all {len(_CACHE)} distinct charts (720 plates × 12 hours): "
          f"{build * 1000:.0f} ms ({build / len(_CACHE) * 1e6:.0f} µs each), traced peak {peak / 2**20:.1f} MiB")

    def classical() -> int:
        for day, yj, hour in inputs:
            cast_classical(day, yj, hour)
        return len(inputs)

    a, _ = rate(classical, args.seconds)
    print(f"(a) classical inputs: {a:,.0f} charts/s   (target ≥ 200,000)")

    moments = instants(20_000)

    def timed() -> int:
        for at, zone in moments:
            cast(at, zone)
        return len(moments)

    b, _ = rate(timed, args.seconds)
    print(f"(b) instants 1900–2100 in {len(ZONES)} zones: {b:,.0f} charts/s   (target ≥ 50,000)")
    print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")

    sample = [(str(d), str(y), str(h)) for d, y, h in inputs[::12]]  # the 720 plates, one hour each
    peer = kinliuren_work(sample)
    if peer is None:
        print("kinliuren is not installed (pip install kinliuren) — no peer comparison")
        return 0
    k, n = rate(peer, args.seconds)
    print(f"kinliuren, same 720 classical charts: {k:,.0f} charts/s ({n} cast)")
    print(f"ratio (a) / kinliuren: {a / k:,.0f}×   (target ≥ 100×)")
    print(f"ratio (b) / kinliuren: {b / k:,.0f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
