"""The answer buttons of a /quiz question: one button per choice, its quiz, question and choice in
its ``custom_id`` (``quiz:<quiz id>:<question>:<choice>``).

``QuizChoice`` is a discord.py ``DynamicItem``: the bot registers its template once (bot/quiz.py),
so a press is understood from the ``custom_id`` alone — also on a question posted before a
restart. A press is answered ephemerally, only to the member: recorded, already answered, or closed.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Sequence
from typing import Any, Self

import discord

from .i18n import language_of, text

__all__ = ["TEMPLATE", "QuizChoice", "choice_view", "custom_id"]

log = logging.getLogger(__name__)

TEMPLATE = r"quiz:(?P<quiz>[0-9]+):(?P<question>[0-9]+):(?P<choice>[0-9]+)"
LABEL_MAX = 80  # Discord's limit for a button label


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

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # bot.app imports bot.quiz_service, which imports this module: the bot's class is looked up here.
        from .app import LiurenBot

        client = interaction.client
        lang = language_of(interaction.locale)
        if not isinstance(client, LiurenBot):
            return
        try:
            outcome, label = await client.quizzes.answer(
                self.quiz_id, self.question, interaction.user.id, self.choice
            )
            if outcome == "recorded":
                reply = text("quiz.recorded", lang, choice=label)
            else:
                reply = text(f"quiz.{outcome}", lang)
        except Exception:
            ref = uuid.uuid4().hex[:8]
            log.exception("quiz: a button press failed (ref %s)", ref)
            reply = text("error.internal", lang, ref=ref)
        await interaction.response.send_message(reply, ephemeral=True)


def choice_view(quiz_id: int, question: int, labels: Sequence[str]) -> discord.ui.View:
    """The buttons for a question's choices (``labels`` in presentation order), never timing out."""
    view = discord.ui.View(timeout=None)
    for number, label in enumerate(labels, 1):
        view.add_item(QuizChoice(quiz_id, question, number, label))
    return view
