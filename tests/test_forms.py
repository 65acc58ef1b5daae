"""Forms and the casebook's commands go through the one watchdog and a cooldown per kind: the real
bot against the local Discord stand-in. A note form sent while the database stalls is acknowledged
in time and kept once, even when the same interaction arrives twice; a script sending forms is
held by the form cooldown; every casebook command has a cooldown."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.core.cooldowns import RATES
from bot.core.words import text
from bot.store import rows
from bot.store import sql as q
from testkit.discord_standin import Callback, DiscordStandIn, snowflake
from tests.conftest import StartBot
from tests.test_casebook_e2e import case_id, ephemeral_text

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
STALL = 3.3  # seconds the injected stall holds a note's insert: past Discord's 3 s


def clock() -> datetime:
    return NOW


def form_payload(standin: DiscordStandIn, custom_id: str, note: str, **kwargs: Any) -> dict[str, Any]:
    """A note form's submission, as Discord sends it (a modal opened from the chart's button)."""
    payload = standin.interaction_payload("cast", {}, **kwargs)
    payload["type"] = 5
    payload["data"] = {"custom_id": custom_id, "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "note", "value": note}]}]}
    return payload


def notes_in(db: Path) -> list[str]:
    """Every note's text in the file, opened as the store opens it (sealed under its author's key)."""
    with sqlite3.connect(db) as conn:
        found = conn.execute(f"SELECT {q.NOTE_COLUMNS}, body_sealed, k.case_key FROM case_notes LEFT JOIN member_keys "
                             "AS k ON k.user_id = case_notes.author_id ORDER BY id")
        return [rows.note_of(r).body for r in found]


async def followup_text(standin: DiscordStandIn, callback: Callback, timeout: float = 10) -> str:
    [sent] = await standin.followups(callback, timeout=timeout)
    assert isinstance(sent.body, dict)
    return str(sent.body.get("content"))


async def test_a_form_during_a_store_stall_is_acknowledged_and_kept_once_when_delivered_twice(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    bot = await start_bot(clock=clock)
    ident = case_id(await standin.slash("cast", {"when": "now", "image": False}, locale="en-US"))
    fetch = bot.store.driver.fetch

    async def stalled(statement: str, params: Any = ()) -> Any:  # the disk stalls under the note's insert
        if statement.startswith("INSERT INTO case_notes"):
            await asyncio.sleep(STALL)
        return await fetch(statement, params)

    bot.store.driver.fetch = stalled
    payload = form_payload(standin, f"lr:n:{ident}", "Kept once.", locale="en-US")
    first = asyncio.ensure_future(standin.interact(payload, timeout=10))
    await asyncio.sleep(0.2)
    again = dict(payload)  # the same interaction delivered a second time (a retry)
    await standin.dispatch("INTERACTION_CREATE", again)
    callback = await first
    assert callback.elapsed < 3.0 and callback.type == 6, callback.body  # deferred before the deadline
    assert await followup_text(standin, callback) == text("case.note_added", "en", id=ident, number=1)
    for _ in range(100):  # the second delivery's insert comes back from its stall too
        await asyncio.sleep(0.05)
        if len([r for r in standin.requests if r.path.startswith(f"/webhooks/{standin.application_id}/")]) >= 2:
            break
    assert notes_in(db_path) == ["Kept once."]


async def test_sixty_forms_in_a_row_are_held_by_the_form_cooldown(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    await start_bot(clock=clock)
    ident = case_id(await standin.slash("cast", {"when": "now", "image": False}, locale="en-US"))
    answers = [await standin.interact(form_payload(standin, f"lr:n:{ident}", f"note {n}", locale="en-US"))
               for n in range(60)]
    rate = RATES["form"]
    kept = [ephemeral_text(a) for a in answers[:rate.uses]]
    assert kept == [text("case.note_added", "en", id=ident, number=n) for n in range(1, rate.uses + 1)]
    held = [ephemeral_text(a) for a in answers[rate.uses:]]
    assert all(h.startswith(text("error.cooldown", "en", seconds=1).split("1")[0]) for h in held), held[:2]
    assert len(notes_in(db_path)) == rate.uses


async def test_each_casebook_command_has_a_cooldown(standin: DiscordStandIn, start_bot: StartBot) -> None:
    await start_bot(clock=clock)
    ident = case_id(await standin.slash("cast", {"when": "now", "image": False}, locale="en-US"))
    commands: dict[str, tuple[str, dict[str, Any]]] = {
        "case note": ("case", {"id": ident, "text": "again"}),
        "case show": ("case", {"id": ident}),
        "case export": ("export", {}),
        "history": ("case", {}),
        "profile set": ("case", {"birth_year": 1990, "sex": "女"}),
    }
    for name, (kind, options) in commands.items():
        user = snowflake()
        for _ in range(RATES[kind].uses):
            await standin.slash(name, options, user_id=user, locale="en-US")
            await asyncio.sleep(0)
        refused = await standin.slash(name, options, user_id=user, locale="en-US")
        content = str(refused.data.get("content"))
        assert refused.type == 4 and refused.ephemeral and content.startswith("Please try again in"), (name, content)
