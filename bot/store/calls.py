"""The store's operations on calls (a member's sealed call on a case) and a case's outcome, with
their SQL. Part of bot.store.store.Store, written once here.

A call's text is sealed under its member's casebook key (bot.store.sealing), as a note's is, so
deleting the member's data shreds it; a case's outcome is sealed under the case owner's key. A
call is kept under the interaction that made it (``source_id``, unique): the same interaction
delivered again after a restart adds nothing and gets the first call back. A member makes one
call on a case (unique ``case_id, author_id``), never edited: withdrawing empties its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import keys
from .call_values import Call, Outcome, as_mark
from .driver import Driver, Params
from .rows import case_of
from .sealing import seal_text, unseal_text
from .sql import CASE_COLUMNS
from .values import Case

__all__ = ["ERASING", "Calls", "case_steps", "member_steps"]

_CALL = "cc.id, cc.case_id, cc.author_id, cc.text_sealed, cc.made_at, cc.due_at, cc.withdrawn_at, cc.mark, ck.case_key"
_CALLS = "case_calls AS cc LEFT JOIN member_keys AS ck ON ck.user_id = cc.author_id"
# Only while the case's calls are not revealed: a call made after the reveal would be made knowing the others.
ADD_CALL = (
    "INSERT INTO case_calls (case_id, author_id, text_sealed, made_at, due_at, source_id) "
    "SELECT ?, ?, ?, ?, CAST(? AS BIGINT), ? "
    "WHERE NOT EXISTS (SELECT 1 FROM case_outcomes WHERE case_id = ? AND revealed_at IS NOT NULL) "
    "ON CONFLICT DO NOTHING RETURNING id"
)
CALL_FROM = f"SELECT {_CALL} FROM {_CALLS} WHERE cc.source_id = ?"
CALLS_OF = f"SELECT {_CALL} FROM {_CALLS} WHERE cc.case_id = ? ORDER BY cc.id"


def calls_on(count: int) -> str:
    """The calls on `count` cases, by case and then oldest first."""
    return f"SELECT {_CALL} FROM {_CALLS} WHERE cc.case_id IN ({', '.join('?' * count)}) ORDER BY cc.case_id, cc.id"

WITHDRAW_CALL = (
    "UPDATE case_calls SET text_sealed = NULL, mark = NULL, withdrawn_at = ? "
    "WHERE case_id = ? AND author_id = ? AND withdrawn_at IS NULL"
)
MARK_CALL = "UPDATE case_calls SET mark = ? WHERE id = ? AND case_id = ? AND withdrawn_at IS NULL"
REVEAL = (
    "INSERT INTO case_outcomes (case_id, revealed_at) VALUES (?, ?) ON CONFLICT (case_id) "
    "DO UPDATE SET revealed_at = COALESCE(case_outcomes.revealed_at, excluded.revealed_at)"
)
SET_OUTCOME = (
    "INSERT INTO case_outcomes (case_id, revealed_at, outcome_sealed, decided_at, vote) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (case_id) DO UPDATE SET revealed_at = COALESCE(case_outcomes.revealed_at, excluded.revealed_at), "
    "outcome_sealed = excluded.outcome_sealed, decided_at = excluded.decided_at, vote = excluded.vote"
)
# A vote on a call (not withdrawn) of the case, replaced by the voter's next; the call's mark is then
# the votes' most common, a tie going to the lesser mark (missed, then partly).
VOTE = (
    "INSERT INTO call_votes (call_id, voter_id, mark, voted_at) SELECT ?, ?, ?, ? WHERE EXISTS "
    "(SELECT 1 FROM case_calls WHERE id = ? AND case_id = ? AND withdrawn_at IS NULL) "
    "ON CONFLICT (call_id, voter_id) DO UPDATE SET mark = excluded.mark, voted_at = excluded.voted_at"
)
MARK_BY_VOTES = (
    "UPDATE case_calls SET mark = (SELECT v.mark FROM call_votes AS v WHERE v.call_id = case_calls.id "
    "GROUP BY v.mark ORDER BY count(*) DESC, CASE v.mark WHEN 'missed' THEN 0 WHEN 'partly' THEN 1 ELSE 2 END "
    "LIMIT 1) WHERE id = ? AND case_id = ? AND withdrawn_at IS NULL"
)
_OUTCOME = "o.case_id, o.revealed_at, o.outcome_sealed, o.decided_at, ok.case_key, o.vote"
_OUTCOMES = ("case_outcomes AS o LEFT JOIN cases AS oc ON oc.id = o.case_id "
             "LEFT JOIN member_keys AS ok ON ok.user_id = oc.author_id")
OUTCOME = f"SELECT {_OUTCOME} FROM {_OUTCOMES} WHERE o.case_id = ?"


def outcomes_on(count: int) -> str:
    return f"SELECT {_OUTCOME} FROM {_OUTCOMES} WHERE o.case_id IN ({', '.join('?' * count)})"

# The calls counted by the record: each with its case (and the case owner's keys, as CASE_COLUMNS reads
# them) and when the case's calls were revealed; {where}: the server's, the member's, or both.
_CASE_OF_CALL = ", ".join("cs." + column.strip().split(".")[-1] for column in CASE_COLUMNS.split(","))
RECORD = (
    f"SELECT {_CASE_OF_CALL}, {_CALL}, o.revealed_at FROM case_calls AS cc "
    f"JOIN (SELECT {CASE_COLUMNS} FROM cases LEFT JOIN member_keys AS k ON k.user_id = cases.author_id) AS cs "
    "ON cs.id = cc.case_id "
    "LEFT JOIN member_keys AS ck ON ck.user_id = cc.author_id "
    "LEFT JOIN case_outcomes AS o ON o.case_id = cc.case_id WHERE {where} ORDER BY cc.id DESC LIMIT ?"
)

# -- deletion: a case's calls and outcome go with it; a member's calls with their data -------------------
DELETE_CASE_VOTES = "DELETE FROM call_votes WHERE call_id IN (SELECT id FROM case_calls WHERE case_id = ?)"
DELETE_CASE_CALLS = "DELETE FROM case_calls WHERE case_id = ?"
DELETE_CASE_OUTCOME = "DELETE FROM case_outcomes WHERE case_id = ?"
_OWNED = "case_id IN (SELECT id FROM cases WHERE author_id = ?)"
DELETE_OWNED_VOTES = f"DELETE FROM call_votes WHERE call_id IN (SELECT id FROM case_calls WHERE {_OWNED})"
DELETE_OWNED_CALLS = f"DELETE FROM case_calls WHERE {_OWNED}"
# A member's votes, and the votes on their calls (a forgotten call keeps no mark).
DELETE_MEMBER_VOTES = (
    "DELETE FROM call_votes WHERE voter_id = ? OR call_id IN (SELECT id FROM case_calls WHERE author_id = ?)"
)
DELETE_OWNED_OUTCOMES = f"DELETE FROM case_outcomes WHERE {_OWNED}"
# A call nobody could have seen (not revealed, no due date to open it) goes; one others may have
# read stays in its place as withdrawn, without its member, its text or its mark.
DELETE_UNSEEN_CALLS = (
    "DELETE FROM case_calls WHERE author_id = ? AND due_at IS NULL AND NOT EXISTS "
    "(SELECT 1 FROM case_outcomes AS o WHERE o.case_id = case_calls.case_id AND o.revealed_at IS NOT NULL)"
)
FORGET_CALLS = (
    "UPDATE case_calls SET author_id = NULL, text_sealed = NULL, mark = NULL, source_id = NULL, "
    "withdrawn_at = COALESCE(withdrawn_at, made_at) WHERE author_id = ?"
)
ERASING = frozenset((WITHDRAW_CALL, FORGET_CALLS))  # updates that remove personal data (bot.store.sqlite.erases)


def case_steps(case_id: str) -> list[tuple[str, Params]]:
    """The statements that delete a case's calls and outcome (run with the case's own deletion)."""
    return [(DELETE_CASE_VOTES, (case_id,)), (DELETE_CASE_CALLS, (case_id,)), (DELETE_CASE_OUTCOME, (case_id,))]


def member_steps(user_id: int) -> list[tuple[str, Params]]:
    """The statements that delete a member's calls and every call and outcome on their cases (run
    before their cases are deleted, in the same transaction)."""
    return [(DELETE_OWNED_VOTES, (user_id,)), (DELETE_OWNED_CALLS, (user_id,)), (DELETE_OWNED_OUTCOMES, (user_id,)),
            (DELETE_MEMBER_VOTES, (user_id, user_id)), (DELETE_UNSEEN_CALLS, (user_id,)), (FORGET_CALLS, (user_id,))]


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _bound(case_id: str) -> str:
    return f"k:{case_id}"


def call_of(r: Sequence[Any]) -> Call:
    """A call as read (``_CALL``), its text opened with its member's key (None: withdrawn or shredded)."""
    case_id = str(r[1])
    return Call(id=int(r[0]), case_id=case_id, author_id=_opt_int(r[2]),
                text=unseal_text(r[8], r[3], _bound(case_id)), made_at=int(r[4]), due_at=_opt_int(r[5]),
                withdrawn_at=_opt_int(r[6]), mark=as_mark(r[7]))


