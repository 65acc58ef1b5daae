"""Calls on a case and its outcome, once per backend (SQLite file, PostgreSQL schema): sealed, one
per member and per interaction, revealed by the owner, marked, and deleted with a member's data."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store, fingerprint, open_store
from tests.test_store_casebook import T, draft

OWNER, ANN, BOB = 7, 8, 9


@pytest.fixture
async def store(store_location: str) -> AsyncIterator[Store]:
    opened = await open_store(store_location)
    yield opened
    await opened.close()


def test_the_fingerprint_is_the_documented_sha256() -> None:
    canonical = "liuren-call-1\nABC123\n8\n2027-01-15T08:00:00+00:00\nit arrives\nby Friday"
    expected = hashlib.sha256(canonical.encode()).hexdigest()[:12]
    assert fingerprint("ABC123", 8, "it arrives\nby Friday", 1_800_000_000) == expected


async def test_a_call_is_sealed_kept_once_per_member_and_per_interaction(store: Store) -> None:
    case = await store.add_case(draft(author=OWNER))
    first = await store.add_call(case.id, ANN, "it comes back", T + 1, None, source=1001)
    assert first is not None and first.text == "it comes back" and first.author_id == ANN
    # The same interaction delivered again (a restart between sealing and answering): the same call.
    again = await store.add_call(case.id, ANN, "it comes back", T + 1, None, source=1001)
    assert again == first
    # Another interaction of the same member: no second call (a call is never edited nor replaced).
    assert await store.add_call(case.id, ANN, "it does not", T + 2, None, source=1002) is None
    second = await store.add_call(case.id, BOB, "not before spring", T + 3, T + 100, source=1003)
    assert second is not None
    calls = await store.case_calls(case.id)
    assert [(c.author_id, c.text, c.due_at) for c in calls] == [(ANN, "it comes back", None),
                                                                 (BOB, "not before spring", T + 100)]
    assert calls[0].fingerprint == fingerprint(case.id, ANN, "it comes back", T + 1)


async def test_reveal_outcome_marks_and_withdrawal(store: Store) -> None:
    case = await store.add_case(draft(author=OWNER))
    ann = await store.add_call(case.id, ANN, "yes", T + 1, None, source=2001)
    bob = await store.add_call(case.id, BOB, "no", T + 2, None, source=2002)
    assert ann is not None and bob is not None
    assert await store.outcome(case.id) is None
    await store.reveal_calls(case.id, T + 10)
    await store.reveal_calls(case.id, T + 20)  # the first reveal's time is kept
    # A call made once the calls are revealed would be made knowing them: refused.
    assert await store.add_call(case.id, 10, "late", T + 30, None, source=2003) is None
    await store.set_outcome(case.id, OWNER, "it came back on the 3rd", T + 40)
    outcome = await store.outcome(case.id)
    assert outcome is not None and (outcome.revealed_at, outcome.text, outcome.decided_at) == (
        T + 10, "it came back on the 3rd", T + 40)
    assert await store.mark_call(ann.id, case.id, "hit")
    assert await store.mark_call(bob.id, case.id, "missed")
    assert not await store.mark_call(bob.id, "OTHER1", "hit")  # the call of another case
    assert await store.withdraw_call(case.id, BOB, T + 50)
    assert not await store.withdraw_call(case.id, BOB, T + 51)
    calls = {c.author_id: c for c in await store.case_calls(case.id)}
    assert calls[ANN].mark == "hit"
    assert calls[BOB].text is None and calls[BOB].mark is None and calls[BOB].withdrawn_at == T + 50
    assert not await store.mark_call(bob.id, case.id, "hit")  # a withdrawn call is not marked
    recorded = await store.recorded_calls(100, None, 50)
    assert [(c.id, call.author_id, revealed) for c, call, revealed in recorded] == [
        (case.id, BOB, T + 10), (case.id, ANN, T + 10)]
    assert [call.author_id for _, call, _ in await store.recorded_calls(None, ANN, 50)] == [ANN]


async def test_deleting_a_members_data_removes_their_calls_and_leaves_seen_ones_withdrawn(store: Store) -> None:
    revealed = await store.add_case(draft(author=OWNER))
    hidden = await store.add_case(draft(author=OWNER))
    own = await store.add_case(draft(author=ANN))
    await store.add_call(revealed.id, ANN, "seen call", T + 1, None, source=3001)
    await store.add_call(revealed.id, BOB, "bob's call", T + 2, None, source=3002)
    await store.add_call(hidden.id, ANN, "unseen call", T + 3, None, source=3003)
    await store.add_call(own.id, BOB, "bob on ann's case", T + 4, None, source=3004)
    await store.set_outcome(own.id, ANN, "ann's outcome", T + 5)
    await store.reveal_calls(revealed.id, T + 6)
    assert await store.delete_user_cases(ANN) == 1
    left = await store.case_calls(revealed.id)
    assert [(c.author_id, c.text, c.fingerprint) for c in left] == [
        (None, None, None), (BOB, "bob's call", fingerprint(revealed.id, BOB, "bob's call", T + 2))]
    assert left[0].withdrawn_at is not None
    assert await store.case_calls(hidden.id) == ()
    assert await store.case_calls(own.id) == () and await store.outcome(own.id) is None
    assert await store.recorded_calls(None, ANN, 50) == ()


async def test_deleting_a_case_deletes_its_calls_and_outcome(store: Store) -> None:
    case = await store.add_case(draft(author=OWNER))
    await store.add_call(case.id, ANN, "a call", T + 1, None, source=4001)
    await store.set_outcome(case.id, OWNER, "what happened", T + 2)
    assert await store.delete_case(case.id)
    assert await store.case_calls(case.id) == () and await store.outcome(case.id) is None


async def test_a_call_and_its_key_leave_the_sqlite_files(tmp_path: Path) -> None:
    path = tmp_path / "liuren.sqlite3"
    store = await open_store(path)
    secret = "the ring is under the floorboards"
    try:
        case = await store.add_case(draft(author=OWNER))
        await store.add_call(case.id, ANN, secret, T + 1, None, source=5001)
        await store.reveal_calls(case.id, T + 2)
        with sqlite3.connect(path) as conn:
            [(key,)] = conn.execute("SELECT case_key FROM member_keys WHERE user_id = ?", (ANN,)).fetchall()
        await store.delete_user_cases(ANN)
        files = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("liuren.sqlite3"))
        assert secret.encode() not in files and bytes(key) not in files
        assert [c.text for c in await store.case_calls(case.id)] == [None]
    finally:
        await store.close()


async def test_a_vote_marks_a_call_by_the_most_votes_a_tie_going_to_the_lesser_mark(store: Store) -> None:
    case = await store.add_case(draft(author=OWNER))
    call = await store.add_call(case.id, ANN, "yes", T + 1, None, source=6001)
    assert call is not None
    await store.set_outcome(case.id, OWNER, "it happened", T + 2, vote=True)
    outcome = await store.outcome(case.id)
    assert outcome is not None and outcome.vote

    async def mark() -> str | None:
        return (await store.case_calls(case.id))[0].mark

    assert await store.vote_call(call.id, case.id, 20, "hit", T + 3)
    assert await mark() == "hit"
    assert await store.vote_call(call.id, case.id, 21, "partly", T + 4)
    assert await mark() == "partly"  # one each: the lesser
    assert await store.vote_call(call.id, case.id, 22, "hit", T + 5)
    assert await mark() == "hit"
    assert await store.vote_call(call.id, case.id, 22, "missed", T + 6)  # a voter's next vote replaces theirs
    assert await mark() == "missed"
    assert not await store.vote_call(call.id, "OTHER1", 23, "hit", T + 7)
    # A voter's data deleted: their votes go; the case's deletion takes the rest.
    votes = "SELECT count(*) FROM call_votes WHERE voter_id = ?"
    assert (await store.driver.fetch(votes, (22,)))[0][0] == 1
    await store.delete_user_cases(22)
    assert (await store.driver.fetch(votes, (22,)))[0][0] == 0
    assert await store.vote_call(call.id, case.id, 20, "hit", T + 8)
    assert await mark() == "partly"  # 20 hit, 21 partly: 22's missed is gone
    assert await store.delete_case(case.id)
    assert (await store.driver.fetch(votes, (20,)))[0][0] == 0
    await store.add_case(draft(author=OWNER))
    assert not await store.vote_call(call.id, case.id, 20, "hit", T + 9)
