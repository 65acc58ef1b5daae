"""Benchmark: the daily-post scheduler's tick when nothing is due, at 10k / 100k / 1M schedules, on
SQLite and on PostgreSQL, and the longest the event loop was blocked while it ticked.

A tick is exactly what the service's loop runs: ``Delivery.run_due`` — lease the due rows (an index
range, empty here) and read the next due time (an index lookup). The rows are bulk-loaded with
due times spread over the coming day, so none is due. A watcher task on the same loop sleeps 1 ms
at a time and records how late it wakes: that lateness is the longest the loop was blocked.

    python bench/daily_bench.py                  # both backends, 10k 100k 1M
    python bench/daily_bench.py --sizes 10000 --backends sqlite
    python bench/daily_bench.py --sizes 1000 --ticks 5     # a smoke run (tests/test_bench.py), not figures
PostgreSQL is read from $LIUREN_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test);
each size runs in a fresh schema, dropped afterwards. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bot.core.config import DeliveryConfig
from bot.daily.delivery import Delivery
from bot.store import Shards, Store, epoch, open_store

NOW = datetime(2026, 5, 2, 0, 0, tzinfo=UTC)
TICKS = 200
SHARDED = Shards(4, (0, 1))  # a process running shards 0-1 of 4: the query filters by guild too


def rows(count: int) -> Iterator[tuple[int, int, str, str, str, str, int, str]]:
    """Schedules whose next post falls somewhere in the day after NOW (none due at NOW)."""
    rng = random.Random(count)
    base = epoch(NOW)
    since = (NOW - timedelta(days=1)).isoformat()
    for n in range(count):
        due = base + 60 + rng.randrange(86_400)
        yield ((1000 + n % 5000) << 22, 10_000_000 + n, "09:00", "Asia/Tokyo", since, "ja", due, "2026-05-03")


INSERT = (
    "INSERT INTO schedules (guild_id, channel_id, post_time, timezone, since, locale, due_at, due_day) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


async def load_sqlite(path: Path, count: int) -> None:
    store = await open_store(path)
    await store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        conn.executemany(INSERT, rows(count))
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
    finally:
        conn.close()


async def load_postgres(url: str, count: int) -> None:
    import psycopg

    store = await open_store(url)
    await store.close()
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        async with conn.cursor().copy(
            "COPY schedules (guild_id, channel_id, post_time, timezone, since, locale, due_at, due_day) FROM STDIN"
        ) as copy:
            for row in rows(count):
                await copy.write_row(row)
        await conn.execute("ANALYZE schedules")


class Watcher:
    """Sleeps 1 ms at a time on the loop and keeps the worst lateness (the loop was blocked)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._running = True

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running:
            before = loop.time()
            await asyncio.sleep(0.001)
            self.worst = max(self.worst, loop.time() - before - 0.001)

    def stop(self) -> None:
        self._running = False


async def measure(store: Store, shards: Shards | None = None, ticks: int = TICKS) -> tuple[float, float, float]:
    """Median and worst tick (ms), and the worst event-loop block (ms) during the ticks."""
    client = discord.Client(intents=discord.Intents.none())
    delivery = Delivery(client, store, lambda: NOW, DeliveryConfig(), shards)
    for _ in range(5):  # warm caches and the connection pool
        await delivery.run_due(NOW)
    watcher = Watcher()
    watching = asyncio.create_task(watcher.run())
    await asyncio.sleep(0.01)
    times = []
    for _ in range(ticks):
        start = time.perf_counter()
        upcoming = await delivery.run_due(NOW)
        times.append(time.perf_counter() - start)
        assert upcoming is not None and upcoming > NOW  # nothing was due
    watcher.stop()
    await watching
    await client.close()
    return statistics.median(times) * 1000, max(times) * 1000, watcher.worst * 1000


Result = tuple[float, tuple[float, float, float], tuple[float, float, float]]


async def bench_sqlite(count: int, ticks: int) -> Result:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        start = time.perf_counter()
        await load_sqlite(path, count)
        loaded = time.perf_counter() - start
        store = await open_store(path)
        try:
            return loaded, await measure(store, ticks=ticks), await measure(store, SHARDED, ticks)
        finally:
            await store.close()


async def bench_postgres(dsn: str, count: int, ticks: int) -> Result:
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(f"CREATE SCHEMA {schema}")
    url = f"{dsn}{'&' if '?' in dsn else '?'}options={quote(f'-csearch_path={schema}')}"
    try:
        start = time.perf_counter()
        await load_postgres(url, count)
        loaded = time.perf_counter() - start
        store = await open_store(url)
        try:
            return loaded, await measure(store, ticks=ticks), await measure(store, SHARDED, ticks)
        finally:
            await store.close()
    finally:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--backends", nargs="+", choices=["sqlite", "postgres"], default=["sqlite", "postgres"])
    parser.add_argument("--ticks", type=int, default=TICKS, help=f"ticks timed per row (default {TICKS})")
    args = parser.parse_args()
    if args.ticks < 1:
        parser.error("--ticks must be at least 1")
    dsn = os.environ.get("LIUREN_TEST_POSTGRES") or "postgresql://postgres@127.0.0.1:5432/test"
    print(f"tick = Delivery.run_due with nothing due, {args.ticks} ticks per row; times in ms;")
    print("'all' = one process for every guild, 'shards' = a process running shards 0-1 of 4")
    print(f"{'backend':<10} {'schedules':>10} {'load s':>7} {'':>3}{'median':>8} {'worst':>8} {'loop block':>11}")
    for backend in args.backends:
        for count in args.sizes:
            if backend == "sqlite":
                loaded, whole, sharded = await bench_sqlite(count, args.ticks)
            else:
                loaded, whole, sharded = await bench_postgres(dsn, count, args.ticks)
            for label, (median, worst, block) in (("all", whole), ("shards", sharded)):
                first = f"{backend:<10} {count:>10,} {loaded:>7.1f}" if label == "all" else " " * 29
                print(f"{first} {label:>6} {median:>8.3f} {worst:>8.3f} {block:>11.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
