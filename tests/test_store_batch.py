"""Casts made together are written in one transaction (bot.store.batch), and each write
is still its caller's own: stored before it returns, its failure told to its caller alone, never
lost when the store closes. On both backends (SQLite file, PostgreSQL schema)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

from bot.store import Store, StoreUnavailable, open_store
from bot.store import store as store_module
from bot.store.batch import Batched
from bot.store.driver import Params, Rows
from bot.store.rows import case_params
from bot.store.values import GuildOptions, NewCase, Profile
from engine import calendar
from engine.school import School

T = 1_800_000_000
PARIS = calendar.zone("Europe/Paris")
T_ = TypeVar("T_")


def draft(author: int = 7, at: int = T, question: str | None = None) -> NewCase:
    return NewCase(
        guild_id=100, channel_id=200, author_id=author, private=False, instant=datetime(2026, 11, 29, 5, tzinfo=UTC),
        zone=calendar.zone("Asia/Tokyo"), day=None, yuejiang=None, hour=None, school=School(), question=question,
        birth_year=None, sex=None, created_at=at,
    )


@pytest.fixture
async def store(store_location: str) -> AsyncIterator[Store]:
    opened = await open_store(store_location)
    yield opened
    await opened.close()


CASE_WIDTH = len(case_params("AAAAAA", draft()))  # the values each case's row takes


def count_batches(store: Store, *, atomic: bool = True, statements: list[int] | None = None) -> list[int]:
    """The sizes of the batches the store sends, as they are sent: the reads (not ``atomic``) by
    their keys, the cases written (``atomic``) by their rows (the rows of a batch are a
    few statements', and so are the keys of each read); ``statements``, if given, gets each batch's
    statements."""
    sizes: list[int] = []
    write = store.driver.fetch_batch

    async def counted(steps: Sequence[tuple[str, Params]], *, atomic: bool = True,
                      flushed: bool = True) -> list[Rows]:
        if atomic is wanted:
            sizes.append(sum(len(params) for _, params in steps) // (CASE_WIDTH if atomic else 1))
            if statements is not None:
                statements.append(len(steps))
        return await write(steps, atomic=atomic, flushed=flushed)

    wanted = atomic

    setattr(store.driver, "fetch_batch", counted)  # noqa: B010 - count the transactions
    return sizes


async def test_casts_made_together_share_a_transaction_and_each_is_stored(store: Store) -> None:
    sizes = count_batches(store)
    cases = await asyncio.gather(*(store.add_case(draft(author=i, at=T + i)) for i in range(40)))
    assert sum(sizes) == 40 and len(sizes) < 40 and max(sizes) > 1, sizes
    assert len({c.id for c in cases}) == 40
    for case, author in zip(cases, range(40), strict=True):
        assert case.author_id == author and await store.case(case.id) == case
    newest_first = await store.cases_by_author(39, 0, 5)
    assert [c.id for c in newest_first] == [cases[39].id]


async def test_options_and_profiles_not_remembered_are_read_together(store: Store) -> None:
    await store.set_profile(Profile(3, 1990, "男", PARIS))
    await store.set_guild_options(11, GuildOptions(language="en"))
    statements: list[int] = []
    sizes = count_batches(store, atomic=False, statements=statements)
    profiles = await asyncio.gather(*(store.profile(u) for u in [*range(40), 3, 39]))
    options = await asyncio.gather(*(store.guild_options(g) for g in range(5, 15)))
    assert profiles[3] == profiles[40] == Profile(3, 1990, "男", PARIS) and profiles.count(None) == 40
    assert options[6] == GuildOptions(language="en") and options.count(GuildOptions()) == 9
    # each key read once, many to a statement: 40 profiles in two (32 + 8), 10 servers' options in two (8 + 2)
    assert sizes == [40, 10] and statements == [2, 2], (sizes, statements)
    assert await store.profile(3) == profiles[3] and sizes == [40, 10]  # remembered: not read again


async def test_a_reader_s_options_and_profile_come_in_one_trip(store: Store) -> None:
    """A /cast's reader (bot.core.reader.resolve): the server's options and the user's
    profile, neither remembered, in one trip to the database; then in none."""
    await store.set_profile(Profile(3, 1990, "男", PARIS))
    await store.set_guild_options(11, GuildOptions(language="en"))
    trips: list[str] = []
    fetch, fetch_batch = store.driver.fetch, store.driver.fetch_batch

    async def one(statement: str, params: Params = ()) -> Rows:
        trips.append("fetch")
        return await fetch(statement, params)

    async def many(steps: Sequence[tuple[str, Params]], **options: Any) -> list[Rows]:
        trips.append(f"fetch_batch of {len(steps)}")
        return await fetch_batch(steps, **options)

    setattr(store.driver, "fetch", one)  # noqa: B010 - count the trips
    setattr(store.driver, "fetch_batch", many)  # noqa: B010
    assert await store.reader(11, 3) == (GuildOptions(language="en"), Profile(3, 1990, "男", PARIS))
    assert trips == ["fetch_batch of 2"]
    assert await store.reader(11, 3) == (GuildOptions(language="en"), Profile(3, 1990, "男", PARIS))
    assert await store.reader(None, None) == (GuildOptions(), None)
    assert await store.reader(12, 4) == (GuildOptions(), None)
    assert trips == ["fetch_batch of 2", "fetch_batch of 2"]


async def test_a_refused_read_of_both_is_told(store: Store) -> None:
    """Both reads fail together: the caller gets the database's error, and the next read, the
    database back, reads both (nothing was remembered of the failed one)."""
    fetch_batch = store.driver.fetch_batch

    async def refused(steps: Sequence[tuple[str, Params]], **options: Any) -> list[Rows]:
        raise StoreUnavailable("the database is busy")

    setattr(store.driver, "fetch_batch", refused)  # noqa: B010
    with pytest.raises(StoreUnavailable):
        await store.reader(11, 3)
    setattr(store.driver, "fetch_batch", fetch_batch)  # noqa: B010
    await store.set_profile(Profile(3, 1990, "男"))
    assert await store.reader(11, 3) == (GuildOptions(), Profile(3, 1990, "男"))


async def test_a_lone_cast_waits_for_no_other(store: Store) -> None:
    sizes = count_batches(store)
    first = await store.add_case(draft())
    second = await store.add_case(draft(at=T + 1))
    assert sizes == [1, 1] and first.id != second.id


async def test_ids_clashing_inside_one_transaction_are_drawn_again(store: Store,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    ids = iter(["AAAAAA", "AAAAAA", "BBBBBB"])
    monkeypatch.setattr(store_module, "new_case_id", lambda: next(ids))
    one, two = await asyncio.gather(store.add_case(draft(author=1)), store.add_case(draft(author=2)))
    assert (one.id, two.id) == ("AAAAAA", "BBBBBB")
    assert (await store.case("BBBBBB")) == two


async def test_an_id_already_stored_is_drawn_again_and_the_batch_keeps_the_others(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch's cases are written many rows to a statement; the row whose id is taken
    is skipped, its caller alone draws again, and every case returned is the case stored."""
    ids = iter(["AAAAAA", "CCCCCC", "AAAAAA", "DDDDDD", "BBBBBB"])
    monkeypatch.setattr(store_module, "new_case_id", lambda: next(ids))
    first = await store.add_case(draft(author=1))
    sizes = count_batches(store)
    two, three, four = await asyncio.gather(*(store.add_case(draft(author=a, at=T + a)) for a in (2, 3, 4)))
    assert (two.id, three.id, four.id) == ("CCCCCC", "BBBBBB", "DDDDDD") and sizes == [3, 1]
    for case in (first, two, three, four):
        assert await store.case(case.id) == case
    assert three.seq > four.seq > two.seq > first.seq


async def test_writes_made_before_close_are_stored(store_location: str) -> None:
    opened = await open_store(store_location)
    writes = [asyncio.create_task(opened.add_case(draft(author=5, at=T + i))) for i in range(10)]
    await asyncio.sleep(0)  # each has handed its write over; none has been committed yet
    await opened.close()
    saved = [await w for w in writes]
    with pytest.raises(RuntimeError):
        await opened.add_case(draft())
    again = await open_store(store_location)
    try:
        assert {c.id for c in await again.cases_by_author(5, 0, 20)} == {c.id for c in saved}
    finally:
        await again.close()


async def test_a_cancelled_caller_still_has_its_case_stored(store: Store) -> None:
    waiting = asyncio.create_task(store.add_case(draft(author=6)))
    await asyncio.sleep(0)
    waiting.cancel()
    await store.add_case(draft(author=8))  # written after the cancelled one's transaction
    assert len(await store.cases_by_author(6, 0, 5)) == 1


# -- failures, on a stand-in for the driver ----------------------------------------------------

async def within(waiting: Awaitable[T_], seconds: float = 5.0) -> T_:
    """A caller left waiting forever fails the test instead of hanging it."""
    return await asyncio.wait_for(waiting, seconds)


class Flaky:
    """fetch_batch refusing as told: every batch while `down`, or any batch holding a "bad" row."""

    def __init__(self) -> None:
        self.down = False
        self.batches: list[list[Any]] = []

    async def fetch_batch(self, steps: Sequence[tuple[str, Params]]) -> list[Rows]:
        await asyncio.sleep(0)
        self.batches.append([p[0] for _, p in steps])
        if self.down:
            raise StoreUnavailable("the stand-in database is down")
        if any(p[0] == "bad" for _, p in steps):
            raise ValueError("a row the database refuses")
        return [[(p[0],)] for _, p in steps]


async def test_a_database_that_cannot_answer_now_is_told_to_every_caller_once() -> None:
    flaky = Flaky()
    flaky.down = True
    batched = Batched(flaky.fetch_batch)
    told = await within(asyncio.gather(*(batched.fetch("INSERT", (n,)) for n in range(5)), return_exceptions=True))
    assert all(isinstance(t, StoreUnavailable) for t in told) and len({id(t) for t in told}) == 5
    assert flaky.batches == [[0, 1, 2, 3, 4]]  # not tried again row by row: it is "not now" for all
    flaky.down = False
    assert await batched.fetch("INSERT", (9,)) == [(9,)]  # and it recovers


async def test_a_bad_row_fails_alone() -> None:
    flaky = Flaky()
    batched = Batched(flaky.fetch_batch)
    told = await within(asyncio.gather(*(batched.fetch("INSERT", (v,)) for v in ("a", "bad", "c")),
                                       return_exceptions=True))
    assert told[0] == [("a",)] and told[2] == [("c",)]
    assert isinstance(told[1], ValueError)
    assert flaky.batches[0] == ["a", "bad", "c"] and ["a"] in flaky.batches and ["c"] in flaky.batches


async def test_writes_beyond_a_batch_go_into_the_next() -> None:
    flaky = Flaky()
    batched = Batched(flaky.fetch_batch, most=4)
    found = await within(asyncio.gather(*(batched.fetch("INSERT", (n,)) for n in range(10))))
    assert found == [[(n,)] for n in range(10)]
    assert [len(b) for b in flaky.batches] == [4, 4, 2]
