"""What users type, held to what the commands declare and shown back as typed: the real bot against
the local Discord stand-in, with raw requests a Discord client would not send.

Options outside their declared range or length are refused naming the bound; a lone surrogate is
refused like a NUL; a zone word after the time that names no zone is refused; markdown and
mentions in a question or a note are shown as characters, not rendered."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.core.words import text
from testkit.discord_standin import DiscordStandIn
from tests.conftest import StartBot
from tests.test_casebook_e2e import case_id, ephemeral_text
from tests.test_forms import form_payload

NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
LINK = "[FREE NITRO](https://example.com/nitro)"


def clock() -> datetime:
    return NOW


def stored(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


async def test_options_outside_their_declared_bounds_are_refused_naming_the_bound(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    await start_bot(clock=clock)
    part = await standin.slash("case export", {"part": -5}, locale="en-US")
    assert ephemeral_text(part) == text("error.option_range", "en", option="part", min=1, max=1000, value=-5)
    quiz = await standin.slash("quiz start", {"questions": 622, "seconds": 1}, locale="en-US")
    assert ephemeral_text(quiz) == text("error.option_range", "en", option="questions", min=1, max=20, value=622)
    long = await standin.slash("cast", {"when": "now", "question": "問" * 6000}, locale="en-US")
    assert ephemeral_text(long) == text("error.option_length", "en", option="question", min=1, max=300,
                                        length="6,000")
    assert stored(db_path, "cases") == 0 and stored(db_path, "quizzes") == 0


async def test_a_lone_surrogate_is_refused_like_a_nul(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    await start_bot(clock=clock)
    asked = await standin.slash("cast", {"when": "now", "question": "half \ud800 a pair"}, locale="en-US")
    assert ephemeral_text(asked) == text("error.option_surrogate", "en", option="question")
    ident = case_id(await standin.slash("cast", {"when": "now", "image": False}, locale="en-US"))
    note = await standin.interact(form_payload(standin, f"lr:n:{ident}", "half \udc00", locale="en-US"))
    assert ephemeral_text(note) == text("case.text_surrogate", "en")
    assert stored(db_path, "cases") == 1 and stored(db_path, "case_notes") == 0


async def test_a_zone_word_after_the_time_that_names_no_zone_is_refused(
    standin: DiscordStandIn, start_bot: StartBot, db_path: Path
) -> None:
    await start_bot(clock=clock)
    refused = await standin.slash("cast", {"when": "14:00 T"}, locale="en-US")
    assert ephemeral_text(refused) == text("error.zone", "en", zone="T")
    assert stored(db_path, "cases") == 0
    assert (await standin.slash("cast", {"when": "14:00 JST", "image": False})).embeds  # a zone's own word still reads


async def test_markdown_in_a_question_and_a_note_is_shown_as_typed(
    standin: DiscordStandIn, start_bot: StartBot
) -> None:
    await start_bot(clock=clock)
    cast = await standin.slash("cast", {"when": "now", "image": False, "question": f"{LINK} **now** @everyone"})
    description = cast.embeds[0]["description"]
    assert "\\" + LINK in description and "\\*\\*now\\*\\*" in description, description
    assert "@everyone" not in description
    ident = case_id(cast)
    await standin.slash("case note", {"id": ident, "text": f"see {LINK}"})
    shown = await standin.slash("case show", {"id": ident})
    notes = [e["description"] for e in shown.embeds if LINK in (e.get("description") or "")]
    assert notes and all("\\" + LINK in n for n in notes), notes
    history = await standin.slash("history", {})
    listed = history.embeds[0]["description"]
    assert "\\[FREE NITRO" in listed, listed
