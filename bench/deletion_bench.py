"""Benchmark: what a member's deletion costs on PostgreSQL with sealed personal fields ("delete my
cases" and /profile delete, each ending with the key table rewritten: bot/store/keys.py), in a
casebook of N cases by M members, and what the rewrite of the key table alone costs.

The casebook is cast through the store (``add_case``, 256 in flight: sealed as the bot seals), each
member with a profile. Then members are deleted one at a time while the rest stay.

    python bench/deletion_bench.py                            # 100,000 cases by 2,000 members
    python bench/deletion_bench.py --cases 1000 --members 50 --deletions 3    # a smoke run, not figures

PostgreSQL is read from $LIUREN_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test);
the run uses a fresh schema, dropped afterwards. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from engine import calendar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg

from bot.store import NewCase, Profile, open_store
from bot.store.keys import REWRITE_KEYS
from engine.school import School
from testkit.pg_schemas import fresh_schema, schema_url

IN_FLIGHT = 256


def _case() -> NewCase:
    return NewCase(
        guild_id=100, channel_id=200, author_id=0, private=False, instant=datetime(2026, 11, 29, 5, tzinfo=UTC),
        zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None, school=School(),
        question="移転の吉凶を問う。", birth_year=1987, sex="男", created_at=1_800_000_000,
    )


async def run(url: str, cases: int, members: int, deletions: int) -> None:
    store = await open_store(url)
    try:
        started = time.perf_counter()
        for member in range(members):
            await store.set_profile(Profile(member, 1980 + member % 30, "男女"[member % 2],
                                            calendar.zone("Asia/Tokyo")))
        base = _case()
        for at in range(0, cases, IN_FLIGHT):
            await asyncio.gather(*(store.add_case(replace(base, author_id=n % members, question=f"問 {n}"))
                                   for n in range(at, min(cases, at + IN_FLIGHT))))
        print(f"loaded {cases:,} cases by {members:,} members in {time.perf_counter() - started:.1f} s")
        of_cases, of_profile = [], []
        for member in range(deletions):
            t = time.perf_counter()
            await store.delete_user_cases(member)
            of_cases.append(time.perf_counter() - t)
            t = time.perf_counter()
            await store.delete_profile(member)
            of_profile.append(time.perf_counter() - t)
        rewrite = []
        for _ in range(deletions):
            t = time.perf_counter()
            await store.driver.transaction([(statement, ()) for statement in REWRITE_KEYS])
            rewrite.append(time.perf_counter() - t)
        each = cases // members
        print(f"delete my cases ({each:,} cases, then the key table rewritten): "
              f"median {statistics.median(of_cases) * 1000:.1f} ms, max {max(of_cases) * 1000:.1f} ms")
        print(f"/profile delete (birth data of {each:,} cases, the key table rewritten): "
              f"median {statistics.median(of_profile) * 1000:.1f} ms, max {max(of_profile) * 1000:.1f} ms")
        print(f"the key table ({members:,} rows) rewritten alone: median {statistics.median(rewrite) * 1000:.1f} ms")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--members", type=int, default=2_000)
    parser.add_argument("--deletions", type=int, default=10)
    args = parser.parse_args()
    server = os.environ.get("LIUREN_TEST_POSTGRES") or "postgresql://postgres@127.0.0.1:5432/test"
    try:
        admin = psycopg.connect(server, autocommit=True, connect_timeout=3)
    except psycopg.Error as error:  # the smoke run (tests/test_bench.py) where no server answers
        print(f"key table: not measured, no PostgreSQL server at {server} ({str(error).strip().splitlines()[0]})")
        return
    with admin, fresh_schema(admin) as schema:
        asyncio.run(run(schema_url(server, schema), args.cases, args.members, args.deletions))


if __name__ == "__main__":
    main()
