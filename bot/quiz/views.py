"""The answer buttons of a /quiz question: one button per choice, its quiz, question and choice in
its ``custom_id`` (``quiz:<quiz id>:<question>:<choice>``).

``QuizChoice`` is a discord.py ``DynamicItem``: the quiz cog registers its template once (``cog_load``),
so a press is understood from the ``custom_id`` alone — also on a question posted before a
restart. A press is answered ephemerally, only to the member: recorded, already answered, or closed.

``ForgetAnswers`` is the button under /quiz me (``quiz:forget:<user id>``): a first press asks, on
the same ephemeral message, whether to delete every quiz answer of the member in every server; the
second (``quiz:forget:<user id>:yes``, a danger button) deletes them and says how many. Scores are
read from the answers, so the member leaves every leaderboard, and a quiz under way no longer
counts them (docs/privacy.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol, Self, runtime_checkable

import discord

from bot.core import ack
from bot.core.errors import ReplyError, guarded
from bot.core.host import host_of
from bot.core.reader import resolve
from bot.core.words import Lang, text

Answered = Literal["recorded", "already", "closed"]  # what a press did (each has its reply, quiz.<outcome>)

__all__ = ["FORGET_TEMPLATE", "TEMPLATE", "Answered", "ForgetAnswers", "QuizChoice", "choice_view", "custom_id",
           "forget_view"]

TEMPLATE = r"quiz:(?P<quiz>[0-9]+):(?P<question>[0-9]+):(?P<choice>[0-9]+)"
FORGET_TEMPLATE = r"quiz:forget:(?P<user>[0-9]{1,20})(?P<sure>:yes)?"
LABEL_MAX = 80  # Discord's limit for a button label


class AnswerService(Protocol):
    async def answer(self, quiz_id: int, question: int, user_id: int, choice: int) -> tuple[Answered, str]: ...


@runtime_checkable
class Answers(Protocol):
    """What a press needs of the quiz cog (bot.quiz.cog.Quiz): its service, which records answers."""

    @property
    def service(self) -> AnswerService: ...


def custom_id(quiz_id: int, question: int, choice: int) -> str:
    """The custom_id of the button for ``choice`` (1-based) of ``question`` of quiz ``quiz_id``."""
    return f"quiz:{quiz_id}:{question}:{choice}"


class QuizChoice(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=TEMPLATE):
    """A choice's button; pressing it answers the question once for the member who pressed."""

    def __init__(self, quiz_id: int, question: int, choice: int, label: str | None = None) -> None:
        shown = (label or str(choice))[:LABEL_MAX]
        super().__init__(discord.ui.Button(
            label=shown, style=discord.ButtonStyle.secondary, custom_id=custom_id(quiz_id, question, choice)
        ))
        self.quiz_id = quiz_id
        self.question = question
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["quiz"]), int(match["question"]), int(match["choice"]), label)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        lang = (await resolve(host_of(interaction), interaction)).lang
        quiz = host_of(interaction).get_cog("Quiz")
        if not isinstance(quiz, Answers):
            return  # the quiz extension is not loaded: nothing records answers
        outcome, label = await quiz.service.answer(self.quiz_id, self.question, interaction.user.id, self.choice)
        reply = text("quiz.recorded", lang, choice=label) if outcome == "recorded" else text(f"quiz.{outcome}", lang)
        await ack.send(interaction, reply, ephemeral=True)


def choice_view(quiz_id: int, question: int, labels: Sequence[str]) -> discord.ui.View:
    """The buttons for a question's choices (``labels`` in presentation order), never timing out."""
    view = discord.ui.View(timeout=None)
    for number, label in enumerate(labels, 1):
        view.add_item(QuizChoice(quiz_id, question, number, label))
    return view


class ForgetAnswers(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=FORGET_TEMPLATE):
    """Under /quiz me: ask (first press), then delete every quiz answer of the member (``sure``)."""

    def __init__(self, user_id: int, sure: bool = False, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=(label or ("OK" if sure else "…"))[:LABEL_MAX],
            style=discord.ButtonStyle.danger if sure else discord.ButtonStyle.secondary,
            custom_id=f"quiz:forget:{user_id}" + (":yes" if sure else ""),
        ))
        self.user_id = user_id
        self.sure = sure

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["user"]), match["sure"] is not None)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        lang = (await resolve(host_of(interaction), interaction)).lang
        if interaction.user.id != self.user_id:  # the message is ephemeral; this is belt and braces
            raise ReplyError(text("quiz.forget_not_yours", lang))
        if not self.sure:
            await ack.edit(interaction, content=text("quiz.forget_ask", lang), embed=None,
                                                    view=forget_view(self.user_id, lang, sure=True))
            return
        count = await host_of(interaction).store.forget_quiz_answers(self.user_id)
        await ack.edit(interaction, content=text("quiz.forgotten", lang, count=count), embed=None,
                                                view=None)


def forget_view(user_id: int, lang: Lang, *, sure: bool = False) -> discord.ui.View:
    """The /quiz me button that offers to forget the member's answers (``sure``: the one that does)."""
    view = discord.ui.View(timeout=None)
    label = text("quiz.forget_confirm" if sure else "quiz.forget_button", lang)
    view.add_item(ForgetAnswers(user_id, sure, label))
    view.stop()  # only for sending: a press reaches the registered ForgetAnswers, not this instance
    return view
