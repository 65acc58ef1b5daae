"""The store's reads of the cases a member may see (by the channels they may read, a page by offset
or a keyset page) and notes kept once per interaction, once per backend (SQLite, PostgreSQL)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.store import Store, open_store
from tests.test_store_casebook import T, draft


@pytest.fixture
async def store(store_location: str) -> AsyncIterator[Store]:
    opened = await open_store(store_location)
    yield opened
    await opened.close()


async def test_a_members_view_of_a_server_follows_the_channels_they_may_read(store: Store) -> None:
    me, other = 7, 8
    cases = [await store.add_case(replace(draft(author, at=T + n), channel_id=channel, private=private))
             for n, (author, channel, private) in enumerate([
                 (other, 200, False), (other, 300, False), (me, 300, False), (other, 200, True), (other, 201, False),
             ])]
    ids = [c.id for c in cases]
    seen = await store.cases_seen_in_guild(100, me, [200], 0, 10)
    assert [c.id for c in seen] == [ids[2], ids[0]]  # mine anywhere; others' public, in 200; newest first
    assert [c.id for c in await store.cases_seen_in_guild(100, me, [], 0, 10)] == [ids[2]]
    assert [c.id for c in await store.cases_seen_in_guild(100, me, [200, 201, 300], 1, 2)] == [ids[2], ids[1]]
    others = await store.others_cases_before(100, me, [200, 201, 300], 2**62, 2)
    assert [c.id for c in others] == [ids[4], ids[1]]
    assert [c.id for c in await store.others_cases_before(100, me, [200, 201, 300], others[-1].seq, 5)] == [ids[0]]
    assert await store.others_cases_before(100, me, [], 2**62, 5) == ()
    assert [c.id for c in await store.cases_by_author_before(me, 2**62, 5)] == [ids[2]]
    assert await store.cases_by_author_before(me, cases[2].seq, 5) == ()


async def test_a_note_sent_by_one_interaction_is_kept_once(store: Store) -> None:
    case = await store.add_case(draft())
    first = await store.add_note(case.id, 7, "once", T, limit=2, source=111)
    assert first is not None and first.body == "once"
    again = await store.add_note(case.id, 7, "once", T + 1, limit=2, source=111)  # the same delivery again
    assert again == first
    assert await store.add_note(case.id, 7, "two", T, limit=2, source=112) is not None
    assert await store.add_note(case.id, 7, "three", T, limit=2, source=113) is None  # at the cap
    assert [n.body for n in await store.case_notes([case.id])] == ["once", "two"]
