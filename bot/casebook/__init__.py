"""The casebook (占例): every /cast and /chart kept as a case, its notes, /case, /history, the
buttons under a chart (a discord.py extension: ``await bot.load_extension("bot.casebook")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Casebook

if TYPE_CHECKING:
    from bot.core.host import LiurenBot

__all__ = ["Casebook", "setup"]


async def setup(bot: LiurenBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Casebook(bot))
