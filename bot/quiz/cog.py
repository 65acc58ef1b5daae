"""/quiz start|stop|leaderboard|me: the study quiz in a server's channels; /quiz me's button deletes
the member's answers (bot.quiz.views.ForgetAnswers).

The running of a quiz — asking, revealing when time is up, resuming after a restart — is
`bot.quiz.service.QuizService`, which this cog creates and starts in ``cog_load`` as
``self.service``; the answer buttons are `bot.quiz.views.QuizChoice`, registered there too as a
dynamic item so a press on any question, also one posted before a restart, reaches the service.
Scores are read from the stored answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.core import ack
from bot.core.errors import ReplyError, permission_names
from bot.core.options import bounded, guild_of
from bot.core.reader import resolve
from bot.core.user_text import clip
from bot.core.words import Lang, ls, text, word
from bot.store import epoch
from engine.terms import Frame, Method
from texts import quiz  # its names load at first use (texts/quiz/__init__.py): the start lists the levels
from texts.corpus import corpus
from texts.quiz import Level
from texts.words import term

from .service import EmptyRound, QuizService
from .views import ForgetAnswers, QuizChoice, forget_view

if TYPE_CHECKING:
    from bot.core.host import LiurenBot
    from bot.store import QuizScore, QuizTopicScore

__all__ = ["LEVEL_CHOICES", "Quiz"]

LEVEL_CHOICES = [Choice(name=level.value, value=level.value) for level in Level]
BOARD_SIZE = 10  # members shown per list
QUESTIONS_MAX = 20  # questions in a quiz
SECONDS_MIN, SECONDS_MAX = 10, 300  # time to answer each
RECENT = timedelta(days=30)


def percent(points: float, asked: int) -> int:
    return round(100 * points / asked) if asked else 0


def level_name(level: str, lang: Lang) -> str:
    """A level as the quiz names it (``easy (元首, 重審)``); an unknown stored level as it is."""
    return word(f"quiz.level.{level}", lang) if level in set(Level) else level


def topic_name(topic: str, lang: Lang) -> str:
    """A topic (a method or a frame) in the reader's script."""
    if topic in Method.__members__:
        return term(Method[topic], lang)
    if topic in Frame.__members__:
        return term(Frame[topic], lang)
    return topic


def topic_paragraphs(row: QuizTopicScore) -> str:
    """The seed ¶ that states the topic's rule; else the ¶s an answer's explanation cited."""
    unit = corpus().method(row.topic)
    if unit is not None and unit.lines:
        return str(unit.lines[0])
    return ", ".join(n for n in row.seed.split(",") if n) or "—"


def board_lines(scores: Sequence[QuizScore], lang: Lang) -> str:
    return "\n".join(
        text("quiz.board_line", lang, rank=rank, member=f"<@{s.user_id}>", right=quiz.render_points(s.points, lang),
             asked=s.asked, percent=percent(s.points, s.asked))
        for rank, s in enumerate(scores, 1)
    )


