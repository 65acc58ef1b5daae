"""End to end: /quiz on the real discord.py client against the local Discord stand-in.

The bot's clock is the test's; after moving it, a test calls ``quizzes(bot).run_due()``, which
returns once the due questions are revealed and the next ones asked. Members answer by pressing
the buttons of the question message as the stand-in stored it (``standin.press``).
"""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol, cast

import pytest

from bot.core.host import LiurenBot
from bot.core.words import text
from bot.quiz.service import QuizService
from bot.quiz.views import custom_id
from bot.store import QuizRow, epoch
from engine.school import DEFAULT_SCHOOL
from testkit.daily_harness import Clock, utc
from testkit.discord_standin import Callback, DiscordStandIn, snowflake
from tests.conftest import StartBot
from texts.quiz import Kind, Question, make_round, render_board, render_reveal, render_score
from texts.words.explain import explain

ALICE, BOB = snowflake(), snowflake()
START = utc(2026, 11, 29, 5, 0)


def seed_where(level: str, count: int, wanted: list[Kind | None]) -> int:
    """A seed whose round asks, question by question, a question with a trace (None: any kind)
    of the wanted kind — so the reveal has a trace to quote."""
    for seed in range(1, 500):
        round_ = make_round(level, count, seed=seed)
        if all(q.explanation.trace and (k is None or q.kind is k) for q, k in zip(round_, wanted, strict=True)):
            return seed
    raise AssertionError("no such seed")