def outcome_of(r: Sequence[Any]) -> Outcome:
    case_id = str(r[0])
    return Outcome(case_id=case_id, revealed_at=_opt_int(r[1]), text=unseal_text(r[4], r[2], f"o:{case_id}"),
                   decided_at=_opt_int(r[3]), vote=bool(r[5]))


class Calls:
    """The calls' operations of the Store (which bounds each by its deadline: bot.store.deadline)."""

    driver: Driver
    _member_keys: keys.MemberKeys

    async def add_call(self, case_id: str, author_id: int, text: str, at: int, due_at: int | None,
                       source: int) -> Call | None:
        """Seal and keep the member's call; None when they have a call on the case already, or the
        case's calls are revealed. The interaction ``source`` delivered again gets its first call back."""
        if "\x00" in text:
            raise ValueError("text with a NUL character (U+0000) is not stored")
        key, _ = await self._member_keys.of(author_id, case=True)
        assert key is not None
        sealed = seal_text(key, text, _bound(case_id))
        rows = await self.driver.fetch(ADD_CALL, (case_id, author_id, sealed, at, due_at, source, case_id))
        if rows:
            await self.driver.note_used()
            return Call(int(rows[0][0]), case_id, author_id, text, at, due_at, None, None)
        found = await self.driver.fetch(CALL_FROM, (source,))
        return call_of(found[0]) if found else None

    async def case_calls(self, case_id: str) -> tuple[Call, ...]:
        """Every call on the case, oldest first (withdrawn ones too, without their text)."""
        return tuple(call_of(r) for r in await self.driver.fetch(CALLS_OF, (case_id,)))

    async def calls_on_cases(self, case_ids: Sequence[str]) -> tuple[Call, ...]:
        """The calls on these cases, by case and then oldest first."""
        if not case_ids:
            return ()
        return tuple(call_of(r) for r in await self.driver.fetch(calls_on(len(case_ids)), tuple(case_ids)))

    async def outcomes_of(self, case_ids: Sequence[str]) -> dict[str, Outcome]:
        """The outcomes of these cases that have one, by case id."""
        if not case_ids:
            return {}
        rows = await self.driver.fetch(outcomes_on(len(case_ids)), tuple(case_ids))
        return {found.case_id: found for found in map(outcome_of, rows)}

    async def withdraw_call(self, case_id: str, author_id: int, at: int) -> bool:
        """Withdraw the member's call on the case: its text is deleted, its place kept; False when
        they had none (or it was withdrawn already)."""
        return await self.driver.execute(WITHDRAW_CALL, (at, case_id, author_id)) == 1

    async def reveal_calls(self, case_id: str, at: int) -> None:
        """Show the case's calls to its readers from now on (the first reveal's time is kept)."""
        await self.driver.execute(REVEAL, (case_id, at))

    async def set_outcome(self, case_id: str, owner_id: int, text: str, at: int, *, vote: bool = False) -> None:
        """Record (or correct) what happened, sealed under the owner's key; the calls are revealed.
        With ``vote``, the calls are marked by a vote of the members who made none (``vote_call``)."""
        if "\x00" in text:
            raise ValueError("text with a NUL character (U+0000) is not stored")
        key, _ = await self._member_keys.of(owner_id, case=True)
        assert key is not None
        await self.driver.execute(SET_OUTCOME, (case_id, at, seal_text(key, text, f"o:{case_id}"), at, int(vote)))

    async def outcome(self, case_id: str) -> Outcome | None:
        rows = await self.driver.fetch(OUTCOME, (case_id,))
        return outcome_of(rows[0]) if rows else None

    async def mark_call(self, call_id: int, case_id: str, mark: str) -> bool:
        """Mark a call on the case hit, partly or missed; False when it is not there (or withdrawn)."""
        if as_mark(mark) is None:
            raise ValueError(f"unknown mark {mark!r}")
        return await self.driver.execute(MARK_CALL, (mark, call_id, case_id)) == 1

    async def vote_call(self, call_id: int, case_id: str, voter_id: int, mark: str, at: int) -> bool:
        """Record a member's vote on a call of the case (their earlier vote on it replaced) and mark
        the call by the votes (``MARK_BY_VOTES``); False when the call is not there (or withdrawn).
        Who may vote is the caller's rule: the members who made no call on the case."""
        if as_mark(mark) is None:
            raise ValueError(f"unknown mark {mark!r}")
        voted, marked = await self.driver.transaction([
            (VOTE, (call_id, voter_id, mark, at, call_id, case_id)), (MARK_BY_VOTES, (call_id, case_id))])
        return voted == 1 and marked == 1

    async def recorded_calls(self, guild_id: int | None, author_id: int | None,
                             limit: int) -> tuple[tuple[Case, Call, int | None], ...]:
        """The newest ``limit`` calls on the server's cases (``guild_id``), of the member
        (``author_id``), or both: each with its case and when the case's calls were revealed."""
        where, params = [], []
        if guild_id is not None:
            where.append("cs.guild_id = ?")
            params.append(guild_id)
        if author_id is not None:
            where.append("cc.author_id = ?")
            params.append(author_id)
        if not where:
            raise ValueError("the record is of a server, a member or both")
        rows = await self.driver.fetch(RECORD.format(where=" AND ".join(where)), (*params, limit))
        width = len(CASE_COLUMNS.split(","))
        return tuple((case_of(r[:width]), call_of(r[width:width + 9]), _opt_int(r[width + 9])) for r in rows)