class Quiz(commands.Cog):
    """/quiz: run a study quiz in a channel, and read the server's scores."""

    quiz = app_commands.Group(
        name="quiz", description=ls("quiz.description"), guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),  # a server's commands: servers only
        allowed_installs=app_commands.AppInstallationType(guild=True),
    )

    def __init__(self, bot: LiurenBot) -> None:
        self.bot = bot
        self.service = QuizService(bot, bot.store, bot.clock, bot.shards_held)
        self._prepared: asyncio.Future[None] | None = None  # the charts by topic, built after READY

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(QuizChoice, ForgetAnswers)
        self._prepared = asyncio.ensure_future(self.service.prepare())  # after READY: start-up does not wait
        self.bot.warming.append(self._prepared)
        self.service.start()

    async def cog_unload(self) -> None:
        if self._prepared is not None:
            self._prepared.cancel()  # unloaded before READY: nothing to build
        await self.service.stop()
        self.bot.remove_dynamic_items(QuizChoice, ForgetAnswers)

    @quiz.command(name="start", description=ls("quiz.start.description"))
    @app_commands.describe(
        level=ls("quiz.start.level.description"),
        questions=ls("quiz.start.questions.description"),
        seconds=ls("quiz.start.seconds.description"),
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def quiz_start(
        self,
        interaction: discord.Interaction[Any],
        level: str = Level.EASY.value,
        questions: app_commands.Range[int, 1, QUESTIONS_MAX] = 5,
        seconds: app_commands.Range[int, SECONDS_MIN, SECONDS_MAX] = 30,
    ) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        questions = bounded(questions, 1, QUESTIONS_MAX, "questions", lang)
        seconds = bounded(seconds, SECONDS_MIN, SECONDS_MAX, "seconds", lang)
        channel_id = interaction.channel_id
        if channel_id is None:
            raise app_commands.NoPrivateMessage()
        service = self.service
        if await self.bot.store.running_quiz(channel_id) is not None:
            raise ReplyError(text("quiz.running", lang))
        try:
            chosen = Level(level)
            school = (await resolve(self.bot, interaction)).school  # the server's school casts the quiz too
            row = await service.begin(guild.id, channel_id, interaction.user.id, interaction.locale.value, chosen,
                                      questions, seconds, school=school)
        except (ValueError, EmptyRound):
            raise ReplyError(text("quiz.empty", lang)) from None
        if row is None:  # another start won the race
            raise ReplyError(text("quiz.running", lang))
        await ack.send(
            interaction,
            text("quiz.started", lang, user=interaction.user.mention, level=level_name(row.level, lang),
                 count=row.count, seconds=row.seconds),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if not await service.post_question(row):
            await interaction.followup.send(
                text("error.bot_permission", lang, detail=permission_names(("send_messages",), lang)), ephemeral=True)

    @quiz.command(name="stop", description=ls("quiz.stop.description"))
    async def quiz_stop(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        row = await self.bot.store.running_quiz(interaction.channel_id) if interaction.channel_id else None
        if row is None:
            raise ReplyError(text("quiz.none_running", lang))
        if row.user_id != interaction.user.id and not interaction.permissions.manage_messages:
            raise ReplyError(text("quiz.stop_denied", lang))
        await ack.defer(interaction, ephemeral=True, thinking=True)
        if not await self.service.stop_quiz(row, interaction.user.id):
            await interaction.followup.send(text("quiz.none_running", lang), ephemeral=True)
            return
        await interaction.followup.send("⏹", ephemeral=True)

    @quiz.command(name="leaderboard", description=ls("quiz.leaderboard.description"))
    @app_commands.describe(level=ls("quiz.leaderboard.level.description"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def quiz_leaderboard(self, interaction: discord.Interaction[Any], level: str | None = None) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        store = self.bot.store
        since = epoch(self.bot.clock() - RECENT)
        embed = discord.Embed(title=text("quiz.leaderboard_title", lang), colour=discord.Colour(0x5865F2))
        for chosen in [level] if level is not None else [lv.value for lv in Level]:
            ever = await store.quiz_scores(guild.id, chosen, None, BOARD_SIZE)
            if not ever:
                continue
            recent = await store.quiz_scores(guild.id, chosen, since, BOARD_SIZE)
            name = level_name(chosen, lang)
            embed.add_field(name=text("quiz.all_time", lang, level=name), value=clip(board_lines(ever, lang), 1024),
                            inline=False)
            embed.add_field(name=text("quiz.recent", lang, level=name),
                            value=clip(board_lines(recent, lang), 1024) or "—", inline=False)
        if not embed.fields:
            embed.description = text("quiz.board_none", lang)
        await ack.send(interaction, embed=embed)

    @quiz.command(name="me", description=ls("quiz.me.description"))
    async def quiz_me(self, interaction: discord.Interaction[Any]) -> None:
        guild = guild_of(interaction)
        lang = (await resolve(self.bot, interaction)).lang
        rows = await self.bot.store.quiz_topics(guild.id, interaction.user.id)
        # The button is offered here too: it forgets the member's answers in every server.
        forget = forget_view(interaction.user.id, lang)
        if not rows:
            await ack.send(interaction, text("quiz.me_none", lang), view=forget, ephemeral=True)
            return
        lines: list[str] = []
        shown: str | None = None
        for row in rows:
            if row.level != shown:
                shown = row.level
                points = sum(r.points for r in rows if r.level == shown)  # halves add up exactly
                asked = sum(r.asked for r in rows if r.level == shown)
                lines.append(f"**{level_name(shown, lang)}** {quiz.render_points(points, lang)}/{asked} "
                             f"({percent(points, asked)}%)")
            lines.append(text("quiz.me_line", lang, topic=topic_name(row.topic, lang),
                              right=quiz.render_points(row.points, lang), asked=row.asked,
                              percent=percent(row.points, row.asked),
                              paragraphs=topic_paragraphs(row), term=row.topic))
        embed = discord.Embed(title=text("quiz.me_title", lang), description=clip("\n".join(lines), 4096),
                              colour=discord.Colour(0x5865F2))
        await ack.send(interaction, embed=embed, view=forget, ephemeral=True)
