"""PostgreSQL: a case whose id a user was shown survives the server crashing (see docs/admin.md).

The test starts a server of its own (testkit/pg_server.py), casts from a hundred callers at once,
crashes the server (``pg_ctl stop -m immediate``) in the middle of it, restarts it and looks for
every case id an ``add_case`` returned.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from bot.store import NewCase, open_store
from engine import calendar
from engine.school import School
from testkit.pg_server import PrivateServer, private_server, unavailable

pytestmark = pytest.mark.slow
CALLERS = 100


@pytest.fixture
def server() -> Iterator[PrivateServer]:
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    with private_server() as started:
        yield started


def cast(author: int, n: int) -> NewCase:
    # A question of some length: the WAL a crash can take back grows with what each commit writes.
    return NewCase(
        guild_id=100, channel_id=200, author_id=author, private=False, instant=datetime(2026, 11, 29, 5, tzinfo=UTC),
        zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None, school=School(),
        question=f"question {n} of {author}: " + "移転の吉凶を問う。" * 30, birth_year=None, sex=None,
        created_at=1_800_000_000 + n,
    )


async def test_no_case_whose_id_was_shown_is_lost_when_the_server_crashes(server: PrivateServer) -> None:
    store = await open_store(server.url)
    shown: list[str] = []
    crashed = asyncio.Event()

    async def caster(author: int) -> None:
        n = 0
        while not crashed.is_set():
            try:
                case = await store.add_case(cast(author, n))
            except Exception:  # the server went away under this cast: its id was never shown
                return
            shown.append(case.id)
            n += 1

    callers = [asyncio.create_task(caster(author)) for author in range(CALLERS)]
    while len(shown) < 2 * CALLERS:
        await asyncio.sleep(0.02)
    await asyncio.to_thread(server.stop, "immediate")
    crashed.set()
    await asyncio.wait_for(asyncio.gather(*callers), 60)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(store.close(), 30)
    await asyncio.to_thread(server.start)

    import psycopg

    async with await psycopg.AsyncConnection.connect(server.url) as conn:
        found = {row[0] for row in await (await conn.execute(
            "SELECT id FROM cases WHERE id = ANY(%s)", (shown,))).fetchall()}
    lost = sorted(set(shown) - found)
    assert not lost, f"{len(lost)} of {len(shown)} case ids shown to users were lost in the crash: {lost[:10]}"
