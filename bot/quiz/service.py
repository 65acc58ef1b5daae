"""The /quiz service: runs every quiz of the process's guilds, question by question, on the bot's clock.

The /quiz cog (bot.quiz.cog) creates one `QuizService` in ``cog_load`` and starts and stops
quizzes through it; the answer buttons (bot.quiz.views) record answers through it. The questions
are never stored: a quiz row keeps the level, count, seed and school, and
``texts.quiz.make_round`` makes the same round again from them.

Everything that matters is in the store, so a restart loses nothing: the current question and its
deadline, and every answer. At start the service looks at the running quizzes: a question whose
message was never posted is posted, a quiz whose deadline passed long ago (the bot was down) or
whose questions cannot be made again is ended with a message in its channel. Then one loop reveals
each question when its deadline passes (the answer, who got it right, and why) and asks the next.
Moving a quiz on is a compare-and-set in the store, so a question is revealed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord.utils import MISSING

import bot.store as stored  # QuizAnswer, loaded with the quiz's first read (PEP 562)
from bot.core.words import Lang, language_of, text, word
from bot.store import Bad, Shards, Store, epoch, from_epoch
from engine.school import DEFAULT_SCHOOL, School
from texts import quiz  # its names load at first use (texts/quiz/__init__.py): the start builds no question
from texts.alternatives import option_words
from texts.quiz import Level

from .views import Answered, choice_view

if TYPE_CHECKING:
    from bot.store import QuizAnswer, QuizRow
    from texts.quiz import Question

__all__ = ["Answered", "EmptyRound", "QuizConfig", "QuizService"]

log = logging.getLogger(__name__)

DESCRIPTION_MAX = 4096  # Discord's limit for an embed description
COLOUR = discord.Colour(0x5865F2)


class EmptyRound(ValueError):
    """The level has no charts under the school: there is nothing to ask."""


class BrokenRound(ValueError):
    """A stored quiz whose questions cannot be made again (an unknown level or school, a shorter round)."""


@dataclass(frozen=True, slots=True)
class QuizConfig:
    """How the service paces itself."""

    stale: timedelta = timedelta(minutes=30)  # a quiz overdue this long at start is ended, not resumed
    max_sleep: float = 30.0  # the loop wakes at least this often (a clock jump is noticed)


def _school_of(stored: School | Bad) -> School:
    if isinstance(stored, Bad):
        raise BrokenRound(f"unreadable school {stored.text!r}: {stored.why}")
    return stored.by_the_clock()  # the classical charts have no moment and no place: the clock's hour


def _clip(value: str, limit: int = DESCRIPTION_MAX) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _members(answers: Sequence[QuizAnswer]) -> str:
    return ", ".join(f"<@{a.user_id}>" for a in answers)


class QuizService:
    """Starts, reveals, advances, stops and resumes quizzes; see the module doc."""

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        clock: Callable[[], datetime],
        shards: Shards | None = None,
        config: QuizConfig | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.clock = clock
        self.shards = shards
        self.config = config or QuizConfig()
        self.wakeup = asyncio.Event()
        self.ticks = 0  # loop iterations completed (tests may wait on it)
        self.resumed = asyncio.Event()  # set once the running quizzes were looked at after start
        self.new_seed: Callable[[], int] = lambda: random.randrange(2**31)  # a round's seed (tests fix it)
        self._rounds: dict[int, tuple[Question, ...]] = {}
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    # -- lifecycle ----------------------------------------------------------------------------

    def now(self) -> datetime:
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the clock must return an aware datetime")
        return now

    def changed(self) -> None:
        """A quiz started, moved or stopped, or the clock moved: look again now."""
        self.wakeup.set()

    async def prepare(self) -> None:
        """Once the gateway is READY, build the charts by topic (off the loop), so the first /quiz
        start is quick; start-up does not wait for it, and the collector settles after it (frozen
        out of its passes with the rest of start-up, bot.core.collector)."""
        await self.client.wait_until_ready()
        await asyncio.to_thread(quiz.index, DEFAULT_SCHOOL)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="liuren-quiz")

    async def stop(self) -> None:
        self._stopping = True
        self.wakeup.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 2.0)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
            self._task = None

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        try:
            await self.resume()
        except Exception:
            log.exception("quiz: could not resume the running quizzes")
        self.resumed.set()
        while not self._stopping:
            self.wakeup.clear()  # before the run, so a wake during it is not lost
            upcoming: datetime | None = None
            try:
                upcoming = await self.run_due()
            except Exception:
                log.exception("quiz: tick failed")
            self.ticks += 1
            delay = self.config.max_sleep
            if upcoming is not None:
                delay = min(delay, max(0.05, (upcoming - self.now()).total_seconds()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wakeup.wait(), delay)

    # -- the questions ------------------------------------------------------------------------

    async def questions(self, row: QuizRow) -> tuple[Question, ...]:
        """The quiz's round, made again from its level, count, seed and school (cached)."""
        found = self._rounds.get(row.id)
        if found is not None:
            return found
        school = _school_of(row.school)
        try:
            level = Level(row.level)
        except ValueError:
            raise BrokenRound(f"unknown level {row.level!r}") from None
        made = await asyncio.to_thread(quiz.make_round, level, row.count, seed=row.seed, school=school)
        if len(made) != row.count:
            raise BrokenRound(f"the round has {len(made)} questions, not {row.count}")
        self._rounds[row.id] = made
        return made

    async def begin(
        self, guild_id: int, channel_id: int, user_id: int, locale: str, level: Level, count: int, seconds: int,
        *, seed: int | None = None, school: School = DEFAULT_SCHOOL,
    ) -> QuizRow | None:
        """Make a round and store the quiz at question 1 (not posted yet: see `post_question`).
        None when the channel has a running quiz; `EmptyRound` when the level has no chart."""
        chosen = seed if seed is not None else self.new_seed()
        made = await asyncio.to_thread(quiz.make_round, level, count, seed=chosen, school=school)
        if not made:
            raise EmptyRound(level.value)
        now = epoch(self.now())
        row = await self.store.create_quiz(
            guild_id, channel_id, user_id, locale, level.value, len(made), chosen, school, seconds,
            now + seconds, now,
        )
        if row is not None:
            self._rounds[row.id] = made
            self.changed()
        return row

    async def answer(self, quiz_id: int, question: int, user_id: int, choice: int) -> tuple[Answered, str]:
        """Record a member's press: ("recorded", the choice as shown), ("already", "") when they had
        answered, ("closed", "") when the question is not open (revealed, stopped, unknown)."""
        row = await self.store.quiz(quiz_id)
        now = epoch(self.now())
        if row is None or row.status != "running" or row.question != question or now >= row.deadline:
            return "closed", ""
        try:
            q = (await self.questions(row))[question - 1]
        except (BrokenRound, IndexError):
            return "closed", ""
        if not 1 <= choice <= len(q.choices):
            return "closed", ""
        given = q.choices[choice - 1]
        seed = ",".join(str(n) for n in q.explanation.seed)
        record = stored.QuizAnswer(quiz_id, question, user_id, choice, q.is_right(given), q.topic.value, seed, now,
                                   half=q.split_of(given) is not None)
        if not await self.store.add_quiz_answer(record):
            return "already", ""
        lang = language_of(row.locale)
        return "recorded", word("quiz.choice", lang, number=choice, choice=quiz.render_answer(given, lang))

    # -- messages -----------------------------------------------------------------------------

    def _channel(self, row: QuizRow) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def _send(self, row: QuizRow, *, embed: discord.Embed | None = None, content: str | None = None,
                    view: discord.ui.View | None = None) -> discord.Message:
        return await self._channel(row).send(
            content=content, embed=embed if embed is not None else MISSING, view=view if view is not None else MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def post_question(self, row: QuizRow) -> bool:
        """Post the quiz's current question with its buttons and record the message. False (and
        the quiz is ended) when the channel cannot be posted to."""
        lang = language_of(row.locale)
        q = (await self.questions(row))[row.question - 1]
        labels = [word("quiz.choice", lang, number=i, choice=quiz.render_answer(c, lang))
                  for i, c in enumerate(q.choices, 1)]
        board = quiz.render_board(q, lang)
        description = "\n".join((
            f"```\n{board}\n```", f"**{quiz.render_prompt(q, lang)}**", *labels, "",
            text("quiz.time", lang, when=f"<t:{row.deadline}:R>"),
        ))
        embed = discord.Embed(
            title=word("quiz.number", lang, number=row.question, count=row.count),
            description=_clip(description), colour=COLOUR,
        )
        try:
            message = await self._send(row, embed=embed, view=choice_view(row.id, row.question, labels))
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("quiz %d: cannot post in channel %d (%s); ending it", row.id, row.channel_id, error)
            await self.store.end_quiz(row.id, "ended", epoch(self.now()))
            self._rounds.pop(row.id, None)
            return False
        await self.store.set_quiz_message(row.id, row.question, message.id)
        return True

    def _reveal_embed(self, row: QuizRow, q: Question, answers: Sequence[QuizAnswer], lang: Lang) -> discord.Embed:
        right = [a for a in answers if a.correct]
        wrong = [a for a in answers if not a.correct]
        lines: list[str] = []
        if right:
            lines.append(text("quiz.right_members", lang, members=_members(right)))
        for split in q.splits:  # another school option's answer: half right, the option named
            half = [a for a in wrong if 1 <= a.choice <= len(q.choices) and q.choices[a.choice - 1] == split.answer]
            wrong = [a for a in wrong if a not in half]
            if half:
                lines.append(text("quiz.half_members", lang, option=option_words(split.option, split.value, lang),
                                  members=_members(half)))
        if wrong:
            lines.append(text("quiz.wrong_members", lang, members=_members(wrong)))
        if not answers:
            lines.append(text("quiz.nobody", lang))
        lines += ["", quiz.render_reveal(q, lang)]
        return discord.Embed(
            title=word("quiz.number", lang, number=row.question, count=row.count),
            description=_clip("\n".join(lines)), colour=COLOUR,
        )

    async def _scores_embed(self, row: QuizRow, lang: Lang) -> discord.Embed:
        totals: dict[int, list[float]] = {}
        for a in await self.store.quiz_answers(row.id):
            right_asked = totals.setdefault(a.user_id, [0, 0])
            right_asked[0] += 1 if a.correct else 0.5 if a.half else 0  # a school split counts half
            right_asked[1] += 1
        ranked = sorted(totals.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[0]))
        lines = [
            text("quiz.final_line", lang, rank=rank, member=f"<@{user}>",
                 score=quiz.render_score(right, int(asked), lang))
            for rank, (user, (right, asked)) in enumerate(ranked, 1)
        ] or [text("quiz.nobody", lang)]
        return discord.Embed(title=text("quiz.final_title", lang), description=_clip("\n".join(lines)), colour=COLOUR)

    async def _end_with_message(self, row: QuizRow, reason: str) -> None:
        if await self.store.end_quiz(row.id, "ended", epoch(self.now())):
            self._rounds.pop(row.id, None)
            lang = language_of(row.locale)
            with contextlib.suppress(discord.HTTPException):
                await self._send(row, content=text("quiz.ended", lang, reason=text(f"quiz.reason.{reason}", lang)))

    # -- the clock ----------------------------------------------------------------------------

    async def run_due(self, now: datetime | None = None) -> datetime | None:
        """Reveal every question whose deadline passed (at `now`, default the clock) and ask the
        next; returns the next deadline."""
        async with self._lock:
            at = now if now is not None else self.now()
            for row in await self.store.due_quizzes(epoch(at), self.shards):
                try:
                    await self._reveal(row, at)
                except (discord.Forbidden, discord.NotFound) as error:  # the channel is gone or closed to the bot
                    log.warning("quiz %d: cannot post in channel %d (%s); ending it", row.id, row.channel_id, error)
                    await self.store.end_quiz(row.id, "ended", epoch(at))
                    self._rounds.pop(row.id, None)
                except discord.HTTPException as error:
                    log.warning("quiz %d: could not post in channel %d: %s", row.id, row.channel_id, error)
        found = await self.store.next_quiz_deadline(self.shards)
        return None if found is None else from_epoch(found)

    async def _reveal(self, row: QuizRow, now: datetime) -> None:
        try:
            questions = await self.questions(row)
        except BrokenRound as error:
            log.error("quiz %d: %s; ending it", row.id, error)
            await self._end_with_message(row, "broken")
            return
        q = questions[row.question - 1]
        answers = await self.store.quiz_answers(row.id, row.question)
        last = row.question >= row.count
        if last:
            moved = await self.store.end_quiz(row.id, "done", epoch(now))
        else:
            moved = await self.store.advance_quiz(row.id, row.question, epoch(now) + row.seconds)
        if not moved:  # stopped meanwhile, or revealed by someone else
            return
        lang = language_of(row.locale)
        await self._send(row, embed=self._reveal_embed(row, q, answers, lang))
        if last:
            self._rounds.pop(row.id, None)
            await self._send(row, embed=await self._scores_embed(row, lang))
            return
        following = await self.store.quiz(row.id)
        if following is not None and following.status == "running":
            await self.post_question(following)

    async def stop_quiz(self, row: QuizRow, user_id: int) -> bool:
        """Stop a running quiz and post who stopped it and the scores so far; False when it had ended."""
        async with self._lock:
            if not await self.store.end_quiz(row.id, "stopped", epoch(self.now())):
                return False
        self._rounds.pop(row.id, None)
        lang = language_of(row.locale)
        await self._send(row, content=text("quiz.stopped", lang, user=f"<@{user_id}>"),
                         embed=await self._scores_embed(row, lang))
        return True

    async def resume(self) -> None:
        """After a start: post a question that was never posted; end, with a message, a quiz that
        cannot go on (long overdue, or its questions cannot be made again)."""
        now = self.now()
        for row in await self.store.running_quizzes(self.shards):
            try:
                if now - from_epoch(row.deadline) > self.config.stale:
                    log.info("quiz %d: overdue since %s; ending it", row.id, from_epoch(row.deadline))
                    await self._end_with_message(row, "offline")
                    continue
                try:
                    await self.questions(row)
                except BrokenRound as error:
                    log.error("quiz %d: %s; ending it", row.id, error)
                    await self._end_with_message(row, "broken")
                    continue
                if row.message_id is None:
                    await self.post_question(row)
                log.info("quiz %d: resumed at question %d of %d", row.id, row.question, row.count)
            except discord.HTTPException as error:
                log.warning("quiz %d: could not post in channel %d: %s", row.id, row.channel_id, error)
