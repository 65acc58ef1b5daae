"""The /quiz tables on both store backends (SQLite file, PostgreSQL schema): one running quiz per
channel, moving from question to question exactly once, one answer per member and question, and
the scores read from the answers (by server, level and period; by topic for one member)."""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import QuizAnswer, QuizRow, QuizScore, QuizTopicScore, Shards, Store, open_store, school_json
from bot.store.migrations import MIGRATIONS
from engine.school import School

T0 = 1_800_000_000  # epoch seconds
GUILD, OTHER_GUILD = 1 << 22, 2 << 22  # shards 1 and 2 of 4 (guild_id >> 22)
CHANNEL, SECOND_CHANNEL, OTHER_CHANNEL = 100, 101, 200
ALICE, BOB, CAROL = 11, 12, 13


@pytest.fixture
async def store(store_location: str) -> AsyncIterator[Store]:
    opened = await open_store(store_location)
    yield opened
    await opened.close()


async def start(store: Store, *, guild: int = GUILD, channel: int = CHANNEL, level: str = "easy", count: int = 3,
                deadline: int = T0 + 30, now: int = T0) -> QuizRow:
    row = await store.create_quiz(guild, channel, ALICE, "en-US", level, count, 42, School(noble_table="甲牛"), 30,
                                  deadline, now)
    assert row is not None
    return row


def answer(quiz: QuizRow, question: int, user: int, correct: bool, *, at: int = T0 + 5, topic: str = "元首",
           choice: int = 1, half: bool = False) -> QuizAnswer:
    return QuizAnswer(quiz.id, question, user, choice, correct, topic, "47,51", at, half)


async def test_create_and_read_a_quiz(store: Store) -> None:
    row = await start(store)
    assert (row.guild_id, row.channel_id, row.user_id, row.locale) == (GUILD, CHANNEL, ALICE, "en-US")
    assert (row.level, row.count, row.seed, row.seconds) == ("easy", 3, 42, 30)
    assert row.school == School(noble_table="甲牛")
    assert (row.question, row.deadline, row.message_id, row.status) == (1, T0 + 30, None, "running")
    assert (row.started_at, row.ended_at) == (T0, None)
    assert await store.quiz(row.id) == row
    assert await store.running_quiz(CHANNEL) == row
    assert await store.running_quiz(SECOND_CHANNEL) is None
    assert await store.quiz(row.id + 1000) is None


async def test_one_running_quiz_per_channel(store: Store) -> None:
    first = await start(store)
    assert await store.create_quiz(GUILD, CHANNEL, BOB, "ja", "hard", 5, 1, School(), 20, T0 + 20, T0) is None
    second = await start(store, channel=SECOND_CHANNEL)  # another channel is free
    assert second.id != first.id
    assert await store.end_quiz(first.id, "stopped", T0 + 10)
    assert not await store.end_quiz(first.id, "done", T0 + 11)  # only a running quiz ends
    ended = await store.quiz(first.id)
    assert ended is not None and (ended.status, ended.ended_at) == ("stopped", T0 + 10)
    assert await store.running_quiz(CHANNEL) is None
    third = await start(store)  # the channel is free again
    assert third.id not in (first.id, second.id)


async def test_advance_moves_once_and_forgets_the_message(store: Store) -> None:
    row = await start(store)
    await store.set_quiz_message(row.id, 1, 555)
    assert (await store.quiz(row.id)) == dataclasses.replace(row, message_id=555)
    assert await store.advance_quiz(row.id, 1, T0 + 70)
    assert not await store.advance_quiz(row.id, 1, T0 + 99)  # someone else moved it already
    moved = await store.quiz(row.id)
    assert moved is not None and (moved.question, moved.deadline, moved.message_id) == (2, T0 + 70, None)
    await store.set_quiz_message(row.id, 1, 777)  # a late record of the old question changes nothing
    await store.set_quiz_message(row.id, 2, 666)
    moved = await store.quiz(row.id)
    assert moved is not None and moved.message_id == 666
    await store.end_quiz(row.id, "done", T0 + 80)
    assert not await store.advance_quiz(row.id, 2, T0 + 99)


async def test_due_quizzes_and_the_next_deadline(store: Store) -> None:
    assert await store.next_quiz_deadline(None) is None
    late = await start(store, deadline=T0 + 60)
    early = await start(store, channel=SECOND_CHANNEL, deadline=T0 + 30)
    other = await start(store, guild=OTHER_GUILD, channel=OTHER_CHANNEL, deadline=T0 + 45)
    assert await store.due_quizzes(T0 + 29, None) == ()
    assert [q.id for q in await store.due_quizzes(T0 + 45, None)] == [early.id, other.id]
    assert [q.id for q in await store.due_quizzes(T0 + 60, None)] == [early.id, other.id, late.id]
    assert await store.next_quiz_deadline(None) == T0 + 30
    # A process holding shard 2 of 4 sees only the other guild's quiz.
    mine = Shards(4, (2,))
    assert [q.id for q in await store.due_quizzes(T0 + 60, mine)] == [other.id]
    assert [q.id for q in await store.running_quizzes(mine)] == [other.id]
    assert await store.next_quiz_deadline(mine) == T0 + 45
    assert [q.id for q in await store.running_quizzes(None)] == sorted([late.id, early.id, other.id])
    await store.end_quiz(early.id, "done", T0)
    assert await store.next_quiz_deadline(None) == T0 + 45
    assert early.id not in [q.id for q in await store.due_quizzes(T0 + 60, None)]


