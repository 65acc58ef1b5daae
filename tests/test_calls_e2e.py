"""Calls on a case, end to end against the local Discord stand-in: sealed and hidden until the
owner reveals them, never edited, marked, counted by the record, exported with fingerprints anyone
can recompute, and gone from the database's files when their member deletes their data."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.core.words import text
from testkit.discord_standin import DiscordStandIn, snowflake
from tests.conftest import StartBot
from tests.test_casebook_e2e import case_id, clock, custom_ids, ephemeral_text, message_of, press
from tests.test_privacy import exported_rows

CALLS = {"ann": "the letter arrives on Thursday", "bob": "it is lost for good", "cy": "it comes back torn"}


def fingerprint_of(case: str, call: dict[str, str]) -> str:
    """The fingerprint as docs/usage.md tells anyone to recompute it from an export."""
    canonical = "\n".join(("liuren-call-1", case, call["author_id"], call["made_at"], call["text"]))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


def db_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name))


async def test_three_calls_hidden_until_revealed_marked_counted_exported_and_deleted(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    await start_bot(clock=clock)
    owner = standin.user_id
    members = {name: snowflake() for name in CALLS}
    case = case_id(await standin.slash("cast", {"when": "now", "question": "Will my letter arrive?",
                                                "image": False}, locale="en-US"))
    sealed: dict[str, str] = {}
    for name, call in CALLS.items():
        reply = ephemeral_text(await standin.slash("case call", {"id": case, "text": call}, user_id=members[name],
                                                   locale="en-US"))
        assert reply.startswith("🔏") and case in reply
        sealed[name] = reply
    # Nobody sees another's call before the reveal, the owner included.
    for name, call in CALLS.items():
        seen = ephemeral_text(await standin.slash("case calls", {"id": case}, user_id=members[name], locale="en-US"))
        assert call in seen and all(other not in seen for other in CALLS.values() if other != call)
    by_owner = ephemeral_text(await standin.slash("case calls", {"id": case}, locale="en-US"))
    assert not any(call in by_owner for call in CALLS.values()) and by_owner.count("hidden until revealed") == 3
    # A call cannot be edited: a second one is refused and the first stays.
    again = await standin.slash("case call", {"id": case, "text": "it arrives on Friday"}, user_id=members["ann"],
                                locale="en-US")
    assert ephemeral_text(again) == text("call.one_only", "en", id=case)
    # Only the owner reveals, records the outcome and marks.
    refused = await standin.slash("case reveal", {"id": case}, user_id=members["bob"], locale="en-US")
    assert ephemeral_text(refused) == text("case.author_only", "en", id=case)
    early = await standin.slash("case mark", {"id": case, "call": 1, "mark": "hit"}, locale="en-US")
    assert ephemeral_text(early) == text("call.outcome_first", "en", id=case)
    outcome = await standin.slash("case outcome", {"id": case, "text": "It came on Thursday."}, locale="en-US")
    assert ephemeral_text(outcome) == text("call.outcome_saved", "en", id=case)
    for number, mark in ((1, "hit"), (2, "missed"), (3, "partly")):
        marked = await standin.slash("case mark", {"id": case, "call": number, "mark": mark}, locale="en-US")
        assert ephemeral_text(marked) == text("call.marked", "en", id=case, number=number,
                                              mark=text(f"call.mark.{mark}", "en"))
    stranger = await standin.slash("case mark", {"id": case, "call": 1, "mark": "missed"}, user_id=members["cy"],
                                   locale="en-US")
    assert ephemeral_text(stranger) == text("case.author_only", "en", id=case)
    late = await standin.slash("case call", {"id": case, "text": "after the fact"}, user_id=snowflake(), locale="en-US")
    assert ephemeral_text(late) == text("call.revealed_already", "en", id=case)
    revealed = ephemeral_text(await standin.slash("case calls", {"id": case}, user_id=members["bob"], locale="en-US"))
    assert all(call in revealed for call in CALLS.values()) and "It came on Thursday." in revealed
    # The record counts them: in the server, and each member's own.
    server = ephemeral_text(await standin.slash("case record", {"scope": "server"}, locale="en-US"))
    assert "All: calls made 3, revealed 3, marked 3 (hit 1, partly 1, missed 1)" in server
    assert "hit rate" not in server  # three marked calls: counts, not a percentage
    own = ephemeral_text(await standin.slash("case record", {}, user_id=members["ann"], locale="en-US"))
    assert "All: calls made 1, revealed 1, marked 1 (hit 1, partly 0, missed 0)" in own
    # The export carries each call's fingerprint; recomputed from the exported fields, it matches.
    exported = await standin.slash("case export", {}, user_id=members["ann"], locale="en-US")
    [message] = await standin.followups(exported)
    [row] = [r for r in exported_rows(message) if r["id"] == case]
    assert [c["text"] for c in row["calls"]] == list(CALLS.values())
    for call, name in zip(row["calls"], CALLS, strict=True):
        assert call["author_id"] == str(members[name])
        assert call["fingerprint"] == fingerprint_of(case, call) and f"`{call['fingerprint']}`" in sealed[name]
        assert datetime.fromisoformat(call["made_at"]) == clock().astimezone(UTC)
    assert [c["mark"] for c in row["calls"]] == ["hit", "missed", "partly"]
    # "Delete my data": Ann's call leaves the database's files, text and key; a revealed one stays as withdrawn.
    with sqlite3.connect(db_path) as conn:
        [(key,)] = conn.execute("SELECT case_key FROM member_keys WHERE user_id = ?", (members["ann"],)).fetchall()
    assert bytes(key) in db_bytes(db_path)  # what the search below must not find once she deletes
    deleted = await standin.slash("profile delete", {}, user_id=members["ann"], locale="en-US")
    [button] = custom_ids(deleted)
    await press(standin, message_of(standin, deleted), button, user_id=members["ann"], locale="en-US")
    files = db_bytes(db_path)
    assert bytes(key) not in files and CALLS["ann"].encode() not in files
    after = ephemeral_text(await standin.slash("case calls", {"id": case}, locale="en-US"))
    assert CALLS["ann"] not in after and "1. (deleted member)" in after and "withdrawn" in after
    assert CALLS["bob"] in after
    server = ephemeral_text(await standin.slash("case record", {"scope": "server"}, locale="en-US"))
    assert "All: calls made 3, revealed 2, marked 2 (hit 0, partly 1, missed 1), 1 withdrawn" in server
    assert owner not in members.values()


async def test_a_call_delivered_twice_is_sealed_once_and_answered_alike(standin: DiscordStandIn,
                                                                        start_bot: StartBot, db_path: Path) -> None:
    await start_bot(clock=clock)
    case = case_id(await standin.slash("cast", {"when": "now", "image": False}, locale="en-US"))
    member = snowflake()
    payload = standin.interaction_payload("case call", {"id": case, "text": "soon"}, user_id=member, locale="en-US")
    first = ephemeral_text(await standin.interact(payload))
    second = ephemeral_text(await standin.interact(json.loads(json.dumps(payload))))
    assert first == second and first.startswith("🔏")
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM case_calls").fetchone() == (1,)


async def test_where_the_owner_chooses_a_vote_the_members_who_made_no_call_mark_the_calls(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    caller, voters = snowflake(), [snowflake() for _ in range(3)]
    case = case_id(await standin.slash("cast", {"when": "now", "image": False}, locale="en-US"))
    await standin.slash("case call", {"id": case, "text": "by spring"}, user_id=caller, locale="en-US")
    outcome = await standin.slash("case outcome", {"id": case, "text": "in summer", "vote": True}, locale="en-US")
    assert ephemeral_text(outcome) == text("call.outcome_vote", "en", id=case)
    own = await standin.slash("case mark", {"id": case, "call": 1, "mark": "hit"}, user_id=caller, locale="en-US")
    assert ephemeral_text(own) == text("call.callers_do_not_vote", "en", id=case)
    for voter, mark in zip(voters, ("missed", "partly", "missed"), strict=True):
        voted = await standin.slash("case mark", {"id": case, "call": 1, "mark": mark}, user_id=voter,
                                    locale="en-US")
        assert ephemeral_text(voted) == text("call.voted", "en", id=case, number=1,
                                             mark=text(f"call.mark.{mark}", "en"))
    shown = ephemeral_text(await standin.slash("case calls", {"id": case}, user_id=caller, locale="en-US"))
    assert "by spring" in shown and text("call.mark.missed", "en") in shown
    record = ephemeral_text(await standin.slash("case record", {}, user_id=caller, locale="en-US"))
    assert "marked 1 (hit 0, partly 0, missed 1)" in record
