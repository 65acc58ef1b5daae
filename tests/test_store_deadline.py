"""The store's one deadline (bot.store.deadline): every call answers within it, queue time included,
on both backends; a blackholed PostgreSQL connection is "not answering" within it, and the store
works again once the network heals; the daily tick is never held by one call."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.store import Store, StoreUnavailable, open_store
from bot.store import deadline as deadlines
from bot.store.postgres import CLIENT, client_settings
from testkit.daily_harness import Harness, put, utc
from testkit.tcp_proxy import TcpProxy
from tests.test_store_casebook import draft

MARGIN = 1.0  # seconds past the deadline a loaded machine may take to answer


class Stall:
    """Database calls held until ``release`` (a stalled disk, a server that stopped answering), then
    made: the store can be closed after the test."""

    def __init__(self) -> None:
        self.released = asyncio.Event()

    def hold(self, target: object, *names: str) -> None:
        for name in names:
            setattr(target, name, self._held(getattr(target, name)))

    def _held(self, original: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            await self.released.wait()
            return await original(*args, **kwargs)

        return call


@pytest.fixture
async def stall() -> Any:
    held = Stall()
    yield held
    held.released.set()


@pytest.fixture
async def store(store_location: str, stall: Stall) -> Any:
    opened = await open_store(store_location)
    yield opened
    stall.released.set()
    await opened.close()


async def test_every_call_answers_not_answering_within_the_deadline_on_both_backends(
        store: Store, stall: Stall, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadlines, "DEADLINE", 0.3)
    kept = await store.add_case(draft())
    stall.hold(store.driver, "fetch", "fetch_batch", "transaction", "execute")
    started = time.monotonic()
    calls = [store.case(kept.id), store.add_case(draft()), store.reader(1, 7), store.delete_user_cases(7),
             store.set_meta("k", "v"), store.profile(8)]
    results = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), 5)
    took = time.monotonic() - started
    assert all(isinstance(r, StoreUnavailable) and "not answering" in str(r) for r in results), results
    assert took < 0.3 + MARGIN


async def test_queue_time_counts_toward_the_deadline(store: Store, stall: Stall,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls queued behind a stuck one (here: behind a batch of casts that never commits) answer at
    the deadline counted from their own start, not one deadline after another."""
    monkeypatch.setattr(deadlines, "DEADLINE", 0.4)
    stall.hold(store.driver, "fetch_batch")  # the batch's commit hangs
    started = time.monotonic()
    results = await asyncio.wait_for(asyncio.gather(
        *(store.add_case(replace(draft(), author_id=n)) for n in range(6)), return_exceptions=True), 5)
    assert all(isinstance(r, StoreUnavailable) for r in results)
    assert time.monotonic() - started < 0.4 + MARGIN


def test_every_postgres_connection_has_client_side_timeouts_and_keepalives() -> None:
    assert client_settings("postgresql://u@h/db") == CLIENT
    assert {"connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count",
            "tcp_user_timeout"} <= CLIENT.keys()
    # An operator's own choice in the URL wins.
    assert "tcp_user_timeout" not in client_settings("postgresql://u@h/db?tcp_user_timeout=3000")


def _through(url: str, port: int) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)
    netloc = (host[0] + "@" if len(host) == 2 else "") + f"127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=netloc))


@pytest.mark.slow
async def test_a_blackholed_postgres_answers_not_answering_within_the_deadline_then_recovers(
        postgres_url: str) -> None:
    target = urlsplit(postgres_url)
    async with TcpProxy(target.hostname or "127.0.0.1", target.port or 5432) as proxy:
        store = await open_store(_through(postgres_url, proxy.port))
        try:
            kept = await store.add_case(draft())
            proxy.blackhole()
            started = time.monotonic()
            results = await asyncio.wait_for(asyncio.gather(
                store.case(kept.id), store.add_case(draft()), store.reader(1, 7), return_exceptions=True), 20)
            took = time.monotonic() - started
            assert all(isinstance(r, StoreUnavailable) for r in results), results
            assert took < deadlines.DEADLINE + MARGIN
            proxy.heal()
            assert (await store.case(kept.id)) == kept
            assert (await store.add_case(draft(author=8))).author_id == 8
            # Every pooled connection good again: as many calls at once as the pool holds connections.
            assert await asyncio.gather(*(store.case(kept.id) for _ in range(16))) == [kept] * 16
        finally:
            proxy.heal()
            await store.close()


async def test_a_stuck_store_call_does_not_hold_the_daily_tick(harness: Harness, stall: Stall,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler's loop gives up a call at the deadline, and runs again: the post is made once
    the database answers."""
    h = harness
    channel = h.channel()
    setup = await open_store(h.db)
    try:
        await put(setup, h.guild.id, channel, "09:00", "Asia/Tokyo", "ja", utc(2026, 5, 1))
    finally:
        await setup.close()
    bot = await h.start()
    await h.settle()
    monkeypatch.setattr(deadlines, "DEADLINE", 0.3)
    driver = bot.store.driver
    claim = driver.claim
    stall.hold(driver, "claim")
    daily = h.cog
    ticks = daily.ticks
    h.clock.now = utc(2026, 5, 2, 0, 0) + timedelta(seconds=30)
    started = time.monotonic()
    daily.wakeup.set()
    while daily.ticks <= ticks:
        await asyncio.sleep(0.02)
        assert time.monotonic() - started < 0.3 + MARGIN, "the tick is held by one store call"
    assert h.posts(channel) == []
    setattr(driver, "claim", claim)  # noqa: B010 - the database answers again
    daily.wakeup.set()
    for _ in range(200):
        if h.posts(channel):
            break
        await asyncio.sleep(0.02)
    assert len(h.posts(channel)) == 1
