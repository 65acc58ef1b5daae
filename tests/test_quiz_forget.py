"""Forgetting a member's quiz answers (docs/privacy.md): the store's forget_quiz_answers on both
backends, and /quiz me's two buttons end to end on the real discord.py client against the local
Discord stand-in — the answers are gone everywhere, the member leaves every leaderboard, and a quiz
under way no longer counts them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.core.host import LiurenBot
from bot.core.words import text
from bot.store import QuizAnswer, QuizRow, QuizScore, Store, epoch, open_store
from engine.school import DEFAULT_SCHOOL
from testkit.daily_harness import Clock
from testkit.discord_standin import Callback, DiscordStandIn, snowflake
from tests.conftest import StartBot
from tests.test_quiz_e2e import START, content, messages, press, quizzes, running, wrong_number
from texts.quiz import make_round, render_score

T0 = 1_800_000_000
GUILD, OTHER_GUILD = 1 << 22, 2 << 22
ALICE, BOB = 11, 12
SPEC = Path("/work/shared/discord-api-spec/openapi.json")


# -- the store, on SQLite and PostgreSQL --------------------------------------------------------


@pytest.fixture
async def store(store_location: str) -> AsyncIterator[Store]:
    opened = await open_store(store_location)
    yield opened
    await opened.close()


async def quiz_in(store: Store, guild: int, channel: int) -> QuizRow:
    row = await store.create_quiz(guild, channel, ALICE, "en-US", "easy", 3, 42, DEFAULT_SCHOOL, 30, T0 + 30, T0)
    assert row is not None
    return row


def answer(quiz: QuizRow, question: int, user: int, correct: bool) -> QuizAnswer:
    return QuizAnswer(quiz.id, question, user, 1, correct, "元首", "51", T0 + question)


async def test_forget_deletes_every_answer_of_the_member_and_only_theirs(store: Store) -> None:
    ended = await quiz_in(store, GUILD, 100)
    running_here = await quiz_in(store, GUILD, 101)
    elsewhere = await quiz_in(store, OTHER_GUILD, 200)
    given = [answer(ended, 1, ALICE, True), answer(ended, 2, ALICE, False), answer(ended, 1, BOB, False),
             answer(running_here, 1, ALICE, True), answer(running_here, 1, BOB, True),
             answer(elsewhere, 1, ALICE, True)]
    for a in given:
        assert await store.add_quiz_answer(a)
    assert await store.end_quiz(ended.id, "done", T0 + 60)
    assert [s.user_id for s in await store.quiz_scores(GUILD, None, None, 10)] == [ALICE, BOB]
    assert await store.quiz_topics(OTHER_GUILD, ALICE)

    assert await store.forget_quiz_answers(ALICE) == 4
    for quiz in (ended, running_here, elsewhere):
        assert ALICE not in {a.user_id for a in await store.quiz_answers(quiz.id)}
    assert [a.user_id for a in await store.quiz_answers(ended.id)] == [BOB]
    assert await store.quiz_answers(running_here.id, 1) == (answer(running_here, 1, BOB, True),)
    assert await store.quiz_scores(GUILD, None, None, 10) == (QuizScore(BOB, 1, 2),)
    assert await store.quiz_scores(GUILD, "easy", T0, 10) == (QuizScore(BOB, 1, 2),)
    assert await store.quiz_scores(OTHER_GUILD, None, None, 10) == ()
    assert await store.quiz_topics(GUILD, ALICE) == ()
    assert await store.quiz_topics(OTHER_GUILD, ALICE) == ()
    assert await store.quiz_topics(GUILD, BOB) != ()
    assert await store.forget_quiz_answers(ALICE) == 0  # nothing is left to forget
    # The quizzes themselves stay (the running one runs on); an answer given afterwards is a new one.
    still = await store.running_quiz(101)
    assert still is not None and still.id == running_here.id
    assert await store.add_quiz_answer(answer(running_here, 1, ALICE, False))
    assert await store.forget_quiz_answers(ALICE) == 1


# -- end to end: /quiz me's buttons -------------------------------------------------------------


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return loaded


def ephemeral_message(standin: DiscordStandIn, callback: Callback) -> dict[str, Any]:
    """The ephemeral message a reply (or an edit of it) made, as Discord would send it with a press."""
    return {
        "id": str(snowflake()), "channel_id": str(standin.guilds[0].channels[0].id), "type": 20,
        "content": callback.data.get("content", ""), "embeds": callback.embeds,
        "components": callback.data.get("components", []),
        "author": {"id": str(standin.bot_user_id), "username": "liuren", "discriminator": "0000",
                   "global_name": None, "avatar": None, "bot": True},
        "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "pinned": False,
        "flags": 64, "webhook_id": str(standin.application_id), "application_id": str(standin.application_id),
    }


def button(standin: DiscordStandIn, callback: Callback, spec: dict[str, Any], style: str) -> dict[str, Any]:
    """The reply's one button, checked against Discord's spec for a message's button, of ``style``."""
    [found] = standin.buttons({"components": callback.data.get("components", [])})
    schema = spec["components"]["schemas"]["ButtonComponentForMessageRequest"]
    assert set(found) <= set(schema["properties"]) and set(schema["required"]) <= set(found), found
    assert len(found["label"]) <= schema["properties"]["label"]["maxLength"]
    assert len(found["custom_id"]) <= schema["properties"]["custom_id"]["maxLength"]
    styles = {s["title"]: int(s["const"]) for s in spec["components"]["schemas"]["ButtonStyleTypes"]["oneOf"]}
    assert found["style"] == styles[style]
    return found


