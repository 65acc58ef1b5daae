"""The store's operations on the study quiz (/quiz): a quiz's row, its questions' messages, the
members' answers and the scores read from them. Part of bot.store.store.Store, written once here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.school import School

from . import sql as q
from .driver import Driver
from .forms import school_json
from .values import Shards

if TYPE_CHECKING:  # the quiz's values load with its first read (bot.store.quiz_values), not at start
    from .quiz_values import QuizAnswer, QuizRow, QuizScore, QuizTopicScore

__all__ = ["Quizzes"]


class Quizzes:
    """The quiz's operations of the Store (which bounds each by its deadline: bot.store.deadline)."""

    driver: Driver

    async def create_quiz(
        self, guild_id: int, channel_id: int, user_id: int, locale: str, level: str, count: int, seed: int,
        school: School, seconds: int, deadline: int, now: int,
    ) -> QuizRow | None:
        """Start a quiz at question 1, due at `deadline`; None when the channel has a running quiz."""
        params = (guild_id, channel_id, user_id, locale, level, count, seed, school_json(school), seconds, deadline,
                  now)
        rows = await self.driver.fetch(q.CREATE_QUIZ, params)
        return q.quiz_of(rows[0]) if rows else None

    async def quiz(self, quiz_id: int) -> QuizRow | None:
        rows = await self.driver.fetch(q.QUIZ, (quiz_id,))
        return q.quiz_of(rows[0]) if rows else None

    async def running_quiz(self, channel_id: int) -> QuizRow | None:
        """The channel's running quiz, if any (there is at most one)."""
        rows = await self.driver.fetch(q.RUNNING_QUIZ, (channel_id,))
        return q.quiz_of(rows[0]) if rows else None

    async def running_quizzes(self, shards: Shards | None) -> tuple[QuizRow, ...]:
        """Every running quiz of `shards`' guilds, ordered by id."""
        where, params = q.shard_filter(shards)
        return tuple(q.quiz_of(r) for r in await self.driver.fetch(q.RUNNING_QUIZZES.format(where=where), params))

    async def due_quizzes(self, now: int, shards: Shards | None) -> tuple[QuizRow, ...]:
        """Running quizzes (of `shards`' guilds) whose deadline is at or before `now`, earliest first."""
        where, params = q.shard_filter(shards)
        rows = await self.driver.fetch(q.DUE_QUIZZES.format(where=where), (now, *params))
        return tuple(q.quiz_of(r) for r in rows)

    async def next_quiz_deadline(self, shards: Shards | None) -> int | None:
        """The earliest deadline among running quizzes of `shards`' guilds."""
        where, params = q.shard_filter(shards)
        rows = await self.driver.fetch(q.NEXT_QUIZ_DEADLINE.format(where=where), params)
        return None if not rows else int(rows[0][0])

    async def set_quiz_message(self, quiz_id: int, question: int, message_id: int) -> None:
        """Record the message that asks `question` (ignored once the quiz has moved on)."""
        await self.driver.execute(q.SET_QUIZ_MESSAGE, (message_id, quiz_id, question))

    async def advance_quiz(self, quiz_id: int, question: int, deadline: int) -> bool:
        """Move a running quiz from `question` to the next, due at `deadline`; False (nothing
        changed) when it is not running or not at `question` (someone else moved it)."""
        return await self.driver.execute(q.ADVANCE_QUIZ, (deadline, quiz_id, question)) == 1

    async def end_quiz(self, quiz_id: int, status: str, now: int) -> bool:
        """End a running quiz with `status` (done, stopped, ended); False when it was not running."""
        return await self.driver.execute(q.END_QUIZ, (status, now, quiz_id)) == 1

    async def add_quiz_answer(self, answer: QuizAnswer) -> bool:
        """Record a member's answer; False when they had answered this question already."""
        return await self.driver.execute(q.ADD_QUIZ_ANSWER, q.answer_params(answer)) == 1

    async def quiz_answers(self, quiz_id: int, question: int | None = None) -> tuple[QuizAnswer, ...]:
        """The quiz's answers (to one question, if given), in the order they were given."""
        if question is None:
            rows = await self.driver.fetch(q.QUIZ_ANSWERS, (quiz_id,))
        else:
            rows = await self.driver.fetch(q.QUIZ_ANSWERS_TO, (quiz_id, question))
        return tuple(q.answer_of(r) for r in rows)

    async def quiz_scores(self, guild_id: int, level: str | None, since: int | None,
                          limit: int) -> tuple[QuizScore, ...]:
        """The server's best members (of one level, answers since `since`, if given): most right
        first, then fewer answers, then user id."""
        statement, params = q.quiz_scores_query(level, since)
        return tuple(q.score_of(r) for r in await self.driver.fetch(statement, (guild_id, *params, limit)))

    async def quiz_topics(self, guild_id: int, user_id: int) -> tuple[QuizTopicScore, ...]:
        """A member's answers in the server by level and topic, ordered by level and topic."""
        return tuple(q.topic_of(r) for r in await self.driver.fetch(q.QUIZ_TOPICS, (guild_id, user_id)))

    async def forget_quiz_answers(self, user_id: int) -> int:
        """Delete every quiz answer the member gave, in every server and quiz (running ones too:
        their scores are read from the answers, so they no longer count); returns how many."""
        return await self.driver.execute(q.FORGET_QUIZ_ANSWERS, (user_id,))
