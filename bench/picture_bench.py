"""How fast the chart picture is drawn, beside the text-only path, and what it costs in memory.

    python bench/picture_bench.py                 # the whole run (10,000 distinct casts: ~2–3 minutes)
    python bench/picture_bench.py --casts 1000    # a quicker memory run
    python bench/picture_bench.py --quick         # 2 charts, one fresh process: a smoke run, not figures

Prints, on one core:
  * first picture in a fresh process (fonts loaded, nothing cached), excluding the imports;
  * a chart never drawn before, with the text caches warm: a classical chart (no moment), and a new
    時 as the bot has it drawn (a cast moment: its date, pillars, 中気 and month's facts; drawn by
    ``paint``, as the drawing process does, with its alt text): median, p95;
  * a chart already drawn (the finished PNG comes from the cache);
  * the text ring (texts.render.render_text) for the same charts, for comparison;
  * resident memory after rendering N distinct casts (each an instant an hour apart).
Targets: ≤ 20 ms for a new chart, ≤ 2 ms for one already drawn, < 120 MB resident.
CPU is this thread's processor time (what one core spends, whatever else the machine runs); wall
is the clock, which on a busy machine also counts the time other processes held the core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from io import BytesIO
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import cast, cast_classical  # noqa: E402
from engine.chart import Chart  # noqa: E402
from engine.symbols import BRANCHES, PILLARS  # noqa: E402
from texts.picture import draw as picture  # noqa: E402
from texts.picture.draw import render_png  # noqa: E402
from texts.render import render_text  # noqa: E402

_FIRST = """
import time
from engine import cast_classical
from texts.picture.draw import render_png, warm
first, second = cast_classical("甲子", "亥", "午"), cast_classical("乙丑", "寅", "申")
t = time.thread_time()
render_png(first)
cold = (time.thread_time() - t) * 1000
t = time.thread_time()
warm()
warmed = (time.thread_time() - t) * 1000
t = time.thread_time()
render_png(second)
print(cold, warmed, (time.thread_time() - t) * 1000)
"""


def rss_mib() -> float:
    """Resident memory now (Linux /proc), in MiB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def timed(fn: Callable[[Chart], object], charts: list[Chart]) -> tuple[list[float], list[float]]:
    """Per chart: wall-clock ms and CPU ms of this thread (the CPU figure ignores other processes)."""
    wall, cpu = [], []
    for chart in charts:
        w, c = time.perf_counter(), time.thread_time()
        fn(chart)
        cpu.append((time.thread_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return wall, cpu


def summary(label: str, measured: tuple[list[float], list[float]]) -> None:
    wall, cpu = sorted(measured[0]), sorted(measured[1])
    print(f"  {label:<38} CPU median {statistics.median(cpu):7.3f} ms  p95 {cpu[int(len(cpu) * 0.95)]:7.3f} ms"
          f" | wall median {statistics.median(wall):7.3f} ms  p95 {wall[int(len(wall) * 0.95)]:7.3f} ms"
          f"  (n={len(wall)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--casts", type=int, default=10_000, help="distinct casts for the memory run")
    parser.add_argument("--sample", type=int, default=300, help="charts timed for each speed figure")
    parser.add_argument("--quick", action="store_true", help="2 casts, 2 charts timed, one fresh process")
    args = parser.parse_args(argv)
    if args.quick:
        args.casts = args.sample = 2
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core: the figures are per core

    runs = [[float(x) for x in subprocess.run([sys.executable, "-c", _FIRST], cwd=ROOT, capture_output=True,
                                              text=True, check=True).stdout.split()]
            for _ in range(1 if args.quick else 3)]
    cold, warmed, after = (min(run[i] for run in runs) for i in range(3))
    print("chart picture (texts/picture/), one core")
    print(f"  first picture in a fresh process (CPU)     {cold:8.1f} ms "
          f"(best of {len(runs)}: loads the fonts and words)")
    print(f"  warm() at start-up (CPU)                   {warmed:8.1f} ms, then a new chart {after:.1f} ms")

    # Distinct charts (day, 月将 and hour all vary; distinct for up to 720 of them).
    charts = [cast_classical(PILLARS[i % 60], BRANCHES[(i // 60) % 12], BRANCHES[(i * 7) % 12])
              for i in range(min(args.sample, 720))]
    picture.warm(("ja", "en"))  # what the bot does at start-up
    summary("new classical chart, dark", timed(render_png, charts))
    # A new 時 as the bot's drawing process gets it: a cast moment, two hours on from the last.
    hours = [cast(datetime(2027, 3, 1, 0, 20) + timedelta(hours=2 * i), "Asia/Tokyo") for i in range(2 * args.sample)]
    for chart in hours[: args.sample]:  # the texts of a year's dates and pillars, as a running bot has them
        picture.paint(chart)
    summary("new 時 with its moment, dark (paint)", timed(picture.paint, hours[args.sample:]))
    summary("same charts again (PNG cached)", timed(render_png, charts[-picture.CACHE_SIZE:]))
    summary("new chart, light, English", timed(lambda c: render_png(c, theme="light", lang="en"), charts))
    summary("text ring render_text (same charts)", timed(lambda c: render_text(c), charts))
    sizes = [len(render_png(c)) for c in charts[:20]]
    width, height = Image.open(BytesIO(render_png(charts[0]))).size
    print(f"  PNG size {statistics.mean(sizes) / 1024:42.1f} KiB ({width}×{height} px)")

    start_rss = rss_mib()
    at = datetime(2026, 1, 1, 0, 30)
    t = time.perf_counter()
    for i in range(args.casts):
        render_png(cast(at + timedelta(hours=i), "Asia/Tokyo"))
    elapsed = time.perf_counter() - t
    print(f"memory: {args.casts:,} distinct casts rendered in {elapsed:.1f} s "
          f"({elapsed / args.casts * 1000:.2f} ms each, cast included)")
    print(f"  resident {rss_mib():.1f} MiB (was {start_rss:.1f} MiB before them; the cache holds "
          f"{len(picture._CACHE)} PNGs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