async def messages(standin: DiscordStandIn, channel: int, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
    """The channel's first ``count`` messages, waiting for them to be posted."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(standin.messages.get(channel, [])) < count:
        if loop.time() > deadline:
            posted = [m.get("embeds") or m.get("content") for m in standin.messages.get(channel, [])]
            raise TimeoutError(f"{count} messages expected in channel {channel}, got {posted}")
        await asyncio.sleep(0.01)
    return standin.messages[channel][:count]


def description(message: dict[str, Any]) -> str:
    return str(message["embeds"][0]["description"])


def content(callback: Callback) -> str:
    return str(callback.data.get("content", ""))


def wrong_number(q: Question) -> int:
    return next(i for i in range(1, len(q.choices) + 1) if i != q.number)


async def press(standin: DiscordStandIn, message: dict[str, Any], row: QuizRow, question: int, choice: int,
                user: int, locale: str = "en-US") -> Callback:
    callback = await standin.press(message, custom_id(row.id, question, choice), user_id=user, locale=locale)
    assert callback.type == 4 and callback.ephemeral, callback.body
    return callback


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


def quizzes(bot: LiurenBot) -> QuizService:
    """The /quiz service, held by the quiz cog."""
    # By name: discord.py drops an unloaded extension's modules, so a restarted bot has new classes.
    cog = bot.get_cog("Quiz")
    assert cog is not None
    return cast(_Quiz, cog).service


class _Quiz(Protocol):
    service: QuizService


async def running(bot: LiurenBot, channel: int) -> QuizRow:
    row = await bot.store.running_quiz(channel)
    assert row is not None
    return row


async def test_three_questions_two_members_and_the_leaderboard_after_a_restart(
    standin: DiscordStandIn, start_bot: StartBot, clock: Clock
) -> None:
    seed = seed_where("easy", 3, [None, None, None])
    channel = standin.guilds[0].channels[0].id
    bot: LiurenBot = await start_bot(clock=clock)
    quizzes(bot).new_seed = lambda: seed
    names = {c["name"]: c for c in standin.global_commands}
    assert {o["name"] for o in names["quiz"]["options"]} == {"start", "stop", "leaderboard", "me"}

    started = await standin.slash("quiz start", {"level": "easy", "questions": 3, "seconds": 30},
                                  locale="en-US", user_id=ALICE)
    assert started.type == 4 and not started.ephemeral
    assert content(started).startswith("📚") and "30" in content(started)
    row = await running(bot, channel)
    assert (row.level, row.count, row.seed, row.seconds, row.question) == ("easy", 3, seed, 30, 1)
    assert row.deadline == epoch(START) + 30
    questions = make_round("easy", 3, seed=seed, school=DEFAULT_SCHOOL)

    # A second start in the same channel is refused, only to the one who asked.
    again = await standin.slash("quiz start", {}, locale="en-US", user_id=BOB)
    assert again.ephemeral and content(again) == text("quiz.running", "en")

    # Question 1: the board (no 三伝, no 課名) and one button per choice.
    (first,) = await messages(standin, channel, 1)
    q1 = questions[0]
    board = re.search(r"```\n(.*?)\n```", description(first), re.S)
    assert board is not None and board[1] == render_board(q1, "en")
    assert q1.chart.transmissions.name not in board[1]
    assert [b["custom_id"] for b in standin.buttons(first)] == [custom_id(row.id, 1, n) for n in (1, 2, 3, 4)]

    recorded = await press(standin, first, row, 1, q1.number, ALICE)
    assert content(recorded).startswith(text("quiz.recorded", "en", choice="").split(":")[0])
    await press(standin, first, row, 1, wrong_number(q1), BOB, locale="ja")
    twice = await press(standin, first, row, 1, wrong_number(q1), ALICE)
    assert content(twice) == text("quiz.already", "en")

    # Time is up: the answer, who got it, and why (the trace, quoted), then question 2.
    clock.now = START + timedelta(seconds=30)
    await quizzes(bot).run_due()
    _, reveal, second = await messages(standin, channel, 3)
    shown = description(reveal)
    assert text("quiz.right_members", "en", members=f"<@{ALICE}>") in shown
    assert text("quiz.wrong_members", "en", members=f"<@{BOB}>") in shown
    assert render_reveal(q1, "en") in shown
    assert q1.explanation.trace and all(explain(why, "en") in shown for why in q1.explanation.trace)
    late = await press(standin, first, row, 1, q1.number, BOB)  # question 1 is closed now
    assert content(late) == text("quiz.closed", "en")

    # Question 2: only Alice answers, rightly.
    row = await running(bot, channel)
    assert (row.question, row.deadline) == (2, epoch(START) + 60)
    q2 = questions[1]
    await press(standin, second, row, 2, q2.number, ALICE)
    clock.now = START + timedelta(seconds=60)
    await quizzes(bot).run_due()
    third = (await messages(standin, channel, 5))[4]
    q3 = questions[2]
    await press(standin, third, row, 3, wrong_number(q3), ALICE)

    # A restart on the same database: the quiz goes on, and a button posted before it still works.
    await bot.close()
    bot = await start_bot(clock=clock)
    await asyncio.wait_for(quizzes(bot).resumed.wait(), 5)
    row = await running(bot, channel)
    assert row.question == 3
    assert len(standin.messages[channel]) == 5  # the question was not posted again
    await press(standin, third, row, 3, q3.number, BOB, locale="ja")
    again_alice = await press(standin, third, row, 3, q3.number, ALICE)
    assert content(again_alice) == text("quiz.already", "en")

    clock.now = START + timedelta(seconds=90)
    await quizzes(bot).run_due()
    posted = await messages(standin, channel, 7)
    assert render_reveal(q3, "en") in description(posted[5])
    final = description(posted[6])
    assert final.splitlines() == [
        text("quiz.final_line", "en", rank=1, member=f"<@{ALICE}>", score=render_score(2, 3, "en")),
        text("quiz.final_line", "en", rank=2, member=f"<@{BOB}>", score=render_score(1, 2, "en")),
    ]
    assert await bot.store.running_quiz(channel) is None

    # Another restart, then the scores: Alice 2 of 3, Bob 1 of 2, all time and in the last 30 days.
    await bot.close()
    bot = await start_bot(clock=clock)
    board_reply = await standin.slash("quiz leaderboard", {}, locale="en-US", user_id=BOB)
    assert not board_reply.ephemeral
    fields = {f["name"]: f["value"] for f in board_reply.embeds[0]["fields"]}
    level = "easy (元首, 重審)"
    expected = "\n".join((
        text("quiz.board_line", "en", rank=1, member=f"<@{ALICE}>", right=2, asked=3, percent=67),
        text("quiz.board_line", "en", rank=2, member=f"<@{BOB}>", right=1, asked=2, percent=50),
    ))
    assert fields == {
        text("quiz.all_time", "en", level=level): expected,
        text("quiz.recent", "en", level=level): expected,
    }
    # …and 31 days on, the last 30 days are empty while the all-time list stays.
    clock.now = START + timedelta(days=31)
    later = await standin.slash("quiz leaderboard", {"level": "easy"}, locale="en-US")
    fields = {f["name"]: f["value"] for f in later.embeds[0]["fields"]}
    assert fields[text("quiz.all_time", "en", level=level)] == expected
    assert fields[text("quiz.recent", "en", level=level)] == "—"

    # /quiz me: only to the member, per method, with the seed ¶ to read.
    me = await standin.slash("quiz me", {}, locale="en-US", user_id=ALICE)
    assert me.ephemeral
    mine = me.embeds[0]["description"]
    assert mine.splitlines()[0] == "**easy (元首, 重審)** 2/3 (67%)"
    for q in questions:
        assert f"{q.topic.value}: " in mine and f"`/lookup term:{q.topic.value}`" in mine
    assert "¶51" in mine  # 元首 and 重審 are taught in ¶51
    assert not [r for r in standin.requests if r.status >= 400]


async def test_stop_then_start_again(standin: DiscordStandIn, start_bot: StartBot, clock: Clock) -> None:
    channel = standin.guilds[0].channels[0].id
    bot: LiurenBot = await start_bot(clock=clock)
    missing = await standin.slash("quiz stop", {}, locale="en-US")
    assert missing.ephemeral and content(missing) == text("quiz.none_running", "en")
    await standin.slash("quiz start", {"questions": 2, "seconds": 10}, locale="en-US", user_id=ALICE)
    (question,) = await messages(standin, channel, 1)
    row = await running(bot, channel)
    # Neither the starter nor a message manager: refused.
    denied = await standin.slash("quiz stop", {}, locale="en-US", user_id=BOB)
    assert denied.ephemeral and content(denied) == text("quiz.stop_denied", "en")
    stopped = await standin.slash("quiz stop", {}, locale="en-US", user_id=ALICE)
    assert stopped.ephemeral
    notice = (await messages(standin, channel, 2))[1]
    assert notice["content"] == text("quiz.stopped", "en", user=f"<@{ALICE}>")
    assert description(notice) == text("quiz.nobody", "en")
    closed = await press(standin, question, row, 1, 1, BOB)
    assert content(closed) == text("quiz.closed", "en")
    ended = await bot.store.quiz(row.id)
    assert ended is not None and ended.status == "stopped"
    # Nothing more is revealed for a stopped quiz, and the channel is free again.
    clock.now = START + timedelta(minutes=5)
    await quizzes(bot).run_due()
    assert len(standin.messages[channel]) == 2
    restarted = await standin.slash("quiz start", {"level": "hard", "questions": 1}, locale="ja", user_id=BOB)
    assert not restarted.ephemeral
    assert (await running(bot, channel)).level == "hard"


async def test_a_quiz_overdue_at_start_ends_with_a_message(
    standin: DiscordStandIn, start_bot: StartBot, clock: Clock, db_path: Path
) -> None:
    channel = standin.guilds[0].channels[0].id
    bot: LiurenBot = await start_bot(clock=clock)
    await standin.slash("quiz start", {"questions": 3}, locale="zh-TW", user_id=ALICE)
    await messages(standin, channel, 1)
    row = await running(bot, channel)
    await bot.close()
    clock.now = START + timedelta(hours=2)  # the bot was down far longer than a question lasts
    bot = await start_bot(clock=clock)
    await asyncio.wait_for(quizzes(bot).resumed.wait(), 5)
    notice = (await messages(standin, channel, 2))[1]
    assert notice["content"] == text("quiz.ended", "zh-TW", reason=text("quiz.reason.offline", "zh-TW"))
    ended = await bot.store.quiz(row.id)
    assert ended is not None and ended.status == "ended"
    assert await bot.store.running_quiz(channel) is None


async def test_at_start_an_unposted_question_is_posted_and_a_broken_quiz_ends(
    standin: DiscordStandIn, start_bot: StartBot, clock: Clock, db_path: Path
) -> None:
    from bot.store import open_store
    from testkit.discord_standin import ChannelSpec

    second = ChannelSpec(name="second")
    standin.guilds[0].channels.append(second)
    first = standin.guilds[0].channels[0].id
    guild = standin.guilds[0].id
    now = epoch(START)
    # As a crash would leave them: a quiz stored but its question never posted, and a quiz whose
    # round can no longer be made (a level this version does not know).
    store = await open_store(db_path)
    good = await store.create_quiz(guild, first, ALICE, "en-US", "medium", 2, 7, DEFAULT_SCHOOL, 20,
                                   now + 20, now)
    broken = await store.create_quiz(guild, second.id, ALICE, "en-US", "legendary", 2, 7,
                                     DEFAULT_SCHOOL, 20, now + 20, now)
    await store.close()
    assert good is not None and broken is not None

    bot: LiurenBot = await start_bot(clock=clock)
    await asyncio.wait_for(quizzes(bot).resumed.wait(), 5)
    (question,) = await messages(standin, first, 1)
    q1 = make_round("medium", 2, seed=7)[0]
    assert render_board(q1, "en") in description(question)
    assert (await running(bot, first)).message_id == int(question["id"])
    await press(standin, question, good, 1, q1.number, BOB)
    (notice,) = await messages(standin, second.id, 1)
    assert notice["content"] == text("quiz.ended", "en", reason=text("quiz.reason.broken", "en"))
    assert await bot.store.running_quiz(second.id) is None