async def test_one_answer_per_member_and_question(store: Store) -> None:
    row = await start(store)
    assert await store.add_quiz_answer(answer(row, 1, ALICE, True, at=T0 + 3))
    assert not await store.add_quiz_answer(answer(row, 1, ALICE, False, at=T0 + 4, choice=2))  # the first counts
    assert await store.add_quiz_answer(answer(row, 1, BOB, False, at=T0 + 2, choice=3))
    assert await store.add_quiz_answer(answer(row, 2, ALICE, False, at=T0 + 40))
    first = await store.quiz_answers(row.id, 1)
    assert [(a.user_id, a.choice, a.correct) for a in first] == [(BOB, 3, False), (ALICE, 1, True)]
    assert first[1] == QuizAnswer(row.id, 1, ALICE, 1, True, "元首", "47,51", T0 + 3)
    assert [(a.question, a.user_id) for a in await store.quiz_answers(row.id)] == [(1, BOB), (1, ALICE), (2, ALICE)]
    assert await store.quiz_answers(row.id, 3) == ()


async def test_scores_by_server_level_and_period(store: Store) -> None:
    day = 86_400
    easy = await start(store)
    hard = await start(store, channel=SECOND_CHANNEL, level="hard")
    elsewhere = await start(store, guild=OTHER_GUILD, channel=OTHER_CHANNEL)
    old = T0 - 40 * day
    for quiz, question, user, correct, at in [
        (easy, 1, ALICE, True, old), (easy, 2, ALICE, True, T0), (easy, 3, ALICE, False, T0),
        (easy, 1, BOB, True, T0), (easy, 2, BOB, True, T0), (easy, 3, BOB, False, T0),
        (easy, 1, CAROL, False, T0),
        (hard, 1, CAROL, True, T0), (hard, 2, CAROL, True, T0),
        (elsewhere, 1, BOB, True, T0),
    ]:
        assert await store.add_quiz_answer(answer(quiz, question, user, correct, at=at))
    assert await store.quiz_scores(GUILD, "easy", None, 10) == (
        QuizScore(ALICE, 2, 3), QuizScore(BOB, 2, 3), QuizScore(CAROL, 0, 1),
    )
    # The last 30 days: Alice's old answer is left out.
    assert await store.quiz_scores(GUILD, "easy", T0 - 30 * day, 10) == (
        QuizScore(BOB, 2, 3), QuizScore(ALICE, 1, 2), QuizScore(CAROL, 0, 1),
    )
    assert await store.quiz_scores(GUILD, "hard", None, 10) == (QuizScore(CAROL, 2, 2),)
    assert await store.quiz_scores(GUILD, None, None, 2) == (QuizScore(ALICE, 2, 3), QuizScore(BOB, 2, 3))
    assert await store.quiz_scores(GUILD, None, None, 10) == (
        QuizScore(ALICE, 2, 3), QuizScore(BOB, 2, 3), QuizScore(CAROL, 2, 3),
    )
    assert await store.quiz_scores(OTHER_GUILD, None, None, 10) == (QuizScore(BOB, 1, 1),)
    assert await store.quiz_scores(GUILD, "medium", None, 10) == ()


async def test_a_members_topics(store: Store) -> None:
    easy = await start(store)
    hard = await start(store, channel=SECOND_CHANNEL, level="hard")
    for quiz, question, correct, topic in [
        (easy, 1, True, "重審"), (easy, 2, False, "元首"), (easy, 3, True, "元首"), (hard, 1, False, "伏吟"),
    ]:
        await store.add_quiz_answer(answer(quiz, question, ALICE, correct, topic=topic))
    await store.add_quiz_answer(answer(easy, 1, BOB, True, topic="重審"))
    assert await store.quiz_topics(GUILD, ALICE) == (
        QuizTopicScore("easy", "元首", 1, 2, "47,51"), QuizTopicScore("easy", "重審", 1, 1, "47,51"),
        QuizTopicScore("hard", "伏吟", 0, 1, "47,51"),
    )
    assert await store.quiz_topics(OTHER_GUILD, ALICE) == ()


async def test_quizzes_and_answers_persist(store_location: str) -> None:
    first = await open_store(store_location)
    row = await start(first)
    await first.add_quiz_answer(answer(row, 1, BOB, True))
    await first.advance_quiz(row.id, 1, T0 + 90)
    await first.close()
    again = await open_store(store_location)
    try:
        kept = await again.running_quiz(CHANNEL)
        assert kept is not None and (kept.id, kept.question, kept.deadline) == (row.id, 2, T0 + 90)
        assert [a.user_id for a in await again.quiz_answers(row.id)] == [BOB]
    finally:
        await again.close()


