"""The answer buttons of a /quiz question: one button per choice, its quiz, question and choice in
its ``custom_id`` (``quiz:<quiz id>:<question>:<choice>``).

``QuizChoice`` is a discord.py ``DynamicItem``: the quiz cog registers its template once (``cog_load``),
so a press is understood from the ``custom_id`` alone — also on a question posted before a
restart. A press is answered ephemerally, only to the member: recorded, already answered, or closed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol, Self, runtime_checkable

import discord

from bot.core.errors import guarded
from bot.core.host import host_of
from bot.core.words import language_of, text

Answered = Literal["recorded", "already", "closed"]  # what a press did (each has its reply, quiz.<outcome>)

__all__ = ["TEMPLATE", "Answered", "QuizChoice", "choice_view", "custom_id"]

TEMPLATE = r"quiz:(?P<quiz>[0-9]+):(?P<question>[0-9]+):(?P<choice>[0-9]+)"
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
        lang = language_of(interaction.locale)
        quiz = host_of(interaction).get_cog("Quiz")
        if not isinstance(quiz, Answers):
            return  # the quiz extension is not loaded: nothing records answers
        outcome, label = await quiz.service.answer(self.quiz_id, self.question, interaction.user.id, self.choice)
        reply = text("quiz.recorded", lang, choice=label) if outcome == "recorded" else text(f"quiz.{outcome}", lang)
        await interaction.response.send_message(reply, ephemeral=True)


def choice_view(quiz_id: int, question: int, labels: Sequence[str]) -> discord.ui.View:
    """The buttons for a question's choices (``labels`` in presentation order), never timing out."""
    view = discord.ui.View(timeout=None)
    for number, label in enumerate(labels, 1):
        view.add_item(QuizChoice(quiz_id, question, number, label))
    return view