async def test_forgetting_mid_quiz_empties_the_scores_and_the_leaderboard(
    standin: DiscordStandIn, start_bot: StartBot, clock: Clock, spec: dict[str, Any], db_path: Path
) -> None:
    alice, bob = snowflake(), snowflake()
    channel = standin.guilds[0].channels[0].id
    # An answer of Alice's in another server's ended quiz (stored before the bot starts, which would
    # otherwise try to go on with it): forgetting reaches it too.
    earlier = await open_store(db_path)
    at = epoch(START) - 3600
    other = await earlier.create_quiz(OTHER_GUILD, 300, alice, "en-US", "easy", 1, 1, DEFAULT_SCHOOL, 30, at + 30, at)
    assert other is not None
    assert await earlier.add_quiz_answer(QuizAnswer(other.id, 1, alice, 1, True, "元首", "51", at + 5))
    assert await earlier.end_quiz(other.id, "done", at + 30)
    await earlier.close()
    bot: LiurenBot = await start_bot(clock=clock)
    quizzes(bot).new_seed = lambda: 7
    questions = make_round("easy", 2, seed=7, school=DEFAULT_SCHOOL)

    await standin.slash("quiz start", {"level": "easy", "questions": 2, "seconds": 30}, locale="en-US",
                        user_id=alice)
    row = await running(bot, channel)
    (first,) = await messages(standin, channel, 1)
    await press(standin, first, row, 1, questions[0].number, alice)
    await press(standin, first, row, 1, wrong_number(questions[0]), bob)
    clock.now = START + timedelta(seconds=30)
    await quizzes(bot).run_due()
    second = (await messages(standin, channel, 3))[2]
    row = await running(bot, channel)
    await press(standin, second, row, 2, questions[1].number, alice)
    assert len(await bot.store.quiz_answers(row.id)) == 3

    # /quiz me offers the button; a first press asks, on the same message, the second deletes.
    me = await standin.slash("quiz me", {}, locale="en-US", user_id=alice)
    assert me.ephemeral and me.embeds
    offer = button(standin, me, spec, "SECONDARY")
    assert offer["label"] == text("quiz.forget_button", "en")
    stranger = await standin.press(ephemeral_message(standin, me), offer["custom_id"], user_id=bob, locale="en-US")
    assert stranger.ephemeral and content(stranger) == text("quiz.forget_not_yours", "en")
    asked = await standin.press(ephemeral_message(standin, me), offer["custom_id"], user_id=alice, locale="en-US")
    assert asked.type == 7 and content(asked) == text("quiz.forget_ask", "en") and asked.embeds == []
    sure = button(standin, asked, spec, "DANGER")
    assert sure["label"] == text("quiz.forget_confirm", "en") and sure["custom_id"] != offer["custom_id"]
    assert len(await bot.store.quiz_answers(row.id)) == 3  # nothing is deleted before the second press
    done = await standin.press(ephemeral_message(standin, asked), sure["custom_id"], user_id=alice, locale="en-US")
    assert done.type == 7 and content(done) == text("quiz.forgotten", "en", count=3)
    assert done.data.get("components") == [] and done.embeds == []
    assert [a.user_id for a in await bot.store.quiz_answers(row.id)] == [bob]
    assert await bot.store.quiz_answers(other.id) == ()

    # The quiz goes on without Alice's answers: nobody answered question 2, and the scores are Bob's.
    clock.now = START + timedelta(seconds=60)
    await quizzes(bot).run_due()
    posted = await messages(standin, channel, 5)
    assert text("quiz.nobody", "en") in posted[3]["embeds"][0]["description"]
    assert posted[4]["embeds"][0]["description"].splitlines() == [
        text("quiz.final_line", "en", rank=1, member=f"<@{bob}>", score=render_score(0, 1, "en")),
    ]
    board = await standin.slash("quiz leaderboard", {}, locale="en-US", user_id=bob)
    values = "\n".join(f["value"] for f in board.embeds[0]["fields"])
    assert f"<@{alice}>" not in values and f"<@{bob}>" in values
    nothing = await standin.slash("quiz me", {}, locale="en-US", user_id=alice)
    assert content(nothing) == text("quiz.me_none", "en")
    button(standin, nothing, spec, "SECONDARY")  # still offered: answers may be in other servers
    again = await standin.press(ephemeral_message(standin, asked), sure["custom_id"], user_id=alice, locale="ja")
    assert content(again) == text("quiz.forgotten", "ja", count=0)
    assert not [r for r in standin.requests if r.status >= 400]
