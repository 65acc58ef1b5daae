"""What one /cast costs in CPU: cast → read → embeds, beside a bare discord.py reply in the same process.

    python bench/reading_bench.py [--count 3000] [--rounds 5]
    python bench/reading_bench.py --quick     # 100 casts, one round: a smoke run, not figures

Three workloads, each on one core, CPU time (``time.process_time``) per /cast:

- ``cold``: instants spread over 2000–2050 in Asia/Tokyo, each a different chart and moment, with
  every cache emptied before each round: the full cost of a chart the bot has never shown;
- ``same hour``: the casts of one study group within one 時 (the same chart, other minutes): what
  the caches of texts.reading and bot.embeds are for;
- the peer: a bare one-embed ``discord.Embed`` with the chart's name and a fixed text — what
  discord.py itself costs for a reply, with no reading.

Each figure is the median over ``--rounds`` rounds, with the order of the workloads rotating from
round to round; ratios are ours/peer. Not a test: timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

import engine
from bot.core import embeds
from engine import chart as chart_module
from texts import present, reading

ZONE = ZoneInfo("Asia/Tokyo")


def clear_caches() -> None:
    """Forget every chart, reading and written field, so the next cast pays for everything."""
    chart_module._CACHE.clear()
    reading._CACHE.clear()
    embeds._FIELDS.clear()
    embeds._CHART_PIECES.clear()
    present.say.cache_clear()


def ours(moment: datetime) -> int:
    chart = engine.cast(moment)
    return len(embeds.build_embeds(chart, reading.read(chart)))


def peer(moment: datetime) -> int:
    embed = discord.Embed(title=moment.isoformat(), description="大六壬 " * 20, colour=0x8B2E2E)
    embed.add_field(name="三伝", value="子 巳 戌")
    return len([embed])


def per_call(work: Callable[[datetime], int], moments: list[datetime], cold: bool) -> float:
    if cold:
        clear_caches()
    start = time.process_time()
    for moment in moments:
        work(moment)
    return (time.process_time() - start) / len(moments) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000, help="casts per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="100 casts and one round")
    args = parser.parse_args(argv)
    if args.quick:
        args.count, args.rounds = 100, 1
    rng = random.Random(7)
    start = datetime(2000, 1, 1, tzinfo=UTC)
    spread = [
        (start + timedelta(minutes=rng.randrange(50 * 365 * 24 * 60))).astimezone(ZONE) for _ in range(args.count)
    ]
    hour = datetime(2026, 11, 29, 13, 0, tzinfo=ZONE)
    same_hour = [hour + timedelta(seconds=rng.randrange(7200)) for _ in range(args.count)]
    runs: dict[str, list[float]] = {"cold": [], "same hour": [], "peer": []}
    jobs: list[tuple[str, Callable[[], float]]] = [
        ("cold", lambda: per_call(ours, spread, cold=True)),
        ("same hour", lambda: per_call(ours, same_hour, cold=False)),
        ("peer", lambda: per_call(peer, same_hour, cold=False)),
    ]
    ours(hour)  # import-time work (loading the corpus and the words) is not a cast's
    for r in range(args.rounds):
        for name, job in jobs[r % 3 :] + jobs[: r % 3]:
            runs[name].append(job())
    peer_us = statistics.median(runs["peer"])
    print(f"{'workload':<12} {'µs CPU per /cast (median)':>26}  {'min–max':>15}  ours/peer")
    for name, values in runs.items():
        median = statistics.median(values)
        ratio = "" if name == "peer" else f"{median / peer_us:8.1f}×"
        print(f"{name:<12} {median:26.1f}  {min(values):7.1f}–{max(values):<7.1f}  {ratio}")
    print("target (issue 10): cast + read + embeds ≤ 120 µs of CPU for one /cast")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
