"""Benchmark: how fast the bot answers slash commands and how much memory it holds, against a peer.

Two bots run one after the other, each as its own subprocess against its own local Discord stand-in
(testkit/discord_standin.py), pointed there by ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``:

- ours: the real bot, ``python -m bot`` (casting, reading, embed building, the store);
- peer: ``bench/peer_bot.py``, a bare discord.py client with one slash command that answers every
  interaction with a fixed one-embed reply. The ratio ours/peer is the overhead the bot adds over
  discord.py itself.

Both get the same workload (``MIX``, same options, same order; the peer receives it under its one
command name) and the same measurements:

- start → connected: from the process spawned to the stand-in's READY sent;
- latency: N interactions one after another; time from INTERACTION_CREATE sent to the callback
  received (median, p99, max);
- throughput: N interactions with C in flight at once; answered interactions per second;
- memory: the process's VmRSS (from /proc/<pid>/status) after start (and warm-up) and after the runs.

Targets apply to ours: p99 under 50 ms (issue 5), RSS under 120 MB after 10,000 distinct casts with their
pictures (issue 11: ``--count 5000 --distinct``, two runs of 5,000). Exit status 0 when they are met.
Usage:
    python bench/bot_bench.py [--count 500] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.peer_bot import COMMAND as PEER_COMMAND  # noqa: E402
from testkit.discord_standin import DiscordStandIn  # noqa: E402

P99_TARGET_MS = 50.0
RSS_TARGET_MB = 120.0
WARM_UP = 20  # interactions before the "after start" RSS: first-use imports, caches
CONNECT_TIMEOUT_S = 30.0
CALLBACK_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0
MAX_COUNT = 100_000
MAX_CONCURRENCY = 256

# A realistic mix: mostly /cast, some study and lookup commands.
MIX: tuple[tuple[str, dict[str, Any]], ...] = (
    ("cast", {"when": "now"}),
    ("cast", {"when": "2026-11-29 14:00", "tz": "America/New_York"}),
    ("chart", {"day": "甲子", "yuejiang": "亥", "hour": "午"}),
    ("cast", {"when": "11/29 9:30", "question": "転職"}),
    ("lookup", {"term": "元首"}),
    ("cast", {"when": "bogus"}),
)


@dataclass(frozen=True, slots=True)
class Contender:
    """A bot under test: how to start it, and where the workload goes.

    ``command`` None sends each workload item to its own command name; otherwise every item goes to
    ``command`` (with the same options). ``embeds`` is the number of embeds each reply must carry
    (None: not checked).
    """

    label: str
    argv: tuple[str, ...]
    env: Mapping[str, str]
    command: str | None = None
    embeds: int | None = None


@dataclass(frozen=True, slots=True)
class Figures:
    """What one contender measured."""

    connect_s: float
    latencies_ms: tuple[float, ...]
    throughput: float  # interactions/s with ``concurrency`` in flight
    rss_start_mb: float
    rss_end_mb: float

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies_ms)

    @property
    def p99_ms(self) -> float:
        return percentile(self.latencies_ms, 0.99)

    @property
    def max_ms(self) -> float:
        return max(self.latencies_ms)


def rss_mb(pid: int) -> float:
    """Resident set size of a process in MB, from /proc (no psutil)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def percentile(values: tuple[float, ...] | list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 ≤ q ≤ 1) of a non-empty sequence."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def log_tail(path: Path, lines: int = 20) -> str:
    """The last lines of a contender's log, for an error message."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


DISTINCT = False  # --distinct: every interaction a chart never cast before (each with its picture)
_SENT = itertools.count()  # with --distinct, every moment is new across the runs too


def workload(i: int) -> tuple[str, dict[str, Any]]:
    """Item ``i`` of the workload: the mix, or with --distinct a new moment each time (2 h apart)."""
    if not DISTINCT:
        return MIX[i % len(MIX)]
    n = next(_SENT)
    moment = datetime(1950, 1, 1, 1) + timedelta(hours=2 * n + 1, minutes=n % 60)
    return "cast", {"when": f"{moment:%Y-%m-%d %H:%M}", "tz": "Asia/Tokyo"}


async def one(standin: DiscordStandIn, contender: Contender, i: int) -> float:
    """Send workload item ``i`` to the contender; the seconds until its callback arrived."""
    name, options = workload(i)
    command = contender.command or name
    callback = await standin.slash(command, options, timeout=CALLBACK_TIMEOUT_S)
    if callback.type != 4:
        raise RuntimeError(f"{contender.label}: /{command} answered with callback type {callback.type}")
    if contender.embeds is not None and len(callback.embeds) != contender.embeds:
        raise RuntimeError(f"{contender.label}: /{command} answered with {len(callback.embeds)} embeds")
    return callback.elapsed


async def wait_started(standin: DiscordStandIn, process: subprocess.Popen[bytes], log: Path, label: str) -> None:
    """Until the process has connected to the stand-in; an error if it exits or times out first."""
    deadline = time.perf_counter() + CONNECT_TIMEOUT_S
    while True:
        try:
            await standin.wait_connected(timeout=0.1)  # returns as soon as READY is sent
            return
        except TimeoutError:
            if process.poll() is not None:
                raise RuntimeError(f"{label} exited ({process.returncode}) before connecting:\n"
                                   f"{log_tail(log)}") from None
            if time.perf_counter() > deadline:
                raise RuntimeError(f"{label} did not connect within {CONNECT_TIMEOUT_S:.0f} s:\n"
                                   f"{log_tail(log)}") from None


async def measure(contender: Contender, count: int, concurrency: int, workdir: Path) -> Figures:
    """Start the contender against a fresh stand-in, run the workload, stop it; its figures."""
    standin = DiscordStandIn()
    await standin.start()
    env = {**os.environ, **contender.env, **standin.env(), "DISCORD_TOKEN": standin.token}
    env.pop("DISCORD_GUILD_ID", None)  # global commands for both
    log_path = workdir / f"{contender.label}.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed below
    try:
        started = time.perf_counter()
        process = subprocess.Popen(contender.argv, cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            await wait_started(standin, process, log_path, contender.label)
            connect_s = time.perf_counter() - started
            await asyncio.sleep(0.5)
            for i in range(WARM_UP):
                await one(standin, contender, i)
            rss_start = rss_mb(process.pid)

            latencies = [await one(standin, contender, i) for i in range(count)]

            in_flight = asyncio.Semaphore(concurrency)

            async def bounded(i: int) -> float:
                async with in_flight:
                    return await one(standin, contender, i)

            t0 = time.perf_counter()
            await asyncio.gather(*(bounded(i) for i in range(count)))
            throughput = count / (time.perf_counter() - t0)
            rss_end = rss_mb(process.pid)
        finally:
            process.terminate()
            try:
                process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_TIMEOUT_S)
    finally:
        log.close()
        await standin.stop()
    if standin.errors:
        raise RuntimeError(f"{contender.label}: the stand-in failed: {standin.errors[0]!r}")
    return Figures(connect_s, tuple(x * 1000 for x in latencies), throughput, rss_start, rss_end)


def report(ours: Figures, peer: Figures, count: int, concurrency: int) -> bool:
    """Print both contenders' figures, the ratios ours/peer and the targets; whether targets are met."""
    rows: tuple[tuple[str, float, float, str], ...] = (
        ("start → gateway connected", ours.connect_s, peer.connect_s, "s"),
        (f"latency median ({count} sequential)", ours.median_ms, peer.median_ms, "ms"),
        (f"latency p99 ({count} sequential)", ours.p99_ms, peer.p99_ms, "ms"),
        (f"latency max ({count} sequential)", ours.max_ms, peer.max_ms, "ms"),
        (f"throughput ({concurrency} in flight, {count})", ours.throughput, peer.throughput, "/s"),
        (f"RSS after start (+{WARM_UP} warm-up)", ours.rss_start_mb, peer.rss_start_mb, "MB"),
        (f"RSS after {WARM_UP + 2 * count} interactions", ours.rss_end_mb, peer.rss_end_mb, "MB"),
    )
    print("latency = INTERACTION_CREATE sent → interaction callback received, at the stand-in")
    print("ours = python -m bot;  peer = bench/peer_bot.py (bare discord.py, one command, fixed one-embed reply)")
    print(f"{'':40} {'ours':>12} {'peer':>12} {'ours/peer':>10}")
    for label, mine, theirs, unit in rows:
        digits = 2 if unit in ("s", "ms") else (0 if unit == "/s" else 1)
        print(f"{label:40} {mine:>9.{digits}f} {unit:<2} {theirs:>9.{digits}f} {unit:<2} {mine / theirs:>9.2f}x")
    print(f"ratios ours/peer: latency p99 {ours.p99_ms / peer.p99_ms:.2f}x, "
          f"median {ours.median_ms / peer.median_ms:.2f}x, "
          f"throughput {ours.throughput / peer.throughput:.2f}x, RSS {ours.rss_end_mb / peer.rss_end_mb:.2f}x "
          f"(after run; {ours.rss_start_mb / peer.rss_start_mb:.2f}x after start)")
    rss = max(ours.rss_start_mb, ours.rss_end_mb)
    print(f"target p99 < {P99_TARGET_MS:.0f} ms: ours {ours.p99_ms:.2f} ms")
    print(f"target RSS < {RSS_TARGET_MB:.0f} MB: ours {rss:.1f} MB")
    ok = ours.p99_ms < P99_TARGET_MS and rss < RSS_TARGET_MB
    print("targets met" if ok else "TARGETS MISSED")
    return ok