async def test_a_half_right_answer_counts_half(store: Store) -> None:
    """Another school option's answer is stored as half right; the scores add it as 0.5 (kept in
    integers: right and half apart) and rank by right + half / 2."""
    easy = await start(store)
    hard = await start(store, channel=SECOND_CHANNEL, level="hard")
    for quiz, question, user, correct, half, topic in [
        (easy, 1, ALICE, True, False, "元首"), (easy, 2, ALICE, False, True, "元首"),
        (easy, 3, ALICE, False, False, "重審"),
        (easy, 1, BOB, True, False, "元首"), (easy, 2, BOB, False, False, "元首"),
        (easy, 1, CAROL, False, True, "元首"), (easy, 2, CAROL, False, True, "元首"),
        (easy, 3, CAROL, False, True, "重審"), (hard, 1, CAROL, False, True, "伏吟"),
    ]:
        assert await store.add_quiz_answer(answer(quiz, question, user, correct, topic=topic, half=half))
    alice = await store.quiz_answers(easy.id, 2)
    assert [(a.user_id, a.correct, a.half) for a in alice] == [(ALICE, False, True), (BOB, False, False),
                                                                (CAROL, False, True)]
    # Carol 2 of 4 in halves, Alice 1.5 of 3, Bob 1 of 2 (whole answers only would put Bob first).
    scores = await store.quiz_scores(GUILD, None, None, 10)
    assert scores == (QuizScore(CAROL, 0, 4, 2 * 2), QuizScore(ALICE, 1, 3, 1), QuizScore(BOB, 1, 2, 0))
    assert [s.points for s in scores] == [2, 1.5, 1]
    assert await store.quiz_scores(GUILD, "easy", None, 2) == (QuizScore(ALICE, 1, 3, 1), QuizScore(CAROL, 0, 3, 3))
    assert await store.quiz_topics(GUILD, ALICE) == (
        QuizTopicScore("easy", "元首", 1, 2, "47,51", half=1), QuizTopicScore("easy", "重審", 0, 1, "47,51"),
    )
    assert [t.points for t in await store.quiz_topics(GUILD, CAROL)] == [1, 0.5, 0.5]


async def test_answers_stored_before_half_credit_read_as_they_were(empty_store_location: str) -> None:
    """Answers written by the schema before the half column count whole or none, as they did."""
    old = len(MIGRATIONS) - 1
    old_quiz = 1000  # clear of the ids the store gives (an identity sequence does not skip an explicit id)
    statements = [
        ("INSERT INTO quizzes (id, guild_id, channel_id, user_id, locale, level, count, seed, school, seconds, "
         "question, deadline, started_at) VALUES (?, ?, ?, ?, 'en-US', 'easy', 2, 42, ?, 30, 2, ?, ?)",
         (old_quiz, GUILD, CHANNEL, ALICE, school_json(School()), T0 + 30, T0)),
        *[("INSERT INTO quiz_answers (quiz_id, question, user_id, choice, correct, topic, seed, answered_at) "
           "VALUES (?, ?, ?, ?, ?, '元首', '51', ?)", (old_quiz, question, user, choice, correct, T0 + question))
          for question, user, choice, correct in [(1, ALICE, 1, 1), (2, ALICE, 2, 0), (1, BOB, 3, 0)]],
    ]
    if empty_store_location.startswith("postgresql://"):
        import psycopg

        from bot.store.postgres import migrate as pg_migrate

        async with await psycopg.AsyncConnection.connect(empty_store_location, autocommit=True) as conn:
            assert await pg_migrate(conn, MIGRATIONS[:old]) == old
            for statement, params in statements:
                await conn.execute(statement.replace("?", "%s"), params)
    else:
        from bot.store.sqlite import migrate as sqlite_migrate

        Path(empty_store_location).parent.mkdir(parents=True)
        with contextlib.closing(sqlite3.connect(empty_store_location, isolation_level=None)) as conn:
            assert sqlite_migrate(conn, MIGRATIONS[:old]) == old
            for statement, params in statements:
                conn.execute(statement, params)
    store = await open_store(empty_store_location)
    try:
        assert [(a.user_id, a.correct, a.half) for a in await store.quiz_answers(old_quiz)] == [
            (ALICE, True, False), (BOB, False, False), (ALICE, False, False)]
        assert await store.quiz_scores(GUILD, None, None, 10) == (QuizScore(ALICE, 1, 2), QuizScore(BOB, 0, 1))
        assert await store.add_quiz_answer(answer(await start(store, channel=SECOND_CHANNEL), 1, BOB, False, half=True))
        assert await store.quiz_scores(GUILD, None, None, 10) == (QuizScore(ALICE, 1, 2), QuizScore(BOB, 0, 2, 1))
    finally:
        await store.close()
