"""Benchmark: how fast the bot answers slash commands, and how much memory it holds.

Runs the real bot (``python -m bot``, a separate process) against the local Discord stand-in
(tests/discord_standin.py) and sends it INTERACTION_CREATE events:

- latency: N interactions one after another; time from the event sent to the callback received
  (median, p99, max);
- throughput: N interactions with C in flight at once; answered interactions per second;
- memory: the bot process's VmRSS (from /proc/<pid>/status) after start and after the runs.

Targets (issue 5): p99 under 50 ms, RSS under 100 MB. Usage:
    python bench/bot_bench.py [--count 500] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.discord_standin import DiscordStandIn  # noqa: E402

P99_TARGET_MS = 50.0
RSS_TARGET_MB = 100.0

# A realistic mix: mostly /cast, some study and lookup commands.
MIX: tuple[tuple[str, dict[str, Any]], ...] = (
    ("cast", {"when": "now"}),
    ("cast", {"when": "2026-11-29 14:00", "tz": "America/New_York"}),
    ("chart", {"day": "甲子", "yuejiang": "亥", "hour": "午"}),
    ("cast", {"when": "11/29 9:30", "question": "転職"}),
    ("lookup", {"term": "元首"}),
    ("cast", {"when": "bogus"}),
)


def rss_mb(pid: int) -> float:
    """Resident set size of a process in MB, from /proc (no psutil)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def one(standin: DiscordStandIn, i: int) -> float:
    name, options = MIX[i % len(MIX)]
    callback = await standin.slash(name, options, timeout=10.0)
    if callback.type != 4:
        raise RuntimeError(f"/{name} answered with callback type {callback.type}")
    return callback.elapsed


async def run(count: int, concurrency: int) -> int:
    standin = DiscordStandIn()
    await standin.start()
    workdir = tempfile.mkdtemp(prefix="liuren-bench-")
    env = {**os.environ, **standin.env(), "DISCORD_TOKEN": standin.token,
           "LIUREN_DB": str(Path(workdir) / "bench.sqlite3"), "LIUREN_TZ": "Asia/Tokyo"}
    env.pop("DISCORD_GUILD_ID", None)
    log = open(Path(workdir) / "bot.log", "w")  # noqa: SIM115 - closed below
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        await standin.wait_connected(timeout=30.0)
        connect_s = time.perf_counter() - started
        await asyncio.sleep(0.5)
        for i in range(20):  # warm up: first-use imports, caches
            await one(standin, i)
        rss_start = rss_mb(process.pid)

        latencies = [await one(standin, i) for i in range(count)]

        in_flight = asyncio.Semaphore(concurrency)

        async def bounded(i: int) -> float:
            async with in_flight:
                return await one(standin, i)

        t0 = time.perf_counter()
        await asyncio.gather(*(bounded(i) for i in range(count)))
        throughput = count / (time.perf_counter() - t0)
        rss_end = rss_mb(process.pid)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        await standin.stop()

    ms = [x * 1000 for x in latencies]
    p99 = percentile(ms, 0.99)
    print(f"bot start → gateway connected: {connect_s:.2f} s")
    print(f"latency over {count} sequential interactions (event sent → callback received):")
    print(f"  median {statistics.median(ms):.2f} ms   p99 {p99:.2f} ms   max {max(ms):.2f} ms"
          f"   (target p99 < {P99_TARGET_MS:.0f} ms)")
    print(f"throughput with {concurrency} in flight: {throughput:.0f} interactions/s over {count}")
    print(f"bot RSS: {rss_start:.1f} MB after start, {rss_end:.1f} MB after {2 * count + 20} interactions"
          f"   (target < {RSS_TARGET_MB:.0f} MB)")
    ok = p99 < P99_TARGET_MS and max(rss_start, rss_end) < RSS_TARGET_MB
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    return asyncio.run(run(args.count, args.concurrency))


if __name__ == "__main__":
    sys.exit(main())