async def run(count: int, concurrency: int) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="liuren-bench-"))
    ours = Contender(
        "ours", (sys.executable, "-m", "bot"),
        {"LIUREN_DB": str(workdir / "bench.sqlite3"), "LIUREN_TZ": "Asia/Tokyo"},
    )
    peer = Contender("peer", (sys.executable, str(ROOT / "bench" / "peer_bot.py")), {}, command=PEER_COMMAND, embeds=1)
    ours_figures = await measure(ours, count, concurrency, workdir)
    peer_figures = await measure(peer, count, concurrency, workdir)
    ok = report(ours_figures, peer_figures, count, concurrency)
    print(f"logs: {workdir}")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=500, help=f"interactions per run (1 … {MAX_COUNT})")
    parser.add_argument("--concurrency", type=int, default=16, help=f"in flight for throughput (1 … {MAX_CONCURRENCY})")
    parser.add_argument("--distinct", action="store_true",
                        help="every /cast a chart and moment never cast before (for the memory after N distinct casts)")
    args = parser.parse_args()
    global DISTINCT
    DISTINCT = args.distinct
    if not 1 <= args.count <= MAX_COUNT:
        parser.error(f"--count must be between 1 and {MAX_COUNT}")
    if not 1 <= args.concurrency <= MAX_CONCURRENCY:
        parser.error(f"--concurrency must be between 1 and {MAX_CONCURRENCY}")
    return asyncio.run(run(args.count, args.concurrency))


if __name__ == "__main__":
    sys.exit(main())
