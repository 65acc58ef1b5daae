"""The study quiz: /quiz, its service and its answer buttons (a discord.py extension:
``await bot.load_extension("bot.quiz")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Quiz

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Quiz", "setup"]


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Quiz(bot))
